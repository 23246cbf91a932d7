import { describe, expect, it } from "vitest";
import { contentProblem, toolResultProblem } from "../../src/common/tool-result-shape.ts";

describe("tool result shape", () => {
  it("accepts text and image blocks and serialisable details", () => {
    const content = [
      { type: "text", text: "a\ud800b" },
      { type: "image", data: "AA==", mimeType: "image/png" },
    ];
    expect(toolResultProblem({ content, details: { path: "x", lines: 3 } })).toBeUndefined();
  });

  it("refuses what cannot be written as JSON in a block's extra fields, as in details", () => {
    expect(contentProblem([{ type: "text", text: "x", extra: 10n }])).toMatch(
      /^content\[0\] cannot be written as JSON/,
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(
      contentProblem([
        { type: "text", text: "ok" },
        { type: "image", data: "d", mimeType: "m", meta: cycle },
      ]),
    ).toMatch(/^content\[1\] cannot be written as JSON/);
    expect(toolResultProblem({ content: [], details: { n: 1n } })).toMatch(/^it cannot be written as JSON/);
  });
});
