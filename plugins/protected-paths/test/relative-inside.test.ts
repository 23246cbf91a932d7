import path from "node:path";
import { describe, expect, it } from "vitest";
import { relativeInside } from "../src/paths/workspace.ts";

/** What relativeInside answered before its fast path: path.relative, outside when it climbs. */
function reference(root: string, target: string): string | undefined {
  const rel = path.relative(root, target);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel;
}

const ROOTS = ["/", "/proj", "/proj/", "/proj/sub", "/pro", "/proj/./sub", "/proj//sub", "/a/../proj", "/proj/.."];
const TARGETS = [
  "/",
  "/proj",
  "/proj/",
  "/proj-evil",
  "/proj-evil/x",
  "/projx",
  "/proj/x",
  "/proj/x/",
  "/proj/sub",
  "/proj/sub/deep/file.txt",
  "/proj/./x",
  "/proj/../proj/x",
  "/proj//x",
  "/proj/.env",
  "/proj/..x",
  "/proj/x/..",
  "/other/proj/x",
  "/pro/j",
];

describe("relativeInside", () => {
  it("answers exactly what path.relative says, for normal and unnormalised spellings alike", () => {
    const differences: unknown[] = [];
    for (const root of ROOTS) {
      for (const target of TARGETS) {
        const got = relativeInside(root, target);
        const want = reference(root, target);
        if (got !== want) differences.push({ root, target, got, want });
      }
    }
    expect(differences).toEqual([]);
  });
});
