import { keepShape } from "../common/keep-shape.ts";

/** Marks "no usable value here": the caller drops the member or element. */
const NOTHING: unique symbol = Symbol("nothing");
type Parsed = unknown | typeof NOTHING;

/** The next quote or backslash inside a string. */
const SPECIAL = /["\\]/g;
/** The part of a number token that is a complete JSON number. */
const VALID_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
/**
 * Containers nested deeper than this stop the parse (what came before is kept): no tool takes such
 * arguments, and a value this deep could not even be serialised into an event.
 */
const MAX_DEPTH = 256;
/**
 * An unfinished number longer than this shows the value of its first digits until it ends, so an
 * absurd number costs linear time instead of being re-read on every chunk.
 */
const MAX_LIVE_NUMBER = 1024;

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

/** Where a finished or growing value goes: a member of an object, an element of an array, or the root. */
type Frame =
  | { kind: "root"; state: "value" | "done" }
  | { kind: "object"; value: Record<string, unknown>; state: "member" | "colon" | "value"; key: string }
  | { kind: "array"; value: unknown[]; state: "element" };

/** A scalar being read; `slot` is where it was placed once it had a usable value. */
type Token =
  | { kind: "string"; role: "key" | "value"; text: string; escape: string | undefined; slot: Slot }
  | { kind: "number"; text: string; phase: NumberPhase; frozen: Parsed | undefined; slot: Slot }
  | { kind: "literal"; text: string; slot: Slot };

/** An array index or `true` for "placed in its object member / the root"; undefined: not placed yet. */
type Slot = number | true | undefined;

/** Which characters may still extend a number: see `extendsNumber`. */
type NumberPhase = "sign" | "int" | "fraction" | "exponent" | "exponentDigits";

/**
 * A best-effort parser of JSON that arrives in pieces, as a model streams tool-call arguments.
 * Contract: `push` reads each character once, so parsing a document chunk by chunk costs time linear
 * in its size whatever the chunking. After any `push`, `value` is what `parsePartialJson` gives for
 * everything pushed so far: open strings, arrays and objects are closed; a dangling key, an incomplete
 * literal or escape, and a number with nothing valid yet are left out; parsing stops for good at the
 * first thing that cannot be JSON (or nesting deeper than 256) and keeps what came before. Objects
 * and arrays are built in place: `value` returns the same containers as they grow. Never throws.
 */
export class PartialJsonParser {
  #root: Parsed = NOTHING;
  readonly #frames: Frame[] = [{ kind: "root", state: "value" }];
  #token: Token | undefined;
  #stopped = false;

  /** The value of everything pushed so far; `undefined` when nothing usable has arrived yet. */
  get value(): unknown {
    return this.#root === NOTHING ? undefined : this.#root;
  }

  /** Whether the document is a whole JSON object already (its closing brace has been read). */
  get completeObject(): boolean {
    const root = this.#root;
    return (
      !this.#stopped && this.#top.state === "done" && typeof root === "object" && root !== null && !Array.isArray(root)
    );
  }

  /** Whether the parser ignores further input (the document ended or something was not JSON). */
  get stopped(): boolean {
    return this.#stopped || this.#top.state === "done";
  }

  /** Reads the next piece of the document. */
  push(chunk: string): this {
    let i = 0;
    while (i < chunk.length && !this.stopped) {
      i = this.#token === undefined ? this.#structure(chunk, i) : this.#scalar(this.#token, chunk, i);
    }
    const token = this.#token;
    if (token !== undefined && !this.#stopped) this.#publish(token);
    return this;
  }

  get #top(): Frame {
    return this.#frames[this.#frames.length - 1] as Frame;
  }

  /** Reads punctuation and value starts outside any scalar; returns the next index. */
  #structure(text: string, i: number): number {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return i + 1;
    const ch = text[i] as string;
    const frame = this.#top;
    if (frame.kind === "object") {
      if (frame.state === "member") {
        if (ch === "}") return this.#close(i);
        if (ch === ",") return i + 1;
        if (ch !== '"') return this.#stop(i);
        this.#token = { kind: "string", role: "key", text: "", escape: undefined, slot: undefined };
        return i + 1;
      }
      if (frame.state === "colon") {
        if (ch !== ":") return this.#stop(i);
        frame.state = "value";
        return i + 1;
      }
    } else if (frame.kind === "array") {
      if (ch === "]") return this.#close(i);
      if (ch === ",") return i + 1;
    }
    return this.#startValue(ch, i);
  }

  #startValue(ch: string, i: number): number {
    if (ch === "{" || ch === "[") {
      if (this.#frames.length > MAX_DEPTH) return this.#stop(i);
      const value = ch === "{" ? {} : [];
      this.#place(value, undefined);
      this.#frames.push(
        Array.isArray(value)
          ? { kind: "array", value, state: "element" }
          : { kind: "object", value, state: "member", key: "" },
      );
      return i + 1;
    }
    if (ch === '"') {
      const token: Token = { kind: "string", role: "value", text: "", escape: undefined, slot: undefined };
      token.slot = this.#place("", undefined);
      this.#token = token;
      return i + 1;
    }
    if (ch === "-" || (ch >= "0" && ch <= "9")) {
      this.#token = { kind: "number", text: "", phase: "sign", frozen: undefined, slot: undefined };
      return i;
    }
    this.#token = { kind: "literal", text: "", slot: undefined };
    return i;
  }

  #scalar(token: Token, text: string, i: number): number {
    if (token.kind === "string") return this.#string(token, text, i);
    if (token.kind === "number") return this.#number(token, text, i);
    return this.#literal(token, text, i);
  }

  #string(token: Extract<Token, { kind: "string" }>, text: string, start: number): number {
    let i = start;
    while (i < text.length) {
      if (token.escape !== undefined) {
        // One character after the backslash, or `u` and four hex digits.
        const need = token.escape === "" || token.escape[0] !== "u" ? 1 : 5;
        const take = Math.min(need - token.escape.length, text.length - i);
        token.escape += text.slice(i, i + take);
        i += take;
        if (token.escape.length < need || token.escape === "u") continue;
        token.text += decodeEscape(token.escape);
        token.escape = undefined;
        continue;
      }
      SPECIAL.lastIndex = i;
      const at = SPECIAL.exec(text)?.index;
      if (at === undefined) {
        token.text += text.slice(i);
        return text.length;
      }
      token.text += text.slice(i, at);
      if (text[at] === "\\") {
        token.escape = "";
        i = at + 1;
        continue;
      }
      this.#token = undefined;
      this.#endString(token);
      return at + 1;
    }
    return i;
  }

  #endString(token: Extract<Token, { kind: "string" }>): void {
    const frame = this.#top;
    if (token.role === "key" && frame.kind === "object") {
      frame.key = token.text;
      frame.state = "colon";
      return;
    }
    this.#place(token.text, token.slot);
    this.#afterValue();
  }

  #number(token: Extract<Token, { kind: "number" }>, text: string, start: number): number {
    let i = start;
    while (i < text.length) {
      const next = extendsNumber(token.phase, text[i] as string);
      if (next === undefined) break;
      token.phase = next;
      i++;
    }
    token.text += text.slice(start, i);
    if (token.frozen === undefined && token.text.length > MAX_LIVE_NUMBER) {
      token.frozen = numberValue(token.text.slice(0, MAX_LIVE_NUMBER));
    }
    if (i === text.length) return i;
    // The number ended at a character that is not part of it; that character is read next.
    this.#token = undefined;
    const value = numberValue(token.text);
    if (value === NOTHING) return this.#stop(i);
    this.#place(value, token.slot);
    this.#afterValue();
    return i;
  }

  #literal(token: Extract<Token, { kind: "literal" }>, text: string, start: number): number {
    let i = start;
    while (i < text.length) {
      token.text += text[i];
      i++;
      const match = LITERALS.find(([word]) => word.startsWith(token.text));
      if (match === undefined) return this.#stop(i);
      if (match[0] === token.text) {
        this.#token = undefined;
        this.#place(match[1], undefined);
        this.#afterValue();
        return i;
      }
    }
    return i;
  }

  /** Shows an unfinished scalar in its container at the end of a push. */
  #publish(token: Token): void {
    if (token.kind === "string" && token.role === "value") token.slot = this.#place(token.text, token.slot);
    if (token.kind === "number") {
      const value = token.frozen ?? numberValue(token.text);
      if (value !== NOTHING) token.slot = this.#place(value, token.slot);
    }
  }

  /** Puts a value where the innermost frame expects one; returns the slot so a growing value can be updated. */
  #place(value: unknown, slot: Slot): Slot {
    const frame = this.#top;
    if (frame.kind === "root") {
      this.#root = value;
      return true;
    }
    if (frame.kind === "object") {
      setOwn(frame.value, frame.key, value);
      return true;
    }
    if (slot === undefined) return frame.value.push(value) - 1;
    frame.value[slot as number] = value;
    return slot;
  }

  /** After a complete member or element, the container expects the next one (commas are optional). */
  #afterValue(): void {
    const frame = this.#top;
    if (frame.kind === "root") frame.state = "done";
    else if (frame.kind === "object") frame.state = "member";
  }

  #close(i: number): number {
    this.#frames.pop();
    this.#afterValue();
    return i + 1;
  }

  #stop(i: number): number {
    this.#stopped = true;
    this.#token = undefined;
    return i;
  }
}

/**
 * Best-effort parse of an incomplete JSON prefix, as a model streams tool-call arguments.
 * Contract: never throws. Open strings, arrays and objects are closed; a dangling key, an incomplete
 * literal or escape, and a number with nothing valid yet are dropped; parsing stops at the first
 * thing that cannot be JSON and keeps what came before. Text with no usable value gives `{}`.
 * A complete document (nested at most 256 deep) gives the same value as `JSON.parse`.
 */
export function parsePartialJson(text: string): unknown {
  const value = new PartialJsonParser().push(text).value;
  return value === undefined ? {} : value;
}

/** The phase after `ch`, or undefined when `ch` cannot continue a number in `phase`. */
function extendsNumber(phase: NumberPhase, ch: string): NumberPhase | undefined {
  const digit = ch >= "0" && ch <= "9";
  switch (phase) {
    case "sign":
      if (ch === "-") return "int";
      return digit ? "int" : undefined;
    case "int":
      if (digit) return "int";
      if (ch === ".") return "fraction";
      return ch === "e" || ch === "E" ? "exponent" : undefined;
    case "fraction":
      if (digit) return "fraction";
      return ch === "e" || ch === "E" ? "exponent" : undefined;
    case "exponent":
      return digit || ch === "+" || ch === "-" ? "exponentDigits" : undefined;
    case "exponentDigits":
      return digit ? "exponentDigits" : undefined;
  }
}

function numberValue(text: string): Parsed {
  const valid = VALID_NUMBER.exec(text)?.[0];
  return valid === undefined ? NOTHING : Number(valid);
}

/** `sequence` is what followed the backslash: one character, or `u` and four more. */
function decodeEscape(sequence: string): string {
  if (sequence[0] !== "u") return ESCAPES[sequence] ?? sequence;
  const hex = sequence.slice(1);
  return HEX4.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : hex;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else target[key] = value;
}

// One parser per streamed tool call: its layout (and the code built on it) outlives each run.
keepShape(new PartialJsonParser().push('{"k":["v",1]}'));
