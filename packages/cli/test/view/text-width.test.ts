import { describe, expect, it } from "vitest";
import { colorEnabled } from "../../src/color-support.ts";
import { createPalette, sanitize, stripAnsi } from "../../src/view/ansi.ts";
import { displayWidth, truncateToWidth } from "../../src/view/text-width.ts";

describe("display width and truncation", () => {
  it("counts wide characters as two columns and escapes and combining marks as none", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("漢字")).toBe(4);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("🚀x")).toBe(3);
    expect(displayWidth("\u001b[31mred\u001b[39m")).toBe(3);
  });

  it("cuts to the width with an ellipsis, never splitting a wide character across the edge", () => {
    expect(truncateToWidth("hello world", 20)).toBe("hello world");
    expect(truncateToWidth("hello world", 5)).toBe("hell…");
    expect(truncateToWidth("漢字漢字漢字", 7)).toBe("漢字漢…");
    expect(truncateToWidth("漢字漢字漢字", 6)).toBe("漢字…");
    expect(truncateToWidth("🚀🚀🚀", 4)).toBe("🚀…");
    expect(truncateToWidth("abc", 0)).toBe("");
  });

  it("keeps escape codes while cutting and resets styles after a cut", () => {
    const red = "\u001b[31mhello world\u001b[39m";
    expect(truncateToWidth(red, 5)).toBe("\u001b[31mhell…\u001b[0m");
    expect(truncateToWidth(red, 11)).toBe(red);
  });
});

describe("ansi helpers", () => {
  it("styles only when enabled", () => {
    expect(createPalette({ enabled: true }).red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(createPalette({ enabled: false }).red("x")).toBe("x");
  });

  it.each([
    ["a terminal", {}, true, true],
    ["a pipe", {}, false, false],
    ["NO_COLOR=1 on a terminal", { NO_COLOR: "1" }, true, false],
    ["an empty NO_COLOR (unset by the convention)", { NO_COLOR: "" }, true, true],
    ["NODE_DISABLE_COLORS=1", { NODE_DISABLE_COLORS: "1" }, true, false],
    ["TERM=dumb", { TERM: "dumb" }, true, false],
    ["FORCE_COLOR=1 into a pipe", { FORCE_COLOR: "1" }, false, true],
    ["FORCE_COLOR= (empty) into a pipe", { FORCE_COLOR: "" }, false, true],
    ["FORCE_COLOR over NO_COLOR", { FORCE_COLOR: "3", NO_COLOR: "1" }, false, true],
    ["FORCE_COLOR=0 on a terminal", { FORCE_COLOR: "0" }, true, false],
    ["FORCE_COLOR=false on a terminal", { FORCE_COLOR: "false" }, true, false],
  ])("decides colours like Node does: %s", (_name, env, isTTY, expected) => {
    expect(colorEnabled({ env, isTTY })).toBe(expected);
  });

  it("sanitizes escape sequences, carriage returns and control characters out of untrusted text", () => {
    expect(stripAnsi("\u001b[1;31mx\u001b[0m")).toBe("x");
    expect(sanitize("a\u001b]0;title\u0007b\r\nc\rd\te\u0000\u009b")).toBe("ab\nc\nd  e");
  });
});
