/** One shell word after quote removal, with what static analysis could not know about it. */
export interface ShellWord {
  /** The value after quote removal, with `~` and `$HOME` expanded. */
  text: string;
  /** The word as written in the command. */
  raw: string;
  /** A minimatch pattern when the word has unquoted glob characters (quoted ones escaped). */
  glob: string | undefined;
  /** Why the value is only known when the shell runs, e.g. "variable" or "command substitution". */
  unresolved: string | undefined;
  /**
   * True for find's `{}`, whose text is the start path: it stands for every path find finds at or
   * below it, so a command that puts it INTO a folder (`cp {} .git/`) lands it under any name.
   */
  found?: true;
  /**
   * Where the first unquoted `^`, `#` or (not expanded) `~` is in `text`: with zsh's EXTENDED_GLOB
   * option, which an agent's shell may carry over, they make the word a pattern (`.^x` matches `.env`).
   */
  zshPattern?: number;
}

/** A token of a shell command line. */
export type ShellToken =
  | { type: "word"; word: ShellWord }
  /** `;` `&&` `||` `|` `|&` `&` newline `(` `)` and the `case` terminators. */
  | { type: "control"; op: string }
  /** A redirection operator; its target is the next word. `fd` is an explicit descriptor (`2>`). */
  | { type: "redirect"; op: string; fd: string | undefined };

/** A word that is exactly its text. */
export function literalWord(text: string): ShellWord {
  return { text, raw: text, glob: undefined, unresolved: undefined };
}

/**
 * A word for part of another word's text (an option's value, `of=FILE`).
 * Contract: keeps the source's `unresolved`; a globbing source makes the part unresolved, since
 * which characters of the part were quoted is no longer known.
 */
export function partOf(source: ShellWord, text: string): ShellWord {
  const unresolved = source.unresolved ?? (source.glob !== undefined ? "glob pattern" : undefined);
  return { text, raw: source.raw, glob: undefined, unresolved };
}

/** Raised inside the tokenizer; `tokenizeShell` turns it into a result. */
export class ShellSyntaxError extends Error {}
