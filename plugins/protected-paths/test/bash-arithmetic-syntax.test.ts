import { existsSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { createTestHost } from "@gatehouse/testing";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { createFixture, exec, ruleOf } from "./helpers/fixture.ts";

const GIT_HOOKS = "default denyWrite .git/hooks/**";
const ENV_READ = "default denyRead .env";
const UNPARSEABLE = "bash unparseable";
const ANALYZE = { bash: "analyze" } as const;
/** A command bash runs on the line after the construct; the analysis must see it. */
const HOOK = "tee .git/hooks/pre-commit < notes.txt";

/**
 * Bash reads arithmetic, assignments' array subscripts, extended globs and `[[ =~ ]]` patterns as
 * one piece, `<<` and parentheses included; read as shell words, `<<` started a here-document
 * that hid the next lines (which bash runs), and `((…) )` — two subshells to bash — hid its
 * commands as arithmetic. Each ran a hook write with bash: analyze.
 */
describe("bash analysis: text bash reads as arithmetic, a subscript or a pattern", () => {
  it.each([
    ["((cat .env) )", ENV_READ],
    ["if ((cat .env) ); then :; fi", ENV_READ],
    [`((${HOOK}) )`, GIT_HOOKS],
    [`(( $(${HOOK}) + 1 ))`, GIT_HOOKS],
    [`echo $(( $(${HOOK}) + 1 ))`, GIT_HOOKS],
    [`echo $(( \`${HOOK}\` ))`, GIT_HOOKS],
    [`echo $((${HOOK}) ); echo $((1))`, GIT_HOOKS],
    [`echo $[ $(${HOOK}) ]`, GIT_HOOKS],
    [`for ((i=0; i<<1; i++)); do :; done\n${HOOK}\n1`, GIT_HOOKS],
    [`if ((1<<2)); then :; fi\n${HOOK}\n2`, GIT_HOOKS],
    [`while ((0<<1)); do :; done\n${HOOK}\n1`, GIT_HOOKS],
    [`echo $[ 1 << 2 ]\n${HOOK}\n2`, GIT_HOOKS],
    [`a[1<<2]=x\n${HOOK}\n2]=x`, UNPARSEABLE],
    [`>/dev/null a[1<<2]=x\n${HOOK}\n2]=x`, UNPARSEABLE],
    [`a=([1<<2]=x)\n${HOOK}\n2]=x)`, UNPARSEABLE],
    [`declare a=([1<<2]=x)\n${HOOK}\n2]=x)`, UNPARSEABLE],
    [`a=($(${HOOK}))`, GIT_HOOKS],
    [`[[ x =~ (a<<b) ]]\n${HOOK}\nb) ]]`, UNPARSEABLE],
    [`[[ x == @(a<<b) ]]\n${HOOK}\nb) ]]`, UNPARSEABLE],
    [`shopt -s extglob\necho @(a<<b)\n${HOOK}\nb)`, UNPARSEABLE],
    // dash has no (( command: it reads two subshells.
    [`sh -c '((${HOOK}))'`, GIT_HOOKS],
    [`dash -c 'true && ((${HOOK}))'`, GIT_HOOKS],
  ])("%j is refused (%s)", (command, rule) => {
    const f = createFixture();
    f.file("notes.txt");
    expect(ruleOf(f.policy(ANALYZE).check(exec(command)))).toBe(rule);
  });

  it.each([
    "echo $((1 + 2)) $(( (1 + 2) * 3 ))",
    "((i = 1 << 2)); echo $i > notes.txt",
    "for ((i = 0; i < 2; i++)); do echo $i; done",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
    "a=(1 2 3) b[1]=x; echo ${a[0]}",
    "a=(\n  one # the first\n  two\n)",
    "echo $[1 + 2]",
    "[[ $x =~ ^a.*b$ ]] && echo yes",
    "[ -e notes.txt ] && cat notes.txt x[y",
    "(cd playground && ls) && ((true) )",
  ])("%j still runs", (command) => {
    const f = createFixture();
    f.file("notes.txt");
    expect(ruleOf(f.policy(ANALYZE).check(exec(command)))).toBe("allow");
  });

  it("strict agent hooks refuse the same commands", () => {
    const f = createFixture();
    f.file("notes.txt");
    const policy = createPolicy(
      {},
      { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh"), unconfinedBash: "unconfined" },
    );
    for (const command of ["((cat .env) )", `a=([1<<2]=x)\n${HOOK}\n2]=x)`, "!(echo)", `a[1<<2]=x\n${HOOK}\n2]=x`]) {
      expect(policy.check(exec(command)).allow, command).toBe(false);
    }
  });

  it("in a real host with bash: analyze, the hook is never written", async () => {
    const f = createFixture();
    f.file("notes.txt");
    const t = await createTestHost({
      cwd: f.ws,
      home: path.join(f.base, "gh-home"),
      turns: [
        {
          content: [
            {
              type: "toolCall",
              id: "A",
              name: "bash",
              arguments: { command: `for ((i=0; i<<1; i++)); do :; done\n${HOOK}\n1` },
            },
            { type: "toolCall", id: "B", name: "bash", arguments: { command: `((${HOOK}) )` } },
          ],
        },
        { content: [{ type: "text", text: "done" }] },
      ],
      extensions: [protectedPaths],
      config: { "protected-paths": ANALYZE },
    });
    try {
      await t.run("go");
      const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
      expect(ends.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(ends.get("B")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(existsSync(path.join(f.ws, ".git/hooks/pre-commit"))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
