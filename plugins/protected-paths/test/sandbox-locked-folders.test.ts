import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { quarantine } from "../src/sandbox/quarantine.ts";
import { chmodAt } from "../src/scan/raw-fs.ts";
import { runCliScript } from "./helpers/cli-run.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A folder in /tmp (world-searchable, so another user can work below it when the tests run as root). */
function tempDir(): string {
  const dir = realpathSync(mkdtempSync("/tmp/gh-locked-"));
  chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform !== "linux")(
  "a folder the command locked does not keep a protected path in place",
  () => {
    it("the quarantine gives the owner back write, read and search on the parent and on a folder it moves or empties", () => {
      const ws = tempDir();
      const q = tempDir();
      writeFileSync(path.join(ws, ".mcp.json"), "{}");
      mkdirSync(path.join(ws, "sub", ".git", "hooks"), { recursive: true });
      writeFileSync(path.join(ws, "sub", ".git", "hooks", "pre-commit"), "#!/bin/sh\n");
      chmodSync(path.join(ws, "sub", ".git", "hooks"), 0o000);
      chmodSync(path.join(ws, "sub", ".git"), 0o555);
      chmodSync(path.join(ws, "sub"), 0o555);
      chmodSync(ws, 0o555);
      expect(quarantine(path.join(ws, ".mcp.json"), () => q)).toMatchObject({ movedTo: expect.any(String) });
      expect(mode(ws)).toBe(0o755);
      expect(quarantine(path.join(ws, "sub", ".git"), () => q)).toMatchObject({ movedTo: expect.any(String) });
      expect(existsSync(path.join(ws, "sub", ".git"))).toBe(false);
      expect(mode(path.join(ws, "sub"))).toBe(0o755);
      // Where it cannot be moved (another file system), it is deleted level by level.
      const shm = realpathSync(mkdtempSync("/dev/shm/gh-locked-"));
      made.push(shm);
      mkdirSync(path.join(ws, "d", ".git", "hooks"), { recursive: true });
      writeFileSync(path.join(ws, "d", ".git", "hooks", "pre-commit"), "#!/bin/sh\n");
      chmodSync(path.join(ws, "d", ".git", "hooks"), 0o000);
      chmodSync(path.join(ws, "d", ".git"), 0o555);
      chmodSync(path.join(ws, "d"), 0o555);
      expect(quarantine(path.join(ws, "d", ".git"), () => shm)).toEqual({ deleted: true });
      expect(existsSync(path.join(ws, "d", ".git"))).toBe(false);
    });
  },
);

describe.skipIf(process.platform !== "linux")("the index's chmod of a folder it cannot read", () => {
  it("never passes the mode on through a link the folder was swapped for", () => {
    const ws = tempDir();
    const victim = path.join(tempDir(), ".bashrc");
    writeFileSync(victim, "# the user's\n");
    chmodSync(victim, 0o600);
    // What the index found a locked folder, a command running next to the review made a link.
    symlinkSync(victim, path.join(ws, "d"));
    expect(() => chmodAt(path.join(ws, "d"), 0o777)).toThrow();
    expect(mode(victim)).toBe(0o600);
    mkdirSync(path.join(ws, "e"), { mode: 0o000 });
    chmodAt(path.join(ws, "e"), 0o500);
    expect(mode(path.join(ws, "e"))).toBe(0o500);
  });
});

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../packages/cli/bin/gatehouse.js");
const root = process.getuid?.() === 0;
/** As root, permission bits bind nobody: the run goes through an ordinary user (nobody), as Gatehouse is used. */
const NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
const asUser = root
  ? spawnSync(NOBODY[0] ?? "", [...NOBODY.slice(1), process.execPath, CLI, "--version"]).status === 0
  : true;

// Outside CI, a checkout that an ordinary user cannot reach skips these; CI makes it reachable (.ci/run) and never skips them.
describe.skipIf(process.platform !== "linux" || (!asUser && !process.env.CI))(
  "a sandboxed command that locks folders",
  () => {
    it("cannot keep a repository or an agent's settings it created by taking the write bits off their folders", async () => {
      const base = tempDir();
      const ws = path.join(base, "proj");
      mkdirSync(path.join(ws, ".git"), { recursive: true });
      writeFileSync(path.join(ws, ".git", "config"), "[core]\n");
      const home = path.join(base, "home");
      mkdirSync(home);
      const gh = path.join(base, "gh");
      // Names through variables: the analysis cannot see them; only the review after the run can.
      const command = [
        "G=.git; M=mcp; C=.claude",
        "echo '{}' > .$M.json",
        "mkdir -p $C sub/$G/hooks && echo '{}' > $C/settings.json",
        "printf '#!/bin/sh\\necho PWNED\\n' > sub/$G/hooks/pre-commit && chmod +x sub/$G/hooks/pre-commit",
        "chmod 000 sub/$G/hooks; chmod 555 sub/$G sub $C .; echo made",
      ].join("\n");
      mkdirSync(path.join(ws, ".gatehouse"));
      writeFileSync(path.join(ws, ".gatehouse", "settings.json"), "{}");
      if (root) spawnSync("chown", ["-R", "65534:65534", base]);
      const { ends, stderr } = await runCliScript({
        cwd: ws,
        scriptDir: base,
        env: { HOME: home, GATEHOUSE_HOME: gh },
        turns: [[{ id: "A", name: "bash", args: { command } }]],
        ...(root ? { launcher: NOBODY } : {}),
      });
      const end = ends.get("A");
      expect(end?.outcome, stderr).toBe("blocked");
      expect(end?.text).toContain("made");
      expect(end?.text).not.toContain("left in place");
      for (const p of [".mcp.json", ".claude/settings.json", "sub/.git"])
        expect(existsSync(path.join(ws, p)), p).toBe(false);
    });

    it("cannot keep a protected symbolic link removed by taking the write bits off its folder", async () => {
      const base = tempDir();
      const ws = path.join(base, "proj");
      mkdirSync(path.join(ws, "shared", "claude"), { recursive: true });
      writeFileSync(path.join(ws, "shared", "claude", "settings.json"), "{}");
      symlinkSync("shared/claude", path.join(ws, ".claude"));
      const home = path.join(base, "home");
      mkdirSync(home);
      mkdirSync(path.join(ws, ".gatehouse"));
      writeFileSync(path.join(ws, ".gatehouse", "settings.json"), "{}");
      if (root) spawnSync("chown", ["-R", "65534:65534", base]);
      const { ends, stderr } = await runCliScript({
        cwd: ws,
        scriptDir: base,
        env: { HOME: home, GATEHOUSE_HOME: path.join(base, "gh") },
        turns: [
          [{ id: "A", name: "bash", args: { command: "C=.claude; rm $C; chmod 555 .; echo made" } }],
          [{ id: "B", name: "bash", args: { command: "echo next" } }],
        ],
        ...(root ? { launcher: NOBODY } : {}),
      });
      expect(ends.get("A")?.outcome, stderr).toBe("blocked");
      expect(ends.get("A")?.text).toContain("it was put back");
      // The review completed: later commands run.
      expect(ends.get("B")?.outcome).toBe("executed");
      expect(ends.get("B")?.text).toContain("next");
    });
  },
);
