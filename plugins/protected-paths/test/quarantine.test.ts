import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { quarantine } from "../src/sandbox/quarantine.ts";

function tempDir(under = tmpdir()): string {
  return realpathSync(mkdtempSync(path.join(under, "gh-quarantine-")));
}

describe("taking a path out of the workspace", () => {
  it("moves a file and a folder into the quarantine, a link as a link", () => {
    const ws = tempDir();
    const q = tempDir();
    writeFileSync(path.join(ws, ".envrc"), "x");
    mkdirSync(path.join(ws, "sub", ".git"), { recursive: true });
    symlinkSync("/etc/passwd", path.join(ws, "link"));
    for (const name of [".envrc", path.join("sub", ".git"), "link"]) {
      const removal = quarantine(path.join(ws, name), () => q);
      expect(removal).toMatchObject({ movedTo: expect.stringContaining(q) });
      expect(existsSync(path.join(ws, name))).toBe(false);
    }
    expect(readFileSync("/etc/passwd", "utf8").length).toBeGreaterThan(0);
  });

  it("never acts outside the workspace when a parent was swapped for a link to elsewhere", () => {
    const ws = tempDir();
    const q = tempDir();
    const victim = tempDir();
    writeFileSync(path.join(victim, ".bashrc"), "VICTIM");
    mkdirSync(path.join(ws, "d"));
    // The review knows ws/d/.bashrc; a command running next to it swapped ws/d for a link.
    renameSync(path.join(ws, "d"), path.join(ws, "old-d"));
    symlinkSync(victim, path.join(ws, "d"));
    expect(() => quarantine(path.join(ws, "d", ".bashrc"), () => q)).toThrow(/no longer resolves to itself/);
    expect(readFileSync(path.join(victim, ".bashrc"), "utf8")).toBe("VICTIM");
  });

  it("deletes what it cannot move to another file system, a folder level by level without following links", () => {
    const ws = tempDir();
    const q = tempDir("/dev/shm");
    const victim = tempDir();
    writeFileSync(path.join(victim, "keep"), "VICTIM");
    writeFileSync(path.join(ws, ".envrc"), "x");
    mkdirSync(path.join(ws, "sub", ".git", "hooks"), { recursive: true });
    writeFileSync(path.join(ws, "sub", ".git", "hooks", "pre-commit"), "x");
    symlinkSync(victim, path.join(ws, "sub", ".git", "out"));
    expect(quarantine(path.join(ws, ".envrc"), () => q)).toEqual({ deleted: true });
    expect(existsSync(path.join(ws, ".envrc"))).toBe(false);
    expect(quarantine(path.join(ws, "sub", ".git"), () => q)).toEqual({ deleted: true });
    expect(existsSync(path.join(ws, "sub", ".git"))).toBe(false);
    expect(readFileSync(path.join(victim, "keep"), "utf8")).toBe("VICTIM");
  });

  it("moves a name as long as the file system allows (the quarantine keeps it in a folder of its own)", () => {
    const ws = tempDir();
    const q = tempDir();
    const long = `.env.${"A".repeat(245)}`;
    mkdirSync(path.join(ws, long));
    expect(quarantine(path.join(ws, long), () => q)).toMatchObject({ movedTo: expect.stringContaining(long) });
    expect(existsSync(path.join(ws, long))).toBe(false);
  });
});
