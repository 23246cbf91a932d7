import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { matchView } from "../src/check/match-view.ts";
import { nodePolicyFs } from "../src/paths/policy-fs.ts";
import { compilePolicyRules } from "../src/rules/policy-rules.ts";
import { DenyIndex } from "../src/scan/deny-index.ts";
import { createFixture, type Fixture } from "./helpers/fixture.ts";

function indexOf(f: Fixture): DenyIndex {
  const rules = compilePolicyRules({ denyWrite: [], denyRead: [], folding: false, home: f.home });
  const ctx = {
    roots: [{ given: f.ws, absolute: f.ws, real: f.ws }],
    anchors: [],
    folding: false,
    cwd: f.ws,
    home: f.home,
    fs: nodePolicyFs,
  };
  return new DenyIndex({ roots: [f.ws], rules, view: (p) => matchView(ctx as never, p), folding: false });
}

/** The index's matches as "relative path: write rule | read rule". */
function listed(f: Fixture, index: DenyIndex): string[] {
  return index
    .matches()
    .map((m) => `${path.relative(f.ws, m.path)}: ${m.write?.label ?? "-"} | ${m.read?.label ?? "-"}`)
    .sort();
}

describe("the deny index", () => {
  it("finds every existing match, once per protected directory, and records symlinks without following them", () => {
    const f = createFixture();
    f.file("apps/web/.env.local");
    f.file(".git/hooks/pre-commit.sample");
    f.file(".gatehouse/extensions/x.ts");
    symlinkSync(".env", path.join(f.ws, "apps/.env"));
    const index = indexOf(f);
    index.refresh();
    expect(listed(f, index)).toEqual([
      ".env: default denyWrite .env | default denyRead .env",
      ".envrc: default denyWrite .envrc | -",
      ".gatehouse: default denyWrite .gatehouse/** | -",
      ".git/config: default denyWrite .git/config | -",
      ".git/hooks: default denyWrite .git/hooks/** | -",
      ".git: default denyWrite .git | -",
      "apps/.env: default denyWrite .env | default denyRead .env",
      "apps/web/.env.local: default denyWrite .env.* | default denyRead .env.!(example|sample)",
    ]);
    const link = index.matches().find((m) => m.path.endsWith("apps/.env"));
    expect(link?.identity).toMatchObject({ kind: "link", link: { target: ".env" } });
  });

  it("a refresh sees new files, new directories, removals and a directory swapped for another", () => {
    const f = createFixture();
    const index = indexOf(f);
    index.refresh();
    f.file("deep/er/still/.env.new");
    writeFileSync(path.join(f.ws, ".npmrc"), "x");
    rmSync(path.join(f.ws, ".envrc"));
    index.refresh();
    const now = listed(f, index);
    expect(now).toContain("deep/er/still/.env.new: default denyWrite .env.* | default denyRead .env.!(example|sample)");
    expect(now).toContain(".npmrc: default denyWrite .npmrc | -");
    expect(now.some((l) => l.startsWith(".envrc:"))).toBe(false);
    // Swap a directory: the old one moves away, a new one with a secret takes its name.
    renameSync(path.join(f.ws, "deep"), path.join(f.ws, "moved"));
    f.file("deep/.env");
    index.refresh();
    const swapped = listed(f, index);
    expect(swapped).toContain("deep/.env: default denyWrite .env | default denyRead .env");
    expect(swapped).toContain(
      "moved/er/still/.env.new: default denyWrite .env.* | default denyRead .env.!(example|sample)",
    );
    expect(swapped.some((l) => l.startsWith("deep/er/"))).toBe(false);
  });

  it("leaves node_modules to the package manager: nothing below it is indexed", () => {
    const f = createFixture();
    f.file("node_modules/pkg/.env.example");
    f.file("packages/a/node_modules/dep/.npmrc");
    const index = indexOf(f);
    index.refresh();
    expect(listed(f, index).filter((l) => l.includes("node_modules"))).toEqual([]);
  });

  it("a folder named node_modules inside .git is the repository's own: protected paths there are indexed", () => {
    const f = createFixture();
    f.file(".git/modules/node_modules/hooks/post-checkout", "#!/bin/sh\n");
    f.file(".git/modules/node_modules/config", "[core]\n");
    const index = indexOf(f);
    index.refresh();
    const git = listed(f, index).filter((l) => l.includes("node_modules"));
    expect(git.some((l) => l.includes(".git/modules/node_modules/hooks"))).toBe(true);
    expect(git.some((l) => l.includes(".git/modules/node_modules/config"))).toBe(true);
  });

  it("names the hard links of protected files anywhere in the tree", () => {
    const f = createFixture();
    f.dir("docs");
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "docs/copy.txt"));
    const index = indexOf(f);
    index.refresh();
    const env = index.matches().find((m) => m.path === path.join(f.ws, ".env"));
    const key = `${env?.identity.dev}:${env?.identity.ino}`;
    expect(env?.identity.nlink).toBe(2);
    expect(
      index
        .aliasesOf(new Set([key]))
        .map((a) => path.relative(f.ws, a.path))
        .sort(),
    ).toEqual([".env", "docs/copy.txt"]);
    mkdirSync(path.join(f.ws, "later"));
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "later/again.txt"));
    index.refresh();
    expect(index.aliasesOf(new Set([key])).map((a) => path.relative(f.ws, a.path))).toContain("later/again.txt");
  });
});
