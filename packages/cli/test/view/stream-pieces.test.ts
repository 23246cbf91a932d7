import { describe, expect, it } from "vitest";
import { createPalette, sanitize } from "../../src/view/ansi.ts";
import { describeAssistant } from "../../src/view/format-assistant.ts";
import { createStreamSanitizer } from "../../src/view/stream-sanitizer.ts";
import { createTextStream, textLayout } from "../../src/view/text-stream.ts";
import { assistant, text } from "./helpers/events.ts";

const NASTY =
  "\n \t\nfirst\u001b[1;31m red\u001b[0m line  \r\n\u001b]0;title\u0007second 漢字 🚀\u001b]8;;x\u001b\\link\r" +
  "third\u0000\u009b\n\n\n  \n  indented\t \n\n";

/** Every way to cut `value` into two or three pieces. */
function* splits(value: string): Generator<string[]> {
  for (let i = 0; i <= value.length; i++) {
    yield [value.slice(0, i), value.slice(i)];
    for (let j = i; j <= value.length; j += 7) yield [value.slice(0, i), value.slice(i, j), value.slice(j)];
  }
}

describe("text arriving in pieces", () => {
  it("sanitizes to the same text however the pieces are cut", () => {
    const whole = sanitize(NASTY);
    for (const pieces of splits(NASTY)) {
      const s = createStreamSanitizer();
      expect(pieces.map((piece) => s.push(piece)).join("") + s.flush(), JSON.stringify(pieces)).toBe(whole);
    }
  });

  it.each([12, 30, 80])(
    "streams exactly the rows printed for the whole block however the pieces are cut (%i columns)",
    (width) => {
      const palette = createPalette({ enabled: false });
      const lines = describeAssistant(assistant([text(NASTY)]), { style: { palette, width } }).map(
        (line) => `${line}\n`,
      );
      expect(lines.length).toBeGreaterThan(3);
      for (const pieces of splits(NASTY)) {
        const stream = createTextStream(textLayout(width, palette.bold));
        let out = "";
        for (const piece of pieces) out += stream.push(piece, out !== "" && !out.endsWith("\n"));
        out += stream.end(out !== "" && !out.endsWith("\n"));
        expect(out, JSON.stringify(pieces)).toBe(lines.join(""));
      }
    },
  );
});
