import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// A key that others can read lets them forge a history that verifies: a configured key must be a
// private file of the user at every settings level. A run with such a key stops before any tool
// runs (a guard configuration error, exit 2, naming the key) and verify refuses it (exit 1).

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const write = { type: "toolCall", id: "W", name: "write", arguments: { path: "marker.txt", content: "m" } };
const turns = [{ content: [write] }, { content: [{ type: "text", text: "done" }] }];

function projectWithKey(key: string) {
  return makeProject({
    ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS, config: { "tool-audit": { key } } }),
  });
}

describe("a configured audit key must be private", () => {
  for (const [what, makeKey, reason] of [
    [
      "a key file other users can read",
      () => {
        const file = join(tempDir("gh-key-"), "public.key");
        writeFileSync(file, randomBytes(32).toString("hex"));
        chmodSync(file, 0o644);
        return file;
      },
      /public\.key is readable by other users \(mode 644\)/,
    ],
    // Readable by everyone: refused as someone else's file, or (run as root) as readable by others.
    ["/etc/passwd", () => "/etc/passwd", /\/etc\/passwd is (owned by uid \d+, not by you|readable by other users)/],
  ] as const) {
    it(`${what}: the run stops before any tool runs (exit 2) and verify refuses the key (exit 1)`, async () => {
      const p = projectWithKey(makeKey());
      const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns)], { env: p.env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/config\.tool-audit\.key cannot be used/);
      expect(run.stderr).toMatch(reason);
      expect(existsSync(join(p.dir, "marker.txt"))).toBe(false);
      const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
      expect(verify.code).toBe(1);
      expect(verify.stderr).toMatch(/the audit key cannot be used/);
      expect(verify.stderr).toMatch(reason);
      expect(verify.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it("a private team key named by the project settings is used, and verify authenticates with it", async () => {
    const key = join(tempDir("gh-key-"), "team.key");
    writeFileSync(key, randomBytes(32).toString("hex"), { mode: 0o600 });
    const p = projectWithKey(key);
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns)], { env: p.env });
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.stdout).toMatch(/INTACT/);
    expect(verify.code).toBe(0);
  });

  it("verify --key with a key file others can read is refused (exit 1), not used", async () => {
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns)], { env: p.env });
    expect(run.code).toBe(0);
    const open = join(tempDir("gh-key-"), "open.key");
    writeFileSync(open, randomBytes(32).toString("hex"));
    chmodSync(open, 0o604);
    const verify = await runCli(["audit", "verify", "--cwd", p.dir, "--key", open], { env: p.env });
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(/the audit key cannot be used: audit key .*open\.key is readable by other users/);
  });
});
