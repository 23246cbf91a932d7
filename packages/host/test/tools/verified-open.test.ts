import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRealPath } from "../../src/tools/real-path.ts";
import { closeFile, openVerified, readWhole, writeWhole } from "../../src/tools/verified-open.ts";
import { tempDir } from "./helpers.ts";

/** A workspace with a `box` folder and a `vault` folder that must never be touched through `box`. */
async function layout() {
  const dir = await tempDir();
  await mkdir(path.join(dir, "box"));
  await mkdir(path.join(dir, "vault"));
  await writeFile(path.join(dir, "vault", "secret"), "keep");
  return { dir, box: path.join(dir, "box"), vault: path.join(dir, "vault") };
}

/** Replaces `folder` with a symlink to `target` (what a racing process does between check and use). */
async function swap(folder: string, target: string) {
  await rename(folder, `${folder}-moved`);
  await symlink(target, folder);
}

const fallback = ["comparing device and inode of every folder", false] as const;
// Descriptor links exist on Linux only; the portable checks run everywhere.
const modes =
  process.platform === "linux" ? [["through /proc/self/fd descriptors", true] as const, fallback] : [fallback];

describe.each(modes)("openVerified %s", (_name, fdLinks) => {
  it("creates missing folders and the file", async () => {
    const { box } = await layout();
    const target = path.join(box, "a", "b", "new.txt");
    const file = openVerified({ target, intent: "replace", displayPath: "box/a/b/new.txt", fdLinks });
    await writeWhole(file, Buffer.from("hello"));
    await closeFile(file);
    expect(file.created).toBe(true);
    expect(await readFile(target, "utf8")).toBe("hello");
  });

  it("a folder swapped for a link after the target was resolved: the call fails and nothing is created there", async () => {
    const { box, vault } = await layout();
    const target = resolveRealPath(path.join(box, "new.txt"));
    await swap(box, vault);
    expect(() => openVerified({ target, intent: "replace", displayPath: "box/new.txt", fdLinks })).toThrow(
      /^box\/new\.txt changed while the call ran: .*; nothing was written\.$/,
    );
    expect(await readdir(vault)).toEqual(["secret"]);
  });

  it("an existing file behind a swapped folder is neither truncated nor read", async () => {
    const { box, vault } = await layout();
    const target = resolveRealPath(path.join(box, "secret"));
    await swap(box, vault);
    expect(() => openVerified({ target, intent: "replace", displayPath: "box/secret", fdLinks })).toThrow(
      /changed while the call ran/,
    );
    expect(() => openVerified({ target, intent: "read", displayPath: "box/secret", fdLinks })).toThrow(
      /; nothing was read\.$/,
    );
    expect(await readFile(path.join(vault, "secret"), "utf8")).toBe("keep");
  });
});

describe.runIf(process.platform === "linux")("openVerified through descriptors", () => {
  it("a missing folder that appears as a link to elsewhere is refused; nothing is created behind it", async () => {
    const { box, vault } = await layout();
    const target = resolveRealPath(path.join(box, "sub", "deeper", "f.txt"));
    await symlink(vault, path.join(box, "sub"));
    expect(() => openVerified({ target, intent: "replace", displayPath: "box/sub/deeper/f.txt" })).toThrow(
      /changed while the call ran/,
    );
    expect(await readdir(vault)).toEqual(["secret"]);
  });

  it("a file replaced by a symlink after it was resolved is not followed", async () => {
    const { box, vault } = await layout();
    const target = path.join(box, "f.txt");
    await symlink(path.join(vault, "secret"), target);
    expect(() => openVerified({ target, intent: "update", displayPath: "box/f.txt" })).toThrow(
      `box/f.txt changed while the call ran: ${target} became a symbolic link; nothing was written.`,
    );
    expect(() => openVerified({ target, intent: "replace", displayPath: "box/f.txt" })).toThrow(
      /became a symbolic link/,
    );
    expect(await readFile(path.join(vault, "secret"), "utf8")).toBe("keep");
  });

  it("a missing file is the system's ENOENT for a read or an update", async () => {
    const { box } = await layout();
    const target = path.join(box, "nope.txt");
    expect(() => openVerified({ target, intent: "read", displayPath: "nope.txt" })).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
    expect(() => openVerified({ target, intent: "update", displayPath: "nope.txt" })).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });

  it("a named pipe is opened without blocking (the caller refuses it as not a regular file)", async () => {
    const { box } = await layout();
    const { execFileSync } = await import("node:child_process");
    const fifo = path.join(box, "pipe");
    execFileSync("mkfifo", [fifo]);
    const file = openVerified({ target: fifo, intent: "read", displayPath: "box/pipe" });
    expect(file.stats.isFIFO()).toBe(true);
    await closeFile(file);
  });
});

describe("readWhole", () => {
  it("reads a file that grew after its size was taken, but never past its limit: a file that keeps growing is an error naming it", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "growing.log");
    await writeFile(file, "x".repeat(100));
    const opened = openVerified({ target: resolveRealPath(file), intent: "read", displayPath: "growing.log" });
    try {
      // The size taken at the open said 10 bytes; 100 are there now (another process appended).
      const stale = {
        ...opened,
        stats: Object.assign(Object.create(Object.getPrototypeOf(opened.stats)), opened.stats, { size: 10 }),
      };
      expect((await readWhole(stale, { displayPath: "growing.log", maxBytes: 100 })).length).toBe(100);
      await expect(readWhole(stale, { displayPath: "growing.log", maxBytes: 99 })).rejects.toThrow(
        "growing.log grew past 99 bytes while it was read (another process is writing it); nothing was loaded.",
      );
    } finally {
      await closeFile(opened);
    }
  });
});
