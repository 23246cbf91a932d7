/** Marks "no usable value here": the caller drops the member or element. */
const NOTHING: unique symbol = Symbol("nothing");
type Parsed = unknown | typeof NOTHING;

/** The next quote or backslash inside a string. */
const SPECIAL = /["\\]/g;
/** Everything that could still grow into a JSON number. */
const NUMBER_PREFIX = /-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?/y;

const LITERALS: readonly [string, unknown][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Best-effort parse of an incomplete JSON prefix, as a model streams tool-call arguments.
 * Contract: never throws. Open strings, arrays and objects are closed; a dangling key, an incomplete
 * literal or escape, and a number with nothing valid yet are dropped; parsing stops at the first
 * thing that cannot be JSON and keeps what came before. Text with no usable value gives `{}`.
 * A complete document gives the same value as `JSON.parse`.
 */
export function parsePartialJson(text: string): unknown {
  try {
    const value = new PartialParser(text).value();
    return value === NOTHING ? {} : value;
  } catch {
    return {}; // only a stack overflow on absurd nesting can get here
  }
}

/** A tolerant recursive parser; `stopped` is set at the end of input or at the first bad token. */
class PartialParser {
  private i = 0;
  private stopped = false;

  constructor(private readonly text: string) {}

  value(): Parsed {
    this.skipWhitespace();
    const c = this.text[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    return this.literal();
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c === "}") {
        this.i++;
        return result;
      }
      if (c === ",") {
        this.i++;
        continue;
      }
      if (c !== '"') return this.stop(result);
      const key = this.string();
      if (this.stopped) return result;
      this.skipWhitespace();
      if (this.text[this.i] !== ":") return this.stop(result);
      this.i++;
      const value = this.value();
      if (value !== NOTHING) setOwn(result, key, value);
      if (this.stopped) return result;
    }
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.i++;
    for (;;) {
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c === "]") {
        this.i++;
        return result;
      }
      if (c === ",") {
        this.i++;
        continue;
      }
      const value = this.value();
      if (value !== NOTHING) result.push(value);
      if (this.stopped) return result;
    }
  }

  private string(): string {
    const t = this.text;
    let out = "";
    let chunk = ++this.i;
    for (;;) {
      SPECIAL.lastIndex = chunk;
      const i = SPECIAL.exec(t)?.index;
      if (i === undefined) return this.stop(out + t.slice(chunk));
      out += t.slice(chunk, i);
      if (t[i] === '"') {
        this.i = i + 1;
        return out;
      }
      const e = t[i + 1];
      if (e === undefined) return this.stop(out);
      if (e === "u") {
        const hex = t.slice(i + 2, i + 6);
        if (hex.length < 4) return this.stop(out);
        out += /^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : hex;
        chunk = i + 6;
      } else {
        out += ESCAPES[e] ?? e;
        chunk = i + 2;
      }
    }
  }

  private number(): Parsed {
    NUMBER_PREFIX.lastIndex = this.i;
    const text = NUMBER_PREFIX.exec(this.text)?.[0] ?? "";
    this.i += text.length;
    const valid = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text)?.[0];
    return valid === undefined ? this.stop(NOTHING) : Number(valid);
  }

  private literal(): Parsed {
    const rest = this.text.slice(this.i, this.i + 5);
    for (const [word, value] of LITERALS) {
      if (rest.startsWith(word)) {
        this.i += word.length;
        return value;
      }
    }
    return this.stop(NOTHING);
  }

  private stop<T>(value: T): T {
    this.stopped = true;
    return value;
  }

  private skipWhitespace(): void {
    const t = this.text;
    let c = t.charCodeAt(this.i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++this.i);
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else target[key] = value;
}
