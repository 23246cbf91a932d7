import { arithmeticEnd, checkRegexOperand, checkSubscript } from "./arithmetic-spans.ts";
import { META, scanWord, type WordCursor } from "./scan-word.ts";
import { ShellSyntaxError, type ShellToken } from "./shell-word.ts";

const MAX_DEPTH = 12;
const CONTROL_OPS = [";;&", ";;", ";&", "&&", "||", "|&", ";", "|", "&", "(", ")"];
const REDIRECT_OPS = ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", "<", ">"];
/**
 * Words after which bash takes `((` as an arithmetic command (its `reserved_word_acceptable`), and
 * `for`, after which it must be one. Elsewhere `((` is a syntax error to bash.
 */
const ARITHMETIC_HEADS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "!",
  "{",
  "}",
  "time",
  "for",
  "fi",
  "done",
  "esac",
  "coproc",
]);
/** A word that assigns an array when `(` follows it: `a=(`, `a+=(`, `a[i]=(`. */
const ARRAY_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/;
/** What a process substitution `<(...)`/`>(...)` becomes as an argument. */
const PROCESS_SUBSTITUTION_PATH = "/dev/fd/63";

/** A command line split into tokens, plus the command lines nested in `$(...)`, backticks and `<(...)`. */
export type Tokenized =
  | {
      ok: true;
      tokens: ShellToken[];
      nested: ShellToken[][];
      /** The bodies of unquoted here-documents: bash expands them (parameters, arithmetic). */
      bodies: string[];
    }
  | { ok: false; problem: string };

/** Where the scanner is in `case WORD in PATTERN) BODY ;; esac`. */
type CaseState = "header" | "pattern" | "body";

interface Heredoc {
  delimiter: string;
  strip: boolean;
  expand: boolean;
}

class Scanner implements WordCursor {
  readonly tokens: ShellToken[] = [];
  readonly nested: ShellToken[][] = [];
  readonly bodies: string[] = [];
  pos: number;
  #parens = 0;
  #pendingDelimiter: string | undefined;
  readonly #heredocs: Heredoc[] = [];
  /** Open `case` statements: their patterns are not commands and their `)` closes no subshell. */
  readonly #cases: CaseState[] = [];

  constructor(
    readonly src: string,
    start: number,
    readonly options: { home: string; depth: number; nested: boolean; arithmeticCommands: boolean },
  ) {
    if (options.depth > MAX_DEPTH) throw new ShellSyntaxError("command substitutions are nested too deeply");
    this.pos = start;
  }

  get home(): string {
    return this.options.home;
  }

  /**
   * Where bash takes `NAME[…]=` as an assignment (its `assignment_acceptable`): at a command's
   * start, after a reserved word, after another assignment or after redirections that open the
   * command (`>x a[1<<2]=y`). Wider than bash's is safe.
   */
  get assignmentPosition(): boolean {
    for (let i = this.tokens.length - 1; i >= 0; i -= 1) {
      const token = this.tokens[i]!;
      if (token.type === "control") return true;
      if (token.type === "redirect") return false;
      if (this.tokens[i - 1]?.type === "redirect") i -= 1;
      else if (ARITHMETIC_HEADS.has(token.word.raw)) return true;
      else if (!/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(token.word.raw)) return false;
    }
    return true;
  }

  /** Scans to the end, or (nested) past the `)` that closes the substitution; returns that position. */
  run(): number {
    const { src } = this;
    while (this.pos < src.length) {
      const ch = src[this.pos]!;
      if (ch === " " || ch === "\t") this.pos += 1;
      else if (ch === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else if (ch === "#") this.#skipComment();
      else if (ch === "\n") {
        this.pos += 1;
        this.tokens.push({ type: "control", op: "\n" });
        this.#readHeredocs();
      } else if ((ch === "<" || ch === ">") && src[this.pos + 1] === "(") this.#processSubstitution();
      else if (ch === "(" && src[this.pos + 1] === "(" && this.#arithmeticMayStart() && this.#arithmeticCommand()) {
        // consumed as arithmetic; otherwise the first ( opens a subshell below
      } else if (this.#redirect(undefined)) continue;
      else if (this.#control()) {
        if (this.#parens < 0) return this.pos;
      } else this.#word();
    }
    if (this.options.nested) throw new ShellSyntaxError("a $( command substitution is not closed");
    if (this.#parens > 0) throw new ShellSyntaxError("a ( subshell is not closed");
    if (this.#pendingDelimiter !== undefined) throw new ShellSyntaxError("a here-document has no delimiter");
    return this.pos;
  }

  #atCommandStart(): boolean {
    const last = this.tokens[this.tokens.length - 1];
    return last === undefined || last.type === "control";
  }

  /** Where bash would take `((` as an arithmetic command (see ARITHMETIC_HEADS). */
  #arithmeticMayStart(): boolean {
    if (!this.options.arithmeticCommands) return false;
    if (this.#cases[this.#cases.length - 1] === "pattern") return false;
    const last = this.tokens[this.tokens.length - 1];
    if (last === undefined || last.type === "control") return true;
    if (last.type !== "word" || last.word.raw !== last.word.text) return false;
    const before = this.tokens[this.tokens.length - 2];
    const timed = last.word.text === "-p" && before?.type === "word" && before.word.raw === "time";
    return timed || ARITHMETIC_HEADS.has(last.word.text);
  }

  #skipComment(): void {
    const end = this.src.indexOf("\n", this.pos);
    this.pos = end === -1 ? this.src.length : end;
  }

  #control(): boolean {
    const op = CONTROL_OPS.find((o) => this.src.startsWith(o, this.pos));
    if (op === undefined) return false;
    this.pos += op.length;
    if (this.#caseControl(op)) return true;
    if (op === "(") this.#checkOpenParen();
    if (op === "(") this.#parens += 1;
    if (op === ")") {
      this.#parens -= 1;
      if (this.#parens < 0) {
        if (this.options.nested) return true;
        throw new ShellSyntaxError("a ) has no matching (");
      }
    }
    this.tokens.push({ type: "control", op });
    return true;
  }

  /**
   * A `(` after a command's word (`cat .(env)`, `cat (a|.env)`, `x*(e:…:)`) is a syntax error to
   * bash but a glob group or qualifier to zsh, an agent's shell on many machines (`.(env)` reads
   * .env); only `name()` of a function definition is read alike.
   * Contract: throws ShellSyntaxError; `this.pos` is just after the `(`.
   */
  #checkOpenParen(): void {
    const last = this.tokens[this.tokens.length - 1];
    if (last?.type !== "word" || ARITHMETIC_HEADS.has(last.word.raw)) return;
    if (/^[ \t]*\)/.test(this.src.slice(this.pos))) return;
    throw new ShellSyntaxError(
      "a ( after a word is a syntax error to bash and a glob pattern to zsh, which is not analysed",
    );
  }

  /** Handles `(`, `|`, `)` of a case pattern and `;;` ending a case body; true when consumed. */
  #caseControl(op: string): boolean {
    const last = this.#cases.length - 1;
    const state = this.#cases[last];
    if (state === "pattern" && (op === "(" || op === "|")) return true;
    if (state === "pattern" && op === ")") {
      this.#cases[last] = "body";
      this.tokens.push({ type: "control", op: ";" });
      return true;
    }
    if (state === "body" && (op === ";;" || op === ";&" || op === ";;&")) this.#cases[last] = "pattern";
    return false;
  }

  /** Follows `case`/`in`/`esac`; false for a pattern word, which is not part of any command. */
  #caseWord(text: string, literal: boolean): boolean {
    const last = this.#cases.length - 1;
    const state = this.#cases[last];
    const keyword = literal ? text : undefined;
    if (state === "pattern") {
      if (keyword !== "esac") return false;
      this.#cases.pop();
    } else if (state === "header" && keyword === "in") this.#cases[last] = "pattern";
    else if (state === "body" && keyword === "esac" && this.#atCommandStart()) this.#cases.pop();
    else if (keyword === "case" && this.#atCommandStart()) this.#cases.push("header");
    return true;
  }

  #redirect(fd: string | undefined): boolean {
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, this.pos));
    if (op === undefined) return false;
    this.pos += op.length;
    // zsh (an agent's shell may be zsh) reads `>!` and `>>!` as redirections to the next word.
    if (op.includes(">") && this.src[this.pos] === "!") {
      throw new ShellSyntaxError(`${op}! is a redirection to the next word in zsh and to a file named ! in bash`);
    }
    this.tokens.push({ type: "redirect", op, fd });
    if (op === "<<" || op === "<<-") this.#pendingDelimiter = op;
    return true;
  }

  #word(): void {
    const word = scanWord(this);
    const next = this.src[this.pos];
    if (/^\d+$/.test(word.raw) && (next === "<" || next === ">") && this.#redirect(word.raw)) return;
    // `{NAME}>file` stores the descriptor's number in NAME (`{PATH}>/dev/null`), and `{a[x]}>`
    // evaluates a subscript: a variable assignment the analysis does not follow.
    if (/^\{.*\}$/.test(word.raw) && (next === "<" || next === ">")) {
      throw new ShellSyntaxError(`the redirection ${word.raw}${next} assigns a variable, which is not analysed`);
    }
    if (this.#pendingDelimiter === undefined && next === "(" && ARRAY_ASSIGNMENT.test(word.raw)) {
      this.#arrayAssignment(word.raw);
      return;
    }
    // `[[ x =~ (a<<b) ]]`: bash reads the regular expression's ( … ) whole.
    if (word.raw === "=~") checkRegexOperand(this.src, this.pos);
    if (this.#pendingDelimiter !== undefined) {
      // Where bash ends a here-document with such a delimiter is not worth guessing: a wrong guess
      // runs the lines after it unchecked (`<<$'AB'` ends at `AB`; `<<E\` + newline + `OF` at `EOF`).
      if (/\$['"]|\n/.test(word.raw)) {
        throw new ShellSyntaxError(
          "a here-document delimiter written with $'…', $\"…\" or a line break is not analysed",
        );
      }
      this.#heredocs.push({
        // Bash takes the delimiter after quote removal only: `<<~` ends at `~`, `<<$HOME` at `$HOME`.
        delimiter: removeQuotes(word.raw),
        strip: this.#pendingDelimiter === "<<-",
        expand: !/["'\\]/.test(word.raw),
      });
      this.#pendingDelimiter = undefined;
    }
    if (this.#caseWord(word.text, word.raw === word.text)) this.tokens.push({ type: "word", word });
  }

  #readHeredocs(): void {
    for (const doc of this.#heredocs.splice(0)) {
      const start = this.pos;
      let end = this.src.length;
      let logical = "";
      while (this.pos < this.src.length) {
        const lineEnd = this.src.indexOf("\n", this.pos);
        const stop = lineEnd === -1 ? this.src.length : lineEnd;
        const line = this.src.slice(this.pos, stop);
        const at = this.pos;
        this.pos = Math.min(this.src.length, stop + 1);
        // In an unquoted here-document a backslash at the end of a line joins it with the next,
        // before the line is compared with the delimiter (`EO\` + `F` ends it).
        const continued = doc.expand && /(^|[^\\])(\\\\)*\\$/.test(line);
        logical += continued ? line.slice(0, -1) : line;
        if (continued) continue;
        const candidate = doc.strip ? logical.replace(/^\t+/, "") : logical;
        logical = "";
        if (candidate === doc.delimiter) {
          end = at;
          break;
        }
        // Inside $( … ) bash also ends it at a line the delimiter only starts (`EOF)`): refused
        // rather than guessed, as the lines after it would run unchecked.
        if (this.options.depth > 0 && doc.delimiter !== "" && candidate.startsWith(doc.delimiter)) {
          throw new ShellSyntaxError(
            `a line of a here-document inside a command substitution starts with its delimiter (${doc.delimiter})`,
          );
        }
      }
      if (doc.expand) {
        this.bodies.push(this.src.slice(start, end));
        this.substitutionsIn(this.src.slice(start, end));
      }
    }
  }

  substitutionsIn(text: string): void {
    for (let i = 0; i < text.length; i += 1) {
      if (text[i] === "\\") i += 1;
      else if (text.startsWith("$((", i)) i += 2;
      else if (text.startsWith("$(", i)) i = this.nestedAt(text, i + 2) - 1;
      else if (text[i] === "`") i = this.backtickAt(text, i) - 1;
    }
  }

  nestedAt(text: string, start: number): number {
    const inner = new Scanner(text, start, { ...this.options, depth: this.options.depth + 1, nested: true });
    const end = inner.run();
    this.nested.push(inner.tokens, ...inner.nested);
    this.bodies.push(...inner.bodies);
    return end;
  }

  backtickAt(text: string, start: number, inDoubleQuotes = false): number {
    // Inside backquotes a backslash escapes `$`, a backquote and itself; inside "…" also `"`.
    const escaped = inDoubleQuotes ? '$`\\"' : "$`\\";
    let body = "";
    for (let i = start + 1; i < text.length; i += 1) {
      const ch = text[i]!;
      if (ch === "\\" && i + 1 < text.length) {
        const next = text[i + 1]!;
        body += escaped.includes(next) ? next : ch + next;
        i += 1;
      } else if (ch === "`") {
        const inner = new Scanner(body, 0, { ...this.options, depth: this.options.depth + 1, nested: false });
        inner.run();
        this.nested.push(inner.tokens, ...inner.nested);
        this.bodies.push(...inner.bodies);
        return i + 1;
      } else body += ch;
    }
    throw new ShellSyntaxError("a ` command substitution is not closed");
  }

  #processSubstitution(): void {
    const start = this.pos;
    this.pos = this.nestedAt(this.src, this.pos + 2);
    // Joined to other text (`x<(true)/../.env`), bash makes one word of it, a path through
    // `/dev/fd/63`, where this scan would see three: not parsed at all.
    const before = start > 0 ? this.src[start - 1]! : " ";
    const after = this.src[this.pos] ?? " ";
    if (!/[\s;&|()<>]/.test(before) || !/[\s;&|()<>]/.test(after)) {
      throw new ShellSyntaxError("a process substitution is joined to other text, which makes one path of both");
    }
    const raw = this.src.slice(start, this.pos);
    this.tokens.push({
      type: "word",
      word: { text: PROCESS_SUBSTITUTION_PATH, raw, glob: undefined, unresolved: undefined },
    });
  }

  /**
   * Reads `((…))` as one word when bash reads it as arithmetic, collecting the substitutions in it
   * (`(( $(tee x) ))` runs tee); false when bash reads two subshells (`((cat .env) )`), which the
   * scan then reads as such.
   */
  #arithmeticCommand(): boolean {
    const start = this.pos;
    const end = arithmeticEnd(this.src, start);
    if (end === undefined) {
      const last = this.tokens[this.tokens.length - 1];
      if (last?.type === "word" && last.word.text === "for") throw new ShellSyntaxError("a for (( is not arithmetic");
      return false;
    }
    this.substitutionsIn(this.src.slice(start + 2, end - 2));
    this.pos = end;
    const raw = this.src.slice(start, end);
    this.tokens.push({ type: "word", word: { text: "((", raw, glob: undefined, unresolved: undefined } });
    return true;
  }

  /**
   * `NAME=(…)`: words, not commands, with `[…]=` subscripts bash reads whole (`a=([1<<2]=x)`) and
   * comments; the substitutions in them run. One word for the analysis, unresolved.
   */
  #arrayAssignment(head: string): void {
    const { src } = this;
    const start = this.pos;
    this.pos += 1;
    for (;;) {
      const ch = src[this.pos];
      if (ch === undefined) throw new ShellSyntaxError("an array assignment ( is not closed");
      if (ch === "\n" && this.#heredocs.length > 0) {
        throw new ShellSyntaxError("an array assignment spans the line a here-document starts after");
      }
      if (ch === " " || ch === "\t" || ch === "\n") this.pos += 1;
      else if (ch === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else if (ch === "#") this.#skipComment();
      else if (ch === ")") break;
      else if (META.has(ch)) throw new ShellSyntaxError(`an array assignment holds ${ch}, which is not analysed`);
      else {
        if (ch === "[") checkSubscript(src, this.pos);
        scanWord(this);
      }
    }
    this.pos += 1;
    const raw = head + src.slice(start, this.pos);
    this.tokens.push({ type: "word", word: { text: raw, raw, glob: undefined, unresolved: "array assignment" } });
  }
}

/**
 * Splits a command line into shell tokens: words (quotes, escapes, `~`, `$HOME` resolved; other
 * expansions marked unresolved), control operators, redirections; here-document bodies skipped;
 * `$(...)`, backticks and `<(...)` are opaque in their word but their command lines are returned in
 * `nested` so they can be analysed too.
 * Contract: never throws; an unbalanced quote, parenthesis or substitution gives `{ ok: false }`.
 */
export function tokenizeShell(source: string, options: { home: string; arithmeticCommands?: boolean }): Tokenized {
  try {
    const arithmeticCommands = options.arithmeticCommands !== false;
    const scanner = new Scanner(source, 0, { home: options.home, depth: 0, nested: false, arithmeticCommands });
    scanner.run();
    return { ok: true, tokens: scanner.tokens, nested: scanner.nested, bodies: scanner.bodies };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, problem: error.message };
    throw error;
  }
}

/** A word's text after quote removal alone (no expansion): what bash compares a here-document's lines with. */
function removeQuotes(raw: string): string {
  let out = "";
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === "'") {
      const close = raw.indexOf("'", i + 1);
      out += raw.slice(i + 1, close === -1 ? raw.length : close);
      i = close === -1 ? raw.length : close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < raw.length && raw[j] !== '"'; j += 1) {
        if (raw[j] === "\\" && j + 1 < raw.length && '"\\$`'.includes(raw[j + 1] as string)) j += 1;
        out += raw[j] as string;
      }
      i = j;
    } else if (c === "\\" && i + 1 < raw.length) {
      out += raw[i + 1] as string;
      i += 1;
    } else out += c;
  }
  return out;
}
