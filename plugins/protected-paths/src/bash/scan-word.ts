import { arithmeticEnd, bracketArithmeticEnd, checkExtendedGlob, checkSubscript } from "./arithmetic-spans.ts";
import { ShellSyntaxError, type ShellWord } from "./shell-word.ts";
import { WordBuilder } from "./word-builder.ts";

/** Characters that end an unquoted word. */
export const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** What word scanning needs from the tokenizer: the source, a position, and nested scans. */
export interface WordCursor {
  readonly src: string;
  pos: number;
  /** What `~` and `$HOME` expand to. */
  readonly home: string;
  /** Scans the command line of a `$(` whose body starts at `start` of `text`; returns the position after `)`. */
  nestedAt(text: string, start: number): number;
  /**
   * Scans a backtick substitution opened at `start` of `text`; returns the position after it.
   * `inDoubleQuotes`: inside `"…"`, where bash also turns `\"` into `"` in its body.
   */
  backtickAt(text: string, start: number, inDoubleQuotes?: boolean): number;
  /** Collects the command substitutions of text that undergoes expansion. */
  substitutionsIn(text: string): void;
  /** The word starts where bash takes `NAME[…]=` as an assignment, whose subscript it reads whole. */
  readonly assignmentPosition?: boolean;
}

/**
 * Reads one word at `c.pos`: quotes and escapes removed, `~`/`$HOME` expanded, other expansions
 * marked unresolved, substitutions scanned through `c`.
 * Contract: stops at the first unquoted metacharacter; throws ShellSyntaxError on an unclosed quote.
 */
export function scanWord(c: WordCursor): ShellWord {
  const { src } = c;
  const start = c.pos;
  const w = new WordBuilder();
  while (c.pos < src.length && !META.has(src[c.pos]!)) {
    const ch = src[c.pos]!;
    if (ch === "\\") {
      const next = src[c.pos + 1];
      if (next !== undefined && next !== "\n") w.quoted(next);
      c.pos += 2;
    } else if (ch === "'") {
      const end = src.indexOf("'", c.pos + 1);
      if (end === -1) throw new ShellSyntaxError("a single quote is not closed");
      w.quoted(src.slice(c.pos + 1, end));
      c.pos = end + 1;
    } else if (ch === '"') {
      c.pos += 1;
      doubleQuoted(c, w);
    } else if (ch === "$") dollar(c, w, false);
    else if (ch === "`") {
      c.pos = c.backtickAt(src, c.pos);
      w.unresolved("command substitution", "`…`");
    } else if (ch === "~" && (w.empty || w.afterAssignment)) tilde(c, w);
    else if (ch === "~" && w.tildeMayExpand) {
      // Bash also expands `~` after `NAME+=`, `NAME[i]=` and any `:` of such a word (`x=a:~/y`).
      tilde(c, w);
      w.unresolved("tilde expansion", "");
    } else {
      checkExtendedGlob(src, c.pos);
      // zsh expands `=name` at a word's start to the path of the command `name` (`tee =git`).
      if (ch === "=" && c.pos === start && /[\w./+-]/.test(src[c.pos + 1] ?? "")) {
        throw new ShellSyntaxError("=NAME at a word's start is the path of a command to zsh, which is not analysed");
      }
      // `NAME[` may start an assignment's subscript, which bash reads whole (`a[1<<2]=x`).
      if (ch === "[" && c.assignmentPosition === true && /^[A-Za-z_][A-Za-z0-9_]*$/.test(src.slice(start, c.pos))) {
        checkSubscript(src, c.pos);
      }
      w.unquoted(ch);
      c.pos += 1;
    }
  }
  return w.finish(src.slice(start, c.pos));
}

function tilde(c: WordCursor, w: WordBuilder): void {
  const match = /^~[^/\s;&|()<>'"\\$`]*/.exec(c.src.slice(c.pos))![0];
  c.pos += match.length;
  if (match === "~") w.quoted(c.home);
  else w.unresolved("tilde expansion", match);
}

function doubleQuoted(c: WordCursor, w: WordBuilder): void {
  const { src } = c;
  while (c.pos < src.length) {
    const ch = src[c.pos]!;
    if (ch === '"') {
      c.pos += 1;
      return;
    }
    if (ch === "\\") {
      const next = src[c.pos + 1] ?? "";
      if (next === "\n") {
        // line continuation: nothing
      } else if ('$`"\\'.includes(next)) w.quoted(next);
      else w.quoted(ch + next);
      c.pos += 2;
    } else if (ch === "$") dollar(c, w, true);
    else if (ch === "`") {
      c.pos = c.backtickAt(src, c.pos, true);
      w.unresolved("command substitution", "`…`");
    } else {
      w.quoted(ch);
      c.pos += 1;
    }
  }
  throw new ShellSyntaxError("a double quote is not closed");
}

function dollar(c: WordCursor, w: WordBuilder, inDoubleQuotes: boolean): void {
  const { src } = c;
  const next = src[c.pos + 1] ?? "";
  if (next === "'" && !inDoubleQuotes) {
    const body = /^\$'((?:[^'\\]|\\.)*)'/s.exec(src.slice(c.pos));
    if (!body) throw new ShellSyntaxError("a $' quote is not closed");
    c.pos += body[0].length;
    if (body[1]!.includes("\\")) w.unresolved("ANSI-C escape", body[0]);
    else w.quoted(body[1]!);
  } else if (next === '"' && !inDoubleQuotes) {
    c.pos += 2;
    doubleQuoted(c, w);
  } else if (src.startsWith("((", c.pos + 1) && arithmeticEnd(src, c.pos + 1) !== undefined) {
    // Arithmetic only when bash reads it so (`$((cat .env) )` is a command substitution); the
    // substitutions inside it run (`$(( $(tee x) ))`).
    const end = arithmeticEnd(src, c.pos + 1) as number;
    c.substitutionsIn(src.slice(c.pos + 3, end - 2));
    c.pos = end;
    w.unresolved("arithmetic expansion", "$((…))");
  } else if (next === "[") {
    const end = bracketArithmeticEnd(src, c.pos + 1);
    c.substitutionsIn(src.slice(c.pos + 2, end - 1));
    c.pos = end;
    w.unresolved("arithmetic expansion", "$[…]");
  } else if (next === "(") {
    c.pos = c.nestedAt(src, c.pos + 2);
    w.unresolved("command substitution", "$(…)");
  } else if (next === "{") braced(c, w);
  else if (/^[=~^][\w{]/.test(src.slice(c.pos + 1, c.pos + 3))) {
    // zsh: `$=x` splits the value into words, `$~x` globs it, `$^x` distributes it; bash: literal text.
    throw new ShellSyntaxError(`${src.slice(c.pos, c.pos + 2)}… is a zsh expansion, which is not analysed`);
  } else {
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(c.pos));
    if (!name) {
      c.pos += 1;
      if (inDoubleQuotes) w.quoted("$");
      else w.unquoted("$");
      return;
    }
    c.pos += name[0].length;
    if (name[1] === "HOME") w.quoted(c.home);
    else w.unresolved("variable", name[0]);
  }
}

function braced(c: WordCursor, w: WordBuilder): void {
  let depth = 0;
  for (let i = c.pos + 1; i < c.src.length; i += 1) {
    if (c.src[i] === "{") depth += 1;
    if (c.src[i] === "}") depth -= 1;
    if (depth === 0) {
      const inner = c.src.slice(c.pos + 2, i);
      // zsh's flags and modifiers (`${(e)x}` evaluates the value, `${~x}` globs it): bad substitutions to bash.
      if (/^[(~=^+]/.test(inner)) {
        throw new ShellSyntaxError(`${"$"}{${inner.slice(0, 2)}… is a zsh expansion, which is not analysed`);
      }
      // Bash ends `${…}` by its own quoting rules (`${x:-'}'}` is one word): quotes, escapes and
      // backquotes inside would make this scan end it elsewhere, so they are not parsed at all.
      if (/['"\\`]/.test(inner)) {
        throw new ShellSyntaxError(
          `a ${"$"}{…} expansion holds quotes, backslashes or backquotes, which are not parsed`,
        );
      }
      c.pos = i + 1;
      c.substitutionsIn(inner);
      if (inner === "HOME") w.quoted(c.home);
      else w.unresolved("variable", `\${${inner}}`);
      return;
    }
  }
  throw new ShellSyntaxError("a ${ parameter expansion is not closed");
}
