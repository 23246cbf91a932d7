import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// A --seals or --key that names nothing usable is bad input (exit 2, naming the option and path),
// not a verdict about the log: a missing seal folder once read as "TAMPERED … no seals were found"
// (exit 6) and a missing key as "ENOENT: ENOENT: …" (exit 1).

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const write = { type: "toolCall", id: "W", name: "write", arguments: { path: "marker.txt", content: "m" } };
const turns = [{ content: [write] }, { content: [{ type: "text", text: "done" }] }];

let p: ReturnType<typeof makeProject>;
beforeAll(async () => {
  p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
  const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns)], { env: p.env });
  expect([run.code, run.stderr]).toEqual([0, ""]);
  const intact = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
  expect(intact.code).toBe(0);
});

describe("audit verify: options that name nothing usable", () => {
  const dir = tempDir("gh-seals-");
  const file = join(dir, "a-file");
  writeFileSync(file, "x");
  const fifo = join(dir, "a-fifo");
  execFileSync("mkfifo", [fifo]);
  for (const [what, path, reason] of [
    ["a missing folder", join(dir, "missing"), "no such directory"],
    ["a file", file, "not a directory"],
    ["a FIFO", fifo, "not a directory"],
  ] as const) {
    it(`--seals naming ${what} exits 2 naming the option and path, with no verdict`, async () => {
      const verify = await runCli(["audit", "verify", "--cwd", p.dir, "--seals", path], { env: p.env });
      expect([verify.code, verify.stdout, verify.stderr]).toEqual([2, "", `gatehouse: --seals ${path}: ${reason}\n`]);
    });
  }

  it("--key naming a missing file exits 2 with one clean message", async () => {
    const key = join(dir, "nowhere", "audit.key");
    const verify = await runCli(["audit", "verify", "--cwd", p.dir, "--key", key], { env: p.env });
    expect([verify.code, verify.stdout, verify.stderr]).toEqual([2, "", `gatehouse: --key ${key}: no such file\n`]);
  });

  it("a key the settings name that does not exist exits 2 naming the setting", async () => {
    const key = join(dir, "team.key");
    const q = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS, config: { "tool-audit": { key } } }),
    });
    const verify = await runCli(["audit", "verify", "--cwd", q.dir], { env: q.env });
    expect(verify.code).toBe(2);
    expect(verify.stderr).toBe(
      `gatehouse: the audit key configured in config["tool-audit"].key, ${key}: no such file\n`,
    );
  });
});
