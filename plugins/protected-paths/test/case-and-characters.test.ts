import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { detectCaseFolding } from "../src/paths/case-folding.ts";
import { checkPathText } from "../src/paths/path-text.ts";
import { type FileInfo, nodePolicyFs, type PolicyFs } from "../src/paths/policy-fs.ts";
import { createFixture, exec, read, reasonOf, ruleOf, write } from "./helpers/fixture.ts";
import { createFoldingFs } from "./helpers/folding-fs.ts";

describe("case folding", () => {
  it("when the filesystem folds case, case variants of protected paths are refused", () => {
    const policy = createFixture().policy({ caseInsensitive: true, denyWrite: ["Secrets/**"] });
    expect(ruleOf(policy.check(write(".ENV")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write(".Env.Local")))).toBe("default denyWrite .env.*");
    expect(ruleOf(policy.check(write(".Git/config")))).toBe("default denyWrite .git/config");
    expect(ruleOf(policy.check(write(".GIT/Hooks/pre-commit")))).toBe("default denyWrite .git/hooks/**");
    expect(ruleOf(policy.check(write("secrets/key.pem")))).toBe("config denyWrite Secrets/**");
    expect(ruleOf(policy.check(exec("echo x > .GIT/CONFIG")))).toBe("default denyWrite .git/config");
    expect(ruleOf(policy.check(write(".ENVRC.md")))).toBe("allow");
    expect(policy.check(write(".ENV")).spellings.map((s) => s.form)).toContain("folded");
  });

  it("on a case-sensitive filesystem, .ENV is a different file and stays allowed", () => {
    const policy = createFixture().policy({ caseInsensitive: false });
    expect(ruleOf(policy.check(write(".ENV")))).toBe("allow");
    expect(ruleOf(policy.check(write(".env")))).toBe("default denyWrite .env");
  });

  it('"auto" detects that this temp filesystem is case-sensitive', () => {
    const f = createFixture();
    expect(f.policy().settings.caseInsensitive).toBe(false);
    expect(detectCaseFolding(f.ws, nodePolicyFs)).toBe(false);
  });

  it('"auto" detects a folding filesystem and then resolves case variants through it', () => {
    const f = createFixture();
    const policy = createPolicy({}, { cwd: f.ws, home: f.home, fs: createFoldingFs() });
    expect(policy.settings.caseInsensitive).toBe(true);
    const decision = policy.check(write(".GIT/Config"));
    expect(ruleOf(decision)).toBe("default denyWrite .git/config");
    expect(decision.spellings).toContainEqual({ form: "real", path: path.join(f.ws, ".git/config") });
  });

  it("detection compares device and inode of a case variant, and falls back to the platform", () => {
    const info = (ino: number): FileInfo => ({
      isFile: false,
      isDirectory: true,
      isSymbolicLink: false,
      nlink: 2,
      dev: 1,
      ino,
    });
    const folding: PolicyFs = {
      realpath: (p) => p,
      lstat: (p) => (p.toLowerCase() === "/work/proj" ? info(7) : p === "/work" ? info(3) : undefined),
      readlink: () => undefined,
      readdir: () => [],
    };
    expect(detectCaseFolding("/work/proj", folding)).toBe(true);
    const distinct: PolicyFs = {
      ...folding,
      lstat: (p) => (p === "/work/proj" ? info(7) : p === "/work/PROJ" ? info(8) : undefined),
    };
    expect(detectCaseFolding("/work/proj", distinct)).toBe(false);
    const nothing: PolicyFs = { ...folding, lstat: () => undefined };
    expect(detectCaseFolding("/1/2", nothing, "darwin")).toBe(true);
    expect(detectCaseFolding("/1/2", nothing, "linux")).toBe(false);
  });
});

describe("Unicode normalisation", () => {
  const nfc = "caf\u00e9";
  const nfd = "cafe\u0301";

  it("a deny written in NFC refuses the NFD spelling, and the reverse", () => {
    const f = createFixture();
    const byNfc = f.policy({ denyWrite: [`${nfc}/**`] });
    expect(ruleOf(byNfc.check(write(`${nfd}/menu.txt`)))).toBe(`config denyWrite ${nfc}/**`);
    expect(ruleOf(byNfc.check(write(`${nfc}/menu.txt`)))).toBe(`config denyWrite ${nfc}/**`);
    const byNfd = f.policy({ denyWrite: [`${nfd}/**`] });
    expect(ruleOf(byNfd.check(write(`${nfc}/menu.txt`)))).toBe(`config denyWrite ${nfd}/**`);
  });

  it("a spelling that mixes NFC and NFD components is normalised before matching", () => {
    const policy = createFixture().policy({ denyWrite: [`${nfc}/${nfc}.txt`] });
    expect(ruleOf(policy.check(write(`${nfc}/${nfd}.txt`)))).toBe(`config denyWrite ${nfc}/${nfc}.txt`);
    expect(ruleOf(policy.check(write(`${nfd}/${nfc}.txt`)))).toBe(`config denyWrite ${nfc}/${nfc}.txt`);
  });

  it("lists the NFC and NFD spellings it checked", () => {
    const f = createFixture();
    const decision = f.policy().check(write(`${nfd}/menu.txt`));
    expect(decision.allow).toBe(true);
    expect(decision.spellings).toContainEqual({ form: "nfc", path: path.join(f.ws, nfc, "menu.txt") });
    expect(decision.spellings).toContainEqual({ form: "absolute", path: path.join(f.ws, nfd, "menu.txt") });
  });
});

describe("invisible and control characters, NUL, non-strings, empty paths", () => {
  it.each([
    ["U+0001", "\u0001"],
    ["U+001B", "\u001b"],
    ["U+007F", "\u007f"],
    ["U+0085", "\u0085"],
    ["U+200B", "\u200b"],
    ["U+200F", "\u200f"],
    ["U+2028", "\u2028"],
    ["U+2029", "\u2029"],
    ["U+202A", "\u202a"],
    ["U+202E", "\u202e"],
    ["U+2060", "\u2060"],
    ["U+2064", "\u2064"],
    ["U+FEFF", "\ufeff"],
  ])("a path containing %s is refused and the character is escaped in the reason", (name, ch) => {
    const policy = createFixture().policy();
    for (const decision of [policy.check(write(`.e${ch}nv`)), policy.check(read(`src/a${ch}.ts`))]) {
      expect(ruleOf(decision)).toBe("control character");
      const reason = reasonOf(decision);
      expect(reason).toContain(name);
      expect(reason).not.toContain(ch);
      expect(reason).toMatch(/\\u\{[0-9a-f]+\}/);
    }
  });

  it("a NUL byte is refused as such", () => {
    const decision = createFixture().policy().check(write(".env\u0000.txt"));
    expect(ruleOf(decision)).toBe("NUL byte");
    expect(reasonOf(decision)).not.toContain("\u0000");
  });

  it.each([
    [42, "a number"],
    [null, "null"],
    [undefined, "undefined"],
    [{ p: ".env" }, "an object"],
    [[".env"], "an array"],
  ])("a non-string path (%j) is a clear refusal", (value, kind) => {
    const decision = createFixture().policy().check(write(value));
    expect(ruleOf(decision)).toBe("non-string path");
    expect(reasonOf(decision)).toBe(
      `Write refused: the path is ${kind}, not a string; pass the path as a string (non-string path).`,
    );
  });

  it.each(["", "   "])("an empty path (%j) is a clear refusal", (value) => {
    const decision = createFixture().policy().check(read(value));
    expect(reasonOf(decision)).toBe("Read refused: the path is empty; pass a file or directory path (empty path).");
  });
});

describe("the path text check scans once and still refuses exactly the listed code points", () => {
  /** The listed ranges, as SPEC and path-text.ts name them. */
  const RANGES: readonly [number, number][] = [
    [0x00, 0x1f],
    [0x7f, 0x9f],
    [0xad, 0xad],
    [0x61c, 0x61c],
    [0x180e, 0x180e],
    [0x200b, 0x200f],
    [0x2028, 0x202e],
    [0x2060, 0x206f],
    [0xfeff, 0xfeff],
  ];
  const listed = (cp: number) => RANGES.some(([from, to]) => cp >= from && cp <= to);

  it("every code point (surrogate halves aside) is refused if and only if it is listed", () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const problem = checkPathText(`src/a${String.fromCodePoint(cp)}b.ts`);
      const refused = problem !== undefined;
      if (refused !== listed(cp)) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it("blank paths of every kind of white space are empty paths", () => {
    for (const blank of [" ", "\u00a0", "\u2003", "\u3000", " \u1680 "]) {
      expect(checkPathText(blank)?.rule).toBe("empty path");
    }
    expect(checkPathText(" a ")).toBeUndefined();
  });
});
