import type { ShellToken, ShellWord } from "./shell-word.ts";
import type { TargetSpec } from "./target-spec.ts";

/** A redirection with its target word. */
export interface Redirection {
  op: string;
  fd: string | undefined;
  target: ShellWord;
}

/** Words and redirections between two control operators. */
export interface SimpleCommand {
  words: ShellWord[];
  redirects: Redirection[];
}

/**
 * Groups tokens into simple commands at every control operator (`;`, `&&`, `|`, newline, `(`...).
 * Contract: a redirection must be followed by a word, otherwise the result is a problem.
 */
export function splitCommands(
  tokens: readonly ShellToken[],
): { ok: true; commands: SimpleCommand[] } | { ok: false; problem: string } {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  const flush = () => {
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.type === "control") flush();
    else if (token.type === "word") current.words.push(token.word);
    else {
      const next = tokens[i + 1];
      if (next?.type !== "word") return { ok: false, problem: `the redirection ${token.op} has no target` };
      current.redirects.push({ op: token.op, fd: token.fd, target: next.word });
      i += 1;
    }
  }
  flush();
  return { ok: true, commands };
}

/** `>&2`, `2>&1`, `>&-`: descriptor duplication or closing, not a file. */
function isDescriptor(word: ShellWord): boolean {
  return word.unresolved === undefined && word.glob === undefined && /^(\d+-?|-)$/.test(word.text);
}

/**
 * The files a redirection opens: `>`, `>>`, `>|`, `&>`, `&>>`, `N>` and `>&FILE` write; `<` reads;
 * `<>` does both; descriptor duplications and here-documents open nothing.
 */
export function redirectTargets(redirect: Redirection): TargetSpec[] {
  const { op, target } = redirect;
  const via = "redirection";
  switch (op) {
    case ">":
    case ">>":
    case ">|":
    case "&>":
    case "&>>":
      return [{ access: "write", word: target, via }];
    case ">&":
      return isDescriptor(target) ? [] : [{ access: "write", word: target, via }];
    case "<>":
      return [
        { access: "write", word: target, via },
        { access: "read", word: target, via },
      ];
    case "<":
      return [{ access: "read", word: target, via }];
    default:
      return [];
  }
}
