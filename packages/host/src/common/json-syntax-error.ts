/** The first place where a text stops being JSON, worded for a person. */
export interface JsonSyntaxProblem {
  /** UTF-16 offset of the offending character (the text length for end of file). */
  offset: number;
  /** What was found, e.g. `unexpected '}'`, `trailing comma before ']'`, `unterminated string`. */
  found: string;
  /** What JSON allows there, e.g. `a value`, `',' or ']'`. */
  expected: string;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** Thrown inside the scanner only, to unwind to `findJsonSyntaxError`. */
class Found {
  constructor(readonly problem: JsonSyntaxProblem) {}
}

/**
 * Scans `text` against the JSON grammar (RFC 8259, as `JSON.parse` accepts it) without building values.
 * Contract: returns the first problem, or `undefined` for valid JSON. Linear and iterative, so any
 * nesting depth is fine. Comments, trailing commas, single quotes, bad escapes and raw control
 * characters in strings are problems.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  try {
    scanDocument(new Scanner(text));
    return undefined;
  } catch (error) {
    if (error instanceof Found) return error.problem;
    throw error;
  }
}

function scanDocument(s: Scanner): void {
  const closers: number[] = [];
  for (;;) {
    s.skipWhitespace();
    const c = s.code();
    if (c === LBRACE || c === LBRACKET) {
      s.i++;
      s.skipWhitespace();
      const close = c === LBRACE ? RBRACE : RBRACKET;
      if (s.code() === close) s.i++;
      else {
        closers.push(close);
        if (close === RBRACE) s.propertyName();
        continue;
      }
    } else s.primitive();
    // After a complete value: close every container that ends here, or move to its next member.
    for (;;) {
      const close = closers[closers.length - 1];
      s.skipWhitespace();
      if (close === undefined) {
        if (s.i < s.text.length) s.fail(s.i, `unexpected ${s.found(s.i)}`, "end of file");
        return;
      }
      const d = s.code();
      if (d === COMMA) {
        const comma = s.i++;
        s.skipWhitespace();
        if (s.code() === close) {
          const expected = close === RBRACKET ? "a value" : "a property name in double quotes";
          s.fail(comma, `trailing comma before '${String.fromCharCode(close)}'`, expected);
        }
        if (close === RBRACE) s.propertyName();
        break;
      }
      if (d !== close) s.fail(s.i, `unexpected ${s.found(s.i)}`, `',' or '${String.fromCharCode(close)}'`);
      s.i++;
      closers.pop();
    }
  }
}

/** Reads tokens; every method starts at `i` and leaves `i` after what it read. */
class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  code(): number {
    return this.text.charCodeAt(this.i);
  }

  skipWhitespace(): void {
    let c = this.text.charCodeAt(this.i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = this.text.charCodeAt(++this.i);
  }

  /** Reads `"name"` and the `:` after it; whitespace before the name is already skipped. */
  propertyName(): void {
    if (this.code() !== QUOTE)
      this.fail(this.i, `unexpected ${this.found(this.i)}`, "a property name in double quotes");
    this.string();
    this.skipWhitespace();
    if (this.code() !== COLON) this.fail(this.i, `unexpected ${this.found(this.i)}`, "':' after the property name");
    this.i++;
  }

  primitive(): void {
    const c = this.code();
    if (c === QUOTE) this.string();
    else if (c === 0x2d || isDigit(c)) this.number();
    else this.literal();
  }

  private literal(): void {
    for (const word of ["true", "false", "null"]) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail(this.i, `unexpected ${this.found(this.i)}`, "a value");
  }

  string(): void {
    const t = this.text;
    const start = this.i;
    for (let i = start + 1; ; i++) {
      if (i >= t.length) this.fail(start, "unterminated string", "a closing '\"'");
      const c = t.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return;
      }
      if (c === 0x5c) i += this.escapeLength(i, start) - 1;
      else if (c < 0x20) this.badCharacter(c, i, start);
    }
  }

  private badCharacter(c: number, at: number, stringStart: number): never {
    if (c === 0x0a || c === 0x0d)
      this.fail(stringStart, "unterminated string", "a closing '\"' before the end of the line");
    return this.fail(at, `unexpected control character ${codePoint(c)} in a string`, "an escape like \\t or \\u0000");
  }

  private escapeLength(i: number, stringStart: number): number {
    const t = this.text;
    if (i + 1 >= t.length) this.fail(stringStart, "unterminated string", "a closing '\"'");
    const e = t[i + 1] as string;
    if ('"\\/bfnrt'.includes(e)) return 2;
    if (e !== "u") this.fail(i, `invalid escape '\\${e}'`, 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
    if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) {
      this.fail(i, `invalid escape '\\u${t.slice(i + 2, i + 6)}'`, "four hex digits after \\u");
    }
    return 6;
  }

  number(): void {
    const t = this.text;
    const start = this.i;
    let i = start;
    if (t.charCodeAt(i) === 0x2d) i++;
    if (t.charCodeAt(i) === 0x30) {
      i++;
      if (isDigit(t.charCodeAt(i))) this.fail(start, `invalid number '${t.slice(start, i + 1)}'`, "no leading zeros");
    } else if (isDigit(t.charCodeAt(i))) {
      while (isDigit(t.charCodeAt(i))) i++;
    } else this.fail(i, `unexpected ${this.found(i)}`, "a digit after '-'");
    if (t.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(t.charCodeAt(i))) this.fail(i, `unexpected ${this.found(i)}`, "a digit after '.'");
      while (isDigit(t.charCodeAt(i))) i++;
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = t.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(t.charCodeAt(i))) this.fail(i, `unexpected ${this.found(i)}`, "a digit in the exponent");
      while (isDigit(t.charCodeAt(i))) i++;
    }
    this.i = i;
  }

  /** Names what sits at `at`, for an error message. */
  found(at: number): string {
    const t = this.text;
    if (at >= t.length) return "end of file";
    const c = t.charCodeAt(at);
    const next = t.charCodeAt(at + 1);
    if (c === 0x2f && (next === 0x2f || next === 0x2a)) return "comment (JSON has no comments)";
    const word = /^[A-Za-z_$][\w$]*/.exec(t.slice(at, at + 40))?.[0];
    if (word !== undefined) return `'${word}'`;
    const cp = t.codePointAt(at) as number;
    if (cp < 0x21 || (cp >= 0x7f && cp <= 0xa0) || cp === 0xfeff) return `character ${codePoint(cp)}`;
    return c === 0x27 ? `"'"` : `'${String.fromCodePoint(cp)}'`;
  }

  fail(offset: number, found: string, expected: string): never {
    throw new Found({ offset, found, expected });
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}
