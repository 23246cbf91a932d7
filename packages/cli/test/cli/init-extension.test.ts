import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli } from "./cli-helpers.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/**
 * A project outside the repository whose node_modules holds what an author installs
 * (`@gatehouse/sdk`, `@gatehouse/testing`, `vitest`), linked to this workspace's built copies: vitest
 * finds no config of the repository's above it, and the packages resolve through their `dist/`.
 */
function authorProject(): string {
  const dir = tempDir("gh-init-ext-");
  writeFileSync(join(dir, "package.json"), '{ "name": "author-project", "private": true, "type": "module" }\n');
  mkdirSync(join(dir, "node_modules", "@gatehouse"), { recursive: true });
  mkdirSync(join(dir, "node_modules", ".bin"));
  symlinkSync(join(repo, "packages", "sdk"), join(dir, "node_modules", "@gatehouse", "sdk"));
  symlinkSync(join(repo, "packages", "testing"), join(dir, "node_modules", "@gatehouse", "testing"));
  symlinkSync(join(repo, "node_modules", "vitest"), join(dir, "node_modules", "vitest"));
  symlinkSync("../vitest/vitest.mjs", join(dir, "node_modules", ".bin", "vitest"));
  return dir;
}

/** Runs a command in `cwd` and resolves with its exit code and output (never rejects on a failure exit). */
function exec(file: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, NO_COLOR: "1", CI: "1" } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

describe("gatehouse init extension", () => {
  it("scaffolds a drop-in extension whose test passes with npx vitest, type-checks, and is discovered by the host", {
    timeout: 120_000,
  }, async () => {
    const dir = authorProject();
    const home = tempDir("gh-init-ext-home-");
    const init = await runCli(["init", "extension", "no-lock-edits", "--cwd", dir], { env: { GATEHOUSE_HOME: home } });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/^wrote\s+\.gatehouse\/extensions\/no-lock-edits\/index\.ts/m);
    expect(init.stdout).toMatch(/^wrote\s+\.gatehouse\/extensions\/no-lock-edits\/index\.test\.ts/m);
    expect(init.stdout).toMatch(/^wrote\s+\.gatehouse\/tsconfig\.json/m);
    expect(init.stdout).toContain("npm install --save-dev @gatehouse/sdk @gatehouse/testing vitest");
    expect(init.stdout).toContain("npx vitest run .gatehouse/extensions/no-lock-edits");

    const tests = await exec("npx", ["vitest", "run"], dir);
    expect(tests.out).toMatch(/Tests\s+2 passed \(2\)/);
    expect(tests.code).toBe(0);

    // Types as the editor sees them: the tsconfig `gatehouse init` writes covers the test too.
    const types = await exec(process.execPath, [tsc, "-p", join(dir, ".gatehouse", "tsconfig.json")], dir);
    expect(types.out).toBe("");
    expect(types.code).toBe(0);

    // The host discovers it where it was written (once the project is trusted).
    const listed = await runCli(["extensions", "--cwd", dir, "--json", "--trust"], { env: { GATEHOUSE_HOME: home } });
    const records = JSON.parse(listed.stdout) as { name: string; status: string; tools: string[] }[];
    expect(records.find((r) => r.name === "no-lock-edits")).toMatchObject({
      status: "loaded",
      tools: ["no_lock_edits_info"],
    });

    // The scaffolded test is a real test: an extension that stops blocking fails it.
    const source = join(dir, ".gatehouse", "extensions", "no-lock-edits", "index.ts");
    writeFileSync(source, readFileSync(source, "utf8").replace("block: true", "block: false"));
    const broken = await exec("npx", ["vitest", "run"], dir);
    expect(broken.code).not.toBe(0);
    expect(broken.out).toContain("was executed, not blocked");
  });

  it("never replaces the extension's files without --force, and names a bad NAME", async () => {
    const dir = tempDir("gh-init-ext-");
    expect((await runCli(["init", "extension", "guard-one", "--cwd", dir])).code).toBe(0);
    const file = join(dir, ".gatehouse", "extensions", "guard-one", "index.ts");
    writeFileSync(file, "// mine\n");
    const again = await runCli(["init", "extension", "guard-one", "--cwd", dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(".gatehouse/extensions/guard-one/index.ts and");
    expect(again.stderr).toContain("nothing was written (--force replaces them)");
    expect(readFileSync(file, "utf8")).toBe("// mine\n");
    const forced = await runCli(["init", "extension", "guard-one", "--cwd", dir, "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^replaced\s+\.gatehouse\/extensions\/guard-one\/index\.ts/m);
    expect(readFileSync(file, "utf8")).toContain('name: "guard-one"');

    for (const bad of ["Guard", "../escape", "a--b", "x-", "x/y", "_x"]) {
      const run = await runCli(["init", "extension", bad, "--cwd", dir]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr, bad).toContain(`"${bad}" is not an extension name`);
    }
    const none = await runCli(["init", "extension", "--cwd", dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("usage: gatehouse init extension NAME");
  });
});
