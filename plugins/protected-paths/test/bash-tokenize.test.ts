import { describe, expect, it } from "vitest";
import type { ShellToken } from "../src/bash/shell-word.ts";
import { tokenizeShell } from "../src/bash/tokenize.ts";

const HOME = "/home/u";

function compact(tokens: readonly ShellToken[]): string[] {
  return tokens.map((t) => {
    if (t.type === "control") return `ctl:${t.op === "\n" ? "\\n" : t.op}`;
    if (t.type === "redirect") return `redir:${t.fd ?? ""}${t.op}`;
    const { text, glob, unresolved } = t.word;
    return unresolved ? `?${unresolved}` : glob ? `glob:${glob}` : text;
  });
}

function tokens(source: string): string[] {
  const result = tokenizeShell(source, { home: HOME });
  if (!result.ok) throw new Error(result.problem);
  return compact(result.tokens);
}

describe("tokenizeShell", () => {
  it("removes quotes and escapes and keeps quoted spaces in one word", () => {
    expect(tokens(`echo 'a b' "c d" e\\ f '.e'"n"v`)).toEqual(["echo", "a b", "c d", "e f", ".env"]);
  });

  it("splits on control operators and redirections, with or without spaces", () => {
    expect(tokens("a&&b||c|d;e&f\ng")).toEqual([
      "a",
      "ctl:&&",
      "b",
      "ctl:||",
      "c",
      "ctl:|",
      "d",
      "ctl:;",
      "e",
      "ctl:&",
      "f",
      "ctl:\\n",
      "g",
    ]);
    expect(tokens("x>y 2>>z &>w 3<&0 >&2")).toEqual([
      "x",
      "redir:>",
      "y",
      "redir:2>>",
      "z",
      "redir:&>",
      "w",
      "redir:3<&",
      "0",
      "redir:>&",
      "2",
    ]);
  });

  it("expands ~ and $HOME, and marks other expansions unresolved", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
    expect(tokens("~ ~/a a=~/b $HOME/c ${HOME}/d '~/e'")).toEqual([
      HOME,
      `${HOME}/a`,
      `a=${HOME}/b`,
      `${HOME}/c`,
      `${HOME}/d`,
      "~/e",
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
    expect(tokens("$X ${Y} $(z) `w` $((1+1)) ~bob/x {a,b}")).toEqual([
      "?variable",
      "?variable",
      "?command substitution",
      "?command substitution",
      "?arithmetic expansion",
      "?tilde expansion",
      "?brace expansion",
    ]);
  });

  it("keeps unquoted glob characters as a pattern and escapes quoted ones", () => {
    expect(tokens(`*.log "*".txt a[b]`)).toEqual(["glob:*.log", "*.txt", "glob:a[b]"]);
    expect(tokens(`"x*"y?`)).toEqual(["glob:x\\*y?"]);
  });

  it("a [ without a later ] is literal, as in bash: the test builtin is a plain command name", () => {
    expect(tokens(`[ -e a ] x[y a[b] a["]"`)).toEqual(["[", "-e", "a", "]", "x[y", "glob:a[b]", "glob:a[\\]"]);
  });

  it("returns the command lines nested in substitutions, and skips here-document bodies", () => {
    const result = tokenizeShell("echo $(rm a) `rm b` <(rm c)\ncat <<EOF\n$(rm d)\nrm e\nEOF\nls", { home: HOME });
    expect(result.ok && compact(result.tokens)).toEqual([
      "echo",
      "?command substitution",
      "?command substitution",
      "/dev/fd/63",
      "ctl:\\n",
      "cat",
      "redir:<<",
      "EOF",
      "ctl:\\n",
      "ls",
    ]);
    expect(result.ok && result.nested.map(compact)).toEqual([
      ["rm", "a"],
      ["rm", "b"],
      ["rm", "c"],
      ["rm", "d"],
    ]);
  });

  it("ignores comments and line continuations", () => {
    expect(tokens("echo a \\\n b # > .env")).toEqual(["echo", "a", "b"]);
  });

  it.each([
    ["echo 'a", "a single quote is not closed"],
    ['echo "a', "a double quote is not closed"],
    ["echo $(a", "a $( command substitution is not closed"],
    ["echo `a", "a ` command substitution is not closed"],
    ["(echo a", "a ( subshell is not closed"],
    ["echo a)", "a ) has no matching ("],
    ["echo ${a", "a ${ parameter expansion is not closed"],
  ])("reports %j as unparseable", (source, problem) => {
    expect(tokenizeShell(source, { home: HOME })).toEqual({ ok: false, problem });
  });
});
