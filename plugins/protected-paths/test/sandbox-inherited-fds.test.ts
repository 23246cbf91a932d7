import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture } from "./helpers/fixture.ts";

// Node and bubblewrap close only the descriptors they opened themselves: one the program that
// started Gatehouse left open (an IDE's pipe, a wrapper's file) reached the model's command.
describe("the sandbox and descriptors gatehouse inherited", () => {
  it("a sandboxed command can neither read nor write through them", async () => {
    const f = createFixture();
    const secret = f.file(path.join(f.outside, "held-open.txt"), "INHERITED_SECRET_456\n");
    const sink = f.file(path.join(f.outside, "sink.txt"), "");
    // The launcher opens fd 7 on a file for reading and fd 251 on another for writing, then runs the CLI.
    const launcher = ["bash", "-c", `exec 7<"$0" 251>>"$1"; exec "\${@:2}"`, secret, sink];
    const command = "cat <&7; echo written >&251; ls /proc/self/fd | wc -l; echo done";
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      launcher,
      turns: [[{ id: "B", name: "bash", args: { command } }]],
    });
    const end = ends.get("B");
    expect(end?.text, stderr).toContain("done");
    expect(end?.text).not.toContain("INHERITED_SECRET_456");
    expect(end?.text).toContain("Bad file descriptor");
    expect(readFileSync(sink, "utf8")).toBe("");
  });
});
