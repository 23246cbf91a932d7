import { describe, expect, it } from "vitest";
import { formatBytes, truncateHead, truncateLine, truncateTail } from "../../src/tools/index.ts";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncateHead", () => {
  it("returns text unchanged when it fits", () => {
    const text = "a\nb\n";
    expect(truncateHead(text)).toMatchObject({
      text,
      truncated: false,
      truncatedBy: null,
      totalLines: 2,
      keptLines: 2,
    });
  });

  it("keeps the first maxLines lines", () => {
    const cut = truncateHead(numbered(10), { maxLines: 3 });
    expect(cut).toMatchObject({
      text: "line 1\nline 2\nline 3",
      truncated: true,
      truncatedBy: "lines",
      totalLines: 10,
    });
  });

  it("keeps whole lines within maxBytes", () => {
    const cut = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    expect(cut).toMatchObject({ text: "aaaa\nbbbb", truncatedBy: "bytes", keptLines: 2, partialLine: false });
  });

  it("cuts a single oversized first line at a character boundary", () => {
    const cut = truncateHead("ééééé\nx", { maxBytes: 5 });
    expect(cut).toMatchObject({ text: "éé", partialLine: true, keptLines: 1, truncated: true });
  });
});

describe("truncateTail", () => {
  it("keeps the last maxLines lines", () => {
    const cut = truncateTail(numbered(10), { maxLines: 2 });
    expect(cut).toMatchObject({ text: "line 9\nline 10", truncated: true, truncatedBy: "lines", keptLines: 2 });
  });

  it("cuts a single oversized last line from its end at a character boundary", () => {
    const cut = truncateTail("x\nabééé", { maxBytes: 5 });
    expect(cut).toMatchObject({ text: "éé", partialLine: true });
  });
});

describe("truncateLine and formatBytes", () => {
  it("cuts a long line and says where", () => {
    expect(truncateLine("abcdef", 3)).toBe("abc… [line cut at 3 chars]");
    expect(truncateLine("abc", 3)).toBe("abc");
  });

  it("does not split a surrogate pair", () => {
    expect(truncateLine("a😀b", 2)).toBe("a… [line cut at 2 chars]");
  });

  it("formats sizes", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(50 * 1024)).toBe("50 KB");
    expect(formatBytes(1.5 * 1024 * 1024)).toBe("1.5 MB");
  });
});
