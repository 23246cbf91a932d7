import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { defineTool } from "@gatehouse/sdk";
import { createTestHost, type TestHost } from "@gatehouse/testing";
import { minimatch } from "minimatch";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createFixture, read, ruleOf, write } from "./helpers/fixture.ts";

/** Every file below `dir` (relative), without entering `.git`. */
function filesBelow(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const at = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === ".git" ? [] : filesBelow(dir, at);
    return [at];
  });
}

/** A custom tool that expands its own glob (dot-files too, as many libraries can) and prints what it matched. */
const catGlob = defineTool({
  name: "cat_glob",
  description: "Prints the files a glob matches",
  parameters: z.object({ pattern: z.string() }),
  effects: (args) => [{ kind: "read", path: args.pattern }],
  execute: (args, ctx) => {
    const hits = filesBelow(ctx.cwd).filter((f) => minimatch(f, args.pattern, { dot: true }));
    const text = hits.map((f) => `${f}: ${readFileSync(path.join(ctx.cwd, f), "utf8")}`).join("\n");
    return { content: [{ type: "text", text: text || "no match" }] };
  },
});

const hosts: TestHost[] = [];

afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
});

// Before: the policy checked "src/*" as a file named "*", and the tool that expanded it printed
// src/.env (likewise ".en?", "*" and "{a,.env}" printed .env).
describe("an effect path with glob characters is judged as the pattern a tool may expand", () => {
  it("a custom tool's glob that matches a denied file is refused in a real host; one that does not runs", async () => {
    const f = createFixture();
    f.file(".env", "SECRET=hunter2");
    f.file("src/.env", "SECRET=nested");
    const patterns = ["src/*", ".en?", "*", "{src/app.ts,.env}", "**/.env", "SRC/.EN?"];
    const calls = patterns.map((pattern, i) => ({
      type: "toolCall" as const,
      id: `C${i}`,
      name: "cat_glob",
      arguments: { pattern },
    }));
    calls.push({ type: "toolCall", id: "OK", name: "cat_glob", arguments: { pattern: "src/*.ts" } });
    const t = await createTestHost({
      cwd: f.ws,
      home: path.join(f.base, "gh-home"),
      turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }],
      extensions: [protectedPaths],
      tools: [catGlob],
    });
    hosts.push(t);
    await t.run("go");
    const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
    for (const id of patterns.map((_, i) => `C${i}`)) {
      expect(ends.get(id), id).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(JSON.stringify(ends.get(id)?.result)).not.toContain("SECRET");
    }
    expect(ends.get("C0")?.reason).toBe(
      `Read of "src/*" refused: it is a glob pattern a tool may expand, and it matches "${f.ws}/src/.env": .env files hold secrets and are protected (default denyRead .env).`,
    );
    expect(ends.get("OK")).toMatchObject({ outcome: "executed" });
  });

  it("writes: every existing match and every brace alternative (a file the tool may create) is checked", () => {
    const f = createFixture();
    f.file(".git/hooks/pre-commit.sample");
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".git/hooks/*")))).toMatch(/\.git\/hooks/);
    expect(ruleOf(policy.check(write("{notes.txt,.envrc}")))).toMatch(/\.envrc/);
    expect(policy.check(write("playground/*.txt")).allow).toBe(true);
    expect(policy.check(write("playground/{a,b}.txt")).allow).toBe(true);
  });

  it("follows links to folders, refuses what it cannot know, and lets a literal name with glob characters through", () => {
    const f = createFixture();
    f.file(path.join(f.home, ".ssh/id_rsa"), "KEY");
    symlinkSync(path.join(f.home, ".ssh"), path.join(f.ws, "keys"));
    f.file("docs/[draft].md");
    const policy = f.policy();
    expect(policy.check(read("*/id_*")).allow).toBe(false);
    expect(policy.check(read("~/.ss?/*")).allow).toBe(false);
    expect(ruleOf(policy.check(read("src/*/../app.ts")))).toBe("glob effect");
    expect(
      ruleOf(policy.check(read(`{${Array.from({ length: 12 }, (_, i) => i).join(",")}}{a,b,c,d,e,f,g,h,i,j}{1..9}`))),
    ).toBe("glob effect");
    expect(policy.check(read("docs/[draft].md")).allow).toBe(true);
    // Route files of web frameworks are named so: a write of one is checked, and passes.
    f.file("app/[slug]/page.tsx");
    expect(policy.check(write("app/[slug]/page.tsx")).allow).toBe(true);
    expect(policy.check(write("pages/[...slug].tsx")).allow).toBe(true);
    expect(policy.check(read("src/**/*.ts")).allow).toBe(true);
  });
});
