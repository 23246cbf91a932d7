import { spawnSync } from "node:child_process";
import { linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture, read, ruleOf, write } from "./helpers/fixture.ts";

// A read rule that matches a folder hides what the folder holds: the sandbox masks the folder and
// grep, find and ls never enter it, so `read` (and grep, find or ls started inside it) may not open
// its files by name either. `.env/production` and `.env.d/prod` were read and written by the file
// tools while the same policy masked them for bash, and `policy check` called them allowed.

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../packages/cli/bin/gatehouse.js");
const linux = process.platform === "linux";

describe("a folder a rule denies covers what it holds", () => {
  it("reads below a folder that a default or configured read rule matches are refused, at any depth", () => {
    const f = createFixture();
    f.file(".env.d/prod/api", "S");
    f.file("app/.env/production", "S");
    f.file("private/inner/a.txt", "S");
    f.file(".env.example/notes", "ok");
    const policy = f.policy({ denyRead: ["private"] });
    expect(ruleOf(policy.check(read(".env.d/prod/api")))).toBe("default denyRead .env.!(example|sample)");
    expect(ruleOf(policy.check(read("app/.env/production")))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(read("private/inner/a.txt")))).toBe("config denyRead private");
    expect(ruleOf(policy.check(read("private/inner")))).toBe("config denyRead private");
    expect(ruleOf(policy.check(read(".env.example/notes")))).toBe("allow");
    // Through a link to the folder, and through another name of a file inside it (a hard link).
    symlinkSync("private", path.join(f.ws, "plink"));
    linkSync(path.join(f.ws, "private/inner/a.txt"), path.join(f.ws, "alias.txt"));
    expect(ruleOf(policy.check(read("plink/inner/a.txt")))).toBe("config denyRead private");
    expect(ruleOf(policy.check(read("alias.txt")))).toBe("hard link");
  });

  it("a workspace below a folder with a protected name is not denied wholesale", () => {
    const f = createFixture();
    const ws = f.dir(path.join(f.base, ".env.d/proj"));
    f.file(path.join(ws, "src/a.ts"));
    const policy = f.policy({ denyRead: ["proj"] }, { cwd: ws });
    expect(ruleOf(policy.check(read(path.join(ws, "src/a.ts"))))).toBe("allow");
    expect(ruleOf(policy.check(read(path.join(f.base, ".env.d/other.txt"))))).toBe(
      "default denyRead .env.!(example|sample)",
    );
  });

  it("writes into a .env or .env.* folder are refused; a repository's own files stay writable", () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".env"));
    f.file(".env/production", "S");
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".env/production")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write("svc/.env.d/new")))).toBe("default denyWrite .env.*");
    expect(ruleOf(policy.check(write(".git/objects/ab/cdef")))).toBe("allow");
    expect(ruleOf(policy.check(write(".git/config")))).toBe("default denyWrite .git/config");
  });

  it.skipIf(!linux)(
    "end to end: read, grep, find, ls, edit and write refuse the folder's files; policy check agrees",
    { timeout: 60_000 },
    async () => {
      const f = createFixture();
      rmSync(path.join(f.ws, ".env"));
      f.file(".env/production", "DIR_SECRET_1\n");
      f.file("private/inner/a.txt", "PRIV_SECRET_2\n");
      f.file("team/keys/k.txt", "TEAM_SECRET_3\n");
      f.file("src/a.ts", "export const a = 1;\n");
      // Three settings levels: the project's local file, managed settings, and the defaults.
      f.file(
        ".gatehouse/settings.local.json",
        JSON.stringify({ config: { "protected-paths": { denyRead: ["private"] } } }),
      );
      const managed = path.join(f.base, "managed.json");
      writeFileSync(
        managed,
        JSON.stringify({
          extensions: ["@gatehouse/protected-paths"],
          config: { "protected-paths": { denyRead: ["./team/keys"] } },
        }),
      );
      const env = { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh"), GATEHOUSE_MANAGED_SETTINGS: managed };
      const inside = [".env/production", "private/inner/a.txt", "team/keys/k.txt"];
      const { ends, stderr } = await runCliScript({
        cwd: f.ws,
        scriptDir: f.base,
        env,
        turns: [
          [
            ...inside.map((p, i) => ({ id: `R${i}`, name: "read", args: { path: p } })),
            { id: "G", name: "grep", args: { pattern: "SECRET", path: "private/inner" } },
            { id: "F", name: "find", args: { pattern: "*", path: "team/keys" } },
            { id: "L", name: "ls", args: { path: ".env" } },
            { id: "E", name: "edit", args: { path: "private/inner/a.txt", oldText: "PRIV_SECRET_2", newText: "x" } },
            { id: "W", name: "write", args: { path: ".env/production", content: "planted\n" } },
            { id: "T", name: "grep", args: { pattern: "SECRET|const" } },
          ],
        ],
      });
      expect(ends.size, stderr).toBe(9);
      for (const [id, end] of ends) expect(end.text, id).not.toMatch(/DIR_SECRET_1|PRIV_SECRET_2|TEAM_SECRET_3/);
      for (const id of ["R0", "R1", "R2", "G", "F", "L", "E", "W"]) expect(ends.get(id)?.outcome, id).toBe("blocked");
      expect(ends.get("T")?.text).toContain("src/a.ts:1: export const a = 1;");
      expect(readFileSync(path.join(f.ws, ".env/production"), "utf8")).toBe("DIR_SECRET_1\n");
      expect(readFileSync(path.join(f.ws, "private/inner/a.txt"), "utf8")).toBe("PRIV_SECRET_2\n");

      for (const [i, p] of inside.entries()) {
        const check = spawnSync(
          process.execPath,
          [CLI, "policy", "check", "--cwd", f.ws, "--tool", "read", "--args", JSON.stringify({ path: p })],
          { env: { ...withoutNodePath(process.env), ...env }, encoding: "utf8" },
        );
        expect(check.status, check.stderr).toBe(1);
        expect(check.stdout).toContain("decision: blocked by protected-paths");
        expect(check.stdout).toContain(ends.get(`R${i}`)?.text);
      }
    },
  );
});

/** The environment without vitest's NODE_PATH (the CLI must find only what an installation finds). */
function withoutNodePath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...rest } = env;
  return rest;
}
