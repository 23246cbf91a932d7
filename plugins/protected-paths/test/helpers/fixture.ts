import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ToolEffect } from "@gatehouse/sdk";
import { afterEach } from "vitest";
import { createPolicy, type Decision, type Policy, type ProtectedPathsConfigInput } from "../../src/index.ts";

/** A real temp tree: the workspace `proj/`, siblings `outside/` and `proj-evil/`, and `home/`. */
export interface Fixture {
  base: string;
  ws: string;
  outside: string;
  evil: string;
  home: string;
  /** Creates a file (and its parents) under the workspace, or at an absolute path. */
  file(rel: string, content?: string): string;
  /** Creates a directory under the workspace, or at an absolute path. */
  dir(rel: string): string;
  /** A policy for this workspace (cwd = ws, home = `home/` unless given). */
  policy(config?: ProtectedPathsConfigInput, options?: { cwd?: string; home?: string }): Policy;
}

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Creates the fixture with the usual project files: `.env`, `.git/config`, `.envrc`, `docs/env.md`,
 * `playground/x.txt`, `src/app.ts`, `node_modules/pkg/index.js`, `.gatehouse/settings.json`.
 * Removed after each test.
 */
export function createFixture(): Fixture {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "gh-pp-")));
  created.push(base);
  const ws = path.join(base, "proj");
  const at = (rel: string) => (path.isAbsolute(rel) ? rel : path.join(ws, rel));
  const fixture: Fixture = {
    base,
    ws,
    outside: path.join(base, "outside"),
    evil: path.join(base, "proj-evil"),
    home: path.join(base, "home"),
    file(rel, content = "x") {
      const target = at(rel);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
      return target;
    },
    dir(rel) {
      const target = at(rel);
      mkdirSync(target, { recursive: true });
      return target;
    },
    policy: (config = {}, options = {}) =>
      createPolicy(config, { cwd: options.cwd ?? ws, home: options.home ?? path.join(base, "home") }),
  };
  for (const d of [ws, fixture.outside, fixture.evil, fixture.home]) mkdirSync(d, { recursive: true });
  for (const f of [
    ".env",
    ".git/config",
    ".envrc",
    "docs/env.md",
    "playground/x.txt",
    "src/app.ts",
    "node_modules/pkg/index.js",
    ".gatehouse/settings.json",
  ]) {
    fixture.file(f);
  }
  fixture.file(path.join(fixture.outside, "notes.txt"));
  return fixture;
}

/** A write effect. */
export const write = (p: unknown): ToolEffect => ({ kind: "write", path: p as string });
/** A read effect. */
export const read = (p: unknown): ToolEffect => ({ kind: "read", path: p as string });
/** An exec effect. */
export const exec = (command: string): ToolEffect => ({ kind: "exec", command });

/** The rule of a decision, or "allow". */
export function ruleOf(decision: Decision): string {
  return decision.allow ? "allow" : decision.rule;
}

/** The reason of a denying decision (fails the test on an allowing one). */
export function reasonOf(decision: Decision): string {
  if (decision.allow) throw new Error("expected a refusal, got allow");
  return decision.reason;
}
