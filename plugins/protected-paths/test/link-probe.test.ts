import { describe, expect, it } from "vitest";
import type { DirEntry, FileInfo, PolicyFs } from "../src/paths/policy-fs.ts";
import { LinkProbe } from "../src/rules/link-aliases.ts";

/** A folder /home with a link `.aws`, a folder `.ssh` and a folder `.Config`; counts each call. */
function countingFs() {
  const calls = { lstat: [] as string[], readdir: [] as string[] };
  const entries: DirEntry[] = [
    { name: ".aws", isDirectory: false, isSymbolicLink: true },
    { name: ".ssh", isDirectory: true, isSymbolicLink: false },
    { name: ".Config", isDirectory: true, isSymbolicLink: false },
  ];
  const info = (link: boolean): FileInfo => ({
    isFile: false,
    isDirectory: !link,
    isSymbolicLink: link,
    nlink: 1,
    dev: 1,
    ino: 1,
  });
  const fs: PolicyFs = {
    realpath: () => undefined,
    readlink: () => undefined,
    lstat(p) {
      calls.lstat.push(p);
      const name = p.slice("/home/".length);
      // A case-folding filesystem: `.config` finds `.Config`.
      const hit = entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
      return hit ? info(hit.isSymbolicLink) : undefined;
    },
    readdir(p) {
      calls.readdir.push(p);
      return p === "/home" ? entries : undefined;
    },
  };
  return { fs, calls };
}

describe("LinkProbe", () => {
  it("lists a folder probed for many names once instead of an lstat per name, with the same answers", () => {
    const { fs, calls } = countingFs();
    const probe = new LinkProbe(fs);
    const names = [".a", ".b", ".c", ".d", ".e", ".f", ".aws", ".ssh", ".gnupg"];
    const kinds = names.map((n) => probe.kind(`/home/${n}`));
    expect(kinds).toEqual([
      "missing",
      "missing",
      "missing",
      "missing",
      "missing",
      "missing",
      "link",
      "other",
      "missing",
    ]);
    expect(calls.readdir).toEqual(["/home"]);
    expect(calls.lstat).toEqual(["/home/.a", "/home/.b", "/home/.c"]);
  });

  it("asks lstat for a name the listing has only under another case or Unicode form: a folding filesystem finds it", () => {
    const { fs, calls } = countingFs();
    const probe = new LinkProbe(fs);
    for (const n of [".a", ".b", ".c", ".d"]) probe.kind(`/home/${n}`);
    calls.lstat.length = 0;
    expect(probe.kind("/home/.config")).toBe("other");
    expect(calls.lstat).toEqual(["/home/.config"]);
  });

  it("falls back to lstat for a folder it cannot list", () => {
    const { fs, calls } = countingFs();
    const probe = new LinkProbe(fs);
    for (const n of [".a", ".b", ".c", ".d", ".e"]) probe.kind(`/other/${n}`);
    expect(calls.readdir).toEqual(["/other"]);
    expect(calls.lstat).toHaveLength(5);
  });
});
