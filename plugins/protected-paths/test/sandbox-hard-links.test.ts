import { linkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture } from "./helpers/fixture.ts";

const linux = process.platform === "linux";

// Before: only other names of files the index matched by themselves (`.env`) were masked, so a hard
// link made in the workspace before the run to `~/.ssh/id_rsa`, to a file of a configured absolute
// rule or to a file inside a denied folder read as the file itself in the sandbox — while `read`
// refused the same name.
describe("hard links of read-denied files in the sandbox", () => {
  it("every name in the workspace of a file inside a denied folder or under an absolute rule is masked", async () => {
    const f = createFixture();
    const key = f.file(path.join(f.home, ".ssh/id_rsa"), "SSH");
    const vault = f.file(path.join(f.base, "vault/db.txt"), "VAULT");
    const inFolder = f.file("private/a.txt", "PRIVATE");
    f.dir("docs");
    linkSync(key, path.join(f.ws, "docs/k1"));
    linkSync(vault, path.join(f.ws, "docs/k2"));
    linkSync(inFolder, path.join(f.ws, "docs/k3"));
    const config = { denyRead: [path.join(f.base, "vault/**"), "private"] };
    const policy = createPolicy(config, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh") });
    const { layout } = await policy.sandboxProfile({ quarantineDir: () => path.join(f.base, "q") }).prepare();
    expect(layout.masked).toEqual(
      expect.arrayContaining(["docs/k1", "docs/k2", "docs/k3"].map((rel) => path.join(f.ws, rel))),
    );
    expect(layout.masked).not.toContain(path.join(f.ws, "docs/env.md"));
  });

  it.skipIf(!linux)("a sandboxed command reads a hard link of a home credential as an empty file", async () => {
    const f = createFixture();
    const home = f.dir("user-home");
    const key = f.file(path.join(home, ".ssh/id_rsa"), "SSH_PRIVATE_KEY_TEXT\n");
    const aws = f.file(path.join(home, ".aws/credentials"), "AWS_SECRET_TEXT\n");
    f.dir("docs");
    linkSync(key, path.join(f.ws, "docs/notes.txt"));
    linkSync(aws, path.join(f.ws, "docs/more.txt"));
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      turns: [[{ id: "B", name: "bash", args: { command: "F=docs; cat $F/notes.txt $F/more.txt; echo done" } }]],
    });
    const text = ends.get("B")?.text ?? "";
    expect(text, stderr).toContain("done");
    expect(text).not.toMatch(/SSH_PRIVATE_KEY_TEXT|AWS_SECRET_TEXT/);
  });
});
