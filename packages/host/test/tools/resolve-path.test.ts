import { homedir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveToolPath } from "../../src/tools/index.ts";

describe("resolveToolPath", () => {
  it("resolves a relative path against cwd", () => {
    expect(resolveToolPath("src/a.ts", "/work/p")).toBe("/work/p/src/a.ts");
    expect(resolveToolPath("../b", "/work/p")).toBe("/work/b");
  });

  it("gives what path.resolve gives for every mix of dot segments, doubled and trailing separators", () => {
    const cwds = ["/work/p", "/", "/work/p/", "/work/../p", "/work/./p", "/.", "/.."];
    const inputs = ["a", "a/b", "./a", "../a", "a/./b", "a/../b", "a//b", "a/", "/x", "/x/", "/x/../y", ".a", "..a"];
    const more = [".", "..", "a/.b", "a/b/.", "x y", "~x", "/", ".env", "a/..", "a/.", "...", ".../x", "//x"];
    for (const cwd of cwds) {
      for (const input of [...inputs, ...more]) {
        expect([cwd, input, resolveToolPath(input, cwd)]).toEqual([cwd, input, path.resolve(cwd, input)]);
      }
    }
  });

  it("keeps an absolute path, normalised", () => {
    expect(resolveToolPath("/etc/../etc/hosts", "/work/p")).toBe("/etc/hosts");
  });

  it("expands ~ and ~/x to the home directory", () => {
    expect(resolveToolPath("~", "/work/p")).toBe(homedir());
    expect(resolveToolPath("~/notes/a.md", "/work/p")).toBe(path.join(homedir(), "notes/a.md"));
  });

  it("does not expand ~ inside a name (~user, a~b)", () => {
    expect(resolveToolPath("~other/x", "/work/p")).toBe("/work/p/~other/x");
    expect(resolveToolPath("a~b", "/work/p")).toBe("/work/p/a~b");
  });

  it("rejects a path longer than a system call accepts, naming its start and length", () => {
    expect(() => resolveToolPath(`${"a/".repeat(200_000)}x`, "/work/p")).toThrow(
      /^Invalid path "(a\/){30}"… \(400001 bytes\): it is longer than the 4095 bytes a system call accepts/,
    );
    expect(() => resolveToolPath("é".repeat(2048), "/work/p")).toThrow(/\(4096 bytes\)/);
    expect(resolveToolPath("a".repeat(4095), "/")).toBe(`/${"a".repeat(4095)}`);
  });

  it("rejects a path with a NUL byte, naming it", () => {
    expect(() => resolveToolPath("a.txt\0.png", "/work/p")).toThrow(/Invalid path "a\.txt\\u0000\.png".*NUL byte/);
  });

  it("rejects an empty or blank path", () => {
    expect(() => resolveToolPath("", "/work/p")).toThrow(/Invalid path "": the path is empty/);
    expect(() => resolveToolPath("  ", "/work/p")).toThrow(/the path is empty/);
  });
});
