/**
 * Checks of what a tool or a `tool_result` handler hands back. A tool result becomes a transcript
 * message, a session line and a `--json` event (SPEC §2: messages are JSON-serialisable), so a
 * malformed one is refused where it appears, naming who made it, instead of failing later where
 * nobody can tell which tool or extension was at fault.
 */

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "a list" : typeof value;
}

/** Why `value` cannot be a result's content (text and image blocks), or undefined when it can. */
export function contentProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `content must be a list of blocks, not ${kindOf(value)}`;
  for (const [index, block] of value.entries()) {
    const b = (block ?? {}) as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
    if (b.type === "text" && typeof b.text === "string") continue;
    if (b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string") continue;
    return `content[${index}] must be { type: "text", text } or { type: "image", data, mimeType }`;
  }
  return undefined;
}

/** Why `value` cannot be written as JSON (a cycle, a BigInt), or undefined when it can. */
export function jsonProblem(value: unknown, what: string): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return `${what} cannot be written as JSON (${reason})`;
  }
}

/**
 * Why `value` is not a tool result `{ content, details?, isError?, terminate? }`, or undefined.
 * Contract: linear in the result's size (one JSON serialisation), never throws.
 */
export function toolResultProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected { content: [...] }, not ${kindOf(value)}`;
  }
  const result = value as { content?: unknown; details?: unknown };
  return contentProblem(result.content) ?? jsonProblem({ content: result.content, details: result.details }, "it");
}
