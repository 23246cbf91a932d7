import type { ShellWord } from "./shell-word.ts";

const GLOB_CHARS = new Set(["*", "?", "["]);
const WILDCARDS = new Set(["*", "?"]);
/** Pattern characters of zsh's EXTENDED_GLOB option: `^x` (not x), `x~y` (x but not y), `x#` (x repeated). */
const ZSH_EXTENDED = new Set(["^", "#", "~"]);
const PATTERN_SPECIAL = /[*?[\]\\{}()!+@]/g;
/**
 * Unquoted braces with a comma or `..` between them, however nested (`{.env,x{y}}` expands to
 * `.env x{y}`): brace expansion. Matched loosely, so a word that might expand is never taken literally.
 */
const BRACE_EXPANSION = /\{.*(,|\.\.).*\}/s;
const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*=$/;
/** A word that starts like an assignment, with a subscript or `+=` too. */
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

/** Accumulates one word while the tokenizer reads it. */
export class WordBuilder {
  #text = "";
  #glob = "";
  #hasGlob = false;
  /** An unquoted `[` was seen: a later `]` makes it a bracket expression, else bash keeps it literal. */
  #bracketOpen = false;
  /** The last character added was an unquoted `[`. */
  #afterOpen = false;
  /** The unquoted characters only (quoted ones replaced), for brace and assignment detection. */
  #unquoted = "";
  #unresolved: string | undefined;
  /** Where the first unquoted `^`, `#` or `~` is in the text (only a tilde that does not expand gets here). */
  #zshAt: number | undefined;

  /** True before anything was added. */
  get empty(): boolean {
    return this.#text.length === 0 && this.#unresolved === undefined;
  }

  /**
   * True after an unquoted `=` or `:` of a word that starts like an assignment (`NAME+=`,
   * `NAME[i]=`, `NAME=a:`), where bash expands a `~` too.
   */
  get tildeMayExpand(): boolean {
    const last = this.#unquoted.at(-1);
    return (last === "=" || last === ":") && ASSIGNMENT_LIKE.test(this.#unquoted);
  }

  /** True when everything so far is an unquoted `NAME=` (where bash expands a following `~`). */
  get afterAssignment(): boolean {
    return this.#unquoted === this.#text && ASSIGNMENT_PREFIX.test(this.#text);
  }

  /** Adds characters that were quoted or escaped: literal, never globbing. */
  quoted(s: string): void {
    this.#text += s;
    this.#glob += s.replace(PATTERN_SPECIAL, (c) => `\\${c}`);
    this.#unquoted += "\0".repeat(s.length);
    this.#afterOpen = false;
    // Whether a quoted `]` closes the bracket is moot: erring towards a pattern only widens the check.
    if (this.#bracketOpen && s.includes("]")) this.#hasGlob = true;
  }

  /** Adds one unquoted character. */
  unquoted(ch: string): void {
    if (this.#zshAt === undefined && ZSH_EXTENDED.has(ch)) this.#zshAt = this.#text.length;
    this.#text += ch;
    // `]` keeps its meaning too: it closes a bracket expression opened by an unquoted `[`; a `!`
    // right after that `[` negates it (`.en[!x]` matches `.env`), as `^` does.
    const negation = ch === "!" && this.#afterOpen;
    this.#glob += GLOB_CHARS.has(ch) || ch === "]" || negation ? ch : ch.replace(PATTERN_SPECIAL, (c) => `\\${c}`);
    // A `[` without a later `]` is an ordinary character to bash (the `[` builtin, `a[b`): no pattern.
    if (WILDCARDS.has(ch) || (ch === "]" && this.#bracketOpen)) this.#hasGlob = true;
    if (ch === "[") this.#bracketOpen = true;
    this.#afterOpen = ch === "[";
    this.#unquoted += ch;
  }

  /** Marks the word as known only at run time; the first reason is kept. */
  unresolved(why: string, placeholder: string): void {
    this.#unresolved ??= why;
    this.#text += placeholder;
    this.#glob += placeholder;
    this.#afterOpen = false;
    this.#unquoted += "\0".repeat(placeholder.length);
  }

  /** The finished word. */
  finish(raw: string): ShellWord {
    const braces = BRACE_EXPANSION.test(this.#unquoted) ? "brace expansion" : undefined;
    const word: ShellWord = {
      text: this.#text,
      raw,
      glob: this.#hasGlob ? this.#glob : undefined,
      unresolved: this.#unresolved ?? braces,
    };
    if (this.#zshAt !== undefined) word.zshPattern = this.#zshAt;
    return word;
  }
}
