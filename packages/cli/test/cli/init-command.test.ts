import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli } from "./cli-helpers.ts";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

describe("gatehouse init", () => {
  it("writes settings with both guards, a .gitignore entry and an editor tsconfig, and says what it wrote", async () => {
    const dir = tempDir("gh-init-");
    const home = tempDir("gh-init-home-");
    const run = await runCli(["init", "--cwd", dir], { env: { GATEHOUSE_HOME: home } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote\s+\.gatehouse\/settings\.json\s+enables @gatehouse\/protected-paths/m);
    expect(run.stdout).toMatch(/^wrote\s+\.gatehouse\/tsconfig\.json/m);
    expect(run.stdout).toMatch(/^wrote\s+\.gitignore/m);
    const settings = JSON.parse(readFileSync(join(dir, ".gatehouse", "settings.json"), "utf8"));
    expect(settings.extensions).toEqual(["@gatehouse/protected-paths", "@gatehouse/tool-audit"]);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".gatehouse/settings.local.json\n");

    const policy = await runCli(
      ["policy", "check", "--cwd", dir, "--tool", "write", "--args", '{"path":".env","content":"x"}'],
      { env: { GATEHOUSE_HOME: home } },
    );
    expect(policy.stderr).toBe("");
    expect(policy.stdout).toContain("decision: blocked by protected-paths");
  });

  // Finding: installed per project (the README's `npm install -D` of the tarballs), the guards are
  // project code that runs only once trusted, but init sent the user to `gatehouse policy check`,
  // which then failed (exit 2), as every run did.
  it("says to trust the project first when the guards are installed in it, and not otherwise", async () => {
    const dir = tempDir("gh-init-");
    const home = tempDir("gh-init-home-");
    const plain = await runCli(["init", "--cwd", dir], { env: { GATEHOUSE_HOME: home } });
    expect(plain.stdout).not.toContain("First: `gatehouse trust`");
    const local = tempDir("gh-init-");
    for (const name of ["protected-paths", "tool-audit"]) {
      mkdirSync(join(local, "node_modules", "@gatehouse", name), { recursive: true });
      writeFileSync(join(local, "node_modules", "@gatehouse", name, "package.json"), "{}");
    }
    const run = await runCli(["init", "--cwd", local], { env: { GATEHOUSE_HOME: home } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("First: `gatehouse trust`. The guards are installed in this project");
    expect(run.stdout).toContain("  node_modules/@gatehouse/protected-paths, node_modules/@gatehouse/tool-audit\n");
  });

  it("never replaces an existing file without --force, and only adds missing .gitignore lines", async () => {
    const dir = tempDir("gh-init-");
    mkdirSync(join(dir, ".gatehouse"));
    writeFileSync(join(dir, ".gatehouse", "settings.json"), '{ "extensions": [] }\n');
    writeFileSync(join(dir, ".gitignore"), "node_modules\n.gatehouse/settings.local.json");
    const first = await runCli(["init", "--cwd", dir]);
    expect(first.stdout).toMatch(
      /^kept\s+\.gatehouse\/settings\.json\s+exists, left as it is \(--force replaces it\)/m,
    );
    expect(readFileSync(join(dir, ".gatehouse", "settings.json"), "utf8")).toBe('{ "extensions": [] }\n');
    const ignore = readFileSync(join(dir, ".gitignore"), "utf8");
    expect(ignore.match(/settings\.local\.json/g)).toHaveLength(1);
    expect(ignore.startsWith("node_modules\n.gatehouse/settings.local.json\n")).toBe(true);

    const again = await runCli(["init", "--cwd", dir]);
    expect(again.stdout).toMatch(/^unchanged\s+\.gitignore/m);
    const forced = await runCli(["init", "--cwd", dir, "--force"]);
    expect(forced.stdout).toMatch(/^replaced\s+\.gatehouse\/settings\.json/m);
    expect(JSON.parse(readFileSync(join(dir, ".gatehouse", "settings.json"), "utf8")).extensions).toHaveLength(2);
  });

  it("refuses at once, naming the file, what it cannot edit: FIFOs, folders, files in the way, link loops, non-UTF-8", async () => {
    const latin1 = Buffer.from("node_modules\ncaf\xe9\n", "latin1");
    const cases: [string, (dir: string) => void, string[], string, RegExp][] = [
      [
        "fifo settings",
        (d) => {
          mkdirSync(join(d, ".gatehouse"));
          execFileSync("mkfifo", [join(d, ".gatehouse", "settings.json")]);
        },
        ["--force"],
        ".gatehouse/settings.json",
        /not a regular file/,
      ],
      [
        "fifo settings, kept without --force",
        (d) => {
          mkdirSync(join(d, ".gatehouse"));
          execFileSync("mkfifo", [join(d, ".gatehouse", "settings.json")]);
        },
        [],
        ".gatehouse/settings.json",
        /cannot keep .*: it is not a regular file/,
      ],
      [
        "fifo .gitignore",
        (d) => execFileSync("mkfifo", [join(d, ".gitignore")]),
        [],
        ".gitignore",
        /not a regular file/,
      ],
      [
        ".gatehouse a file",
        (d) => writeFileSync(join(d, ".gatehouse"), ""),
        [],
        ".gatehouse/settings.json",
        /a folder on its path is a file/,
      ],
      [".gitignore a folder", (d) => mkdirSync(join(d, ".gitignore")), [], ".gitignore", /is a directory/],
      [
        ".gitignore a link loop",
        (d) => symlinkSync(".gitignore", join(d, ".gitignore")),
        [],
        ".gitignore",
        /link loop \(ELOOP\)/,
      ],
      [
        ".gitignore not UTF-8",
        (d) => writeFileSync(join(d, ".gitignore"), latin1),
        [],
        ".gitignore",
        /not valid UTF-8/,
      ],
    ];
    for (const [what, make, flags, file, reason] of cases) {
      const dir = tempDir("gh-init-odd-");
      make(dir);
      const run = await runCli(["init", "--cwd", dir, ...flags]);
      expect([what, run.code]).toEqual([what, 2]);
      expect(run.stderr).toMatch(new RegExp(`^gatehouse: .*${join(dir, file).replaceAll(".", "\\.")}`));
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      if (what === ".gitignore not UTF-8") {
        expect(readFileSync(join(dir, ".gitignore"))).toEqual(latin1);
        // Refused before anything was written.
        expect(existsSync(join(dir, ".gatehouse"))).toBe(false);
      }
    }
  });

  it("gives a drop-in extension its types: tsc over .gatehouse/tsconfig.json accepts good code and reports a type error", async () => {
    const dir = tempDir("gh-init-");
    expect((await runCli(["init", "--cwd", dir])).code).toBe(0);
    mkdirSync(join(dir, ".gatehouse", "extensions"));
    const file = join(dir, ".gatehouse", "extensions", "shout.ts");
    const good = `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({
  name: "shout",
  setup(api) {
    api.registerTool(defineTool({
      name: "shout", description: "Upper-cases a text.", parameters: z.object({ text: z.string() }), effects: () => [],
      execute: async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
    }));
  },
});
`;
    writeFileSync(file, good);
    const check = () => {
      try {
        execFileSync(process.execPath, [tsc, "-p", join(dir, ".gatehouse", "tsconfig.json")], { encoding: "utf8" });
        return "";
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    };
    expect(check()).toBe("");
    writeFileSync(file, good.replace("text.toUpperCase()", "text.length"));
    expect(check()).toMatch(/shout\.ts\(\d+,\d+\): error TS2322: .*text: number/);
  });
});
