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

/** How many fields a text and an image block have; a block with more is serialised to check the rest. */
const TEXT_FIELDS = 2;
const IMAGE_FIELDS = 3;

/**
 * Why `value` cannot be a result's content (text and image blocks, JSON-serialisable), or
 * undefined when it can. Strings always serialise, so only a block carrying fields besides its own
 * is serialised: the text itself is never copied (a result's text can be large, and this runs on
 * every call).
 */
export function contentProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `content must be a list of blocks, not ${kindOf(value)}`;
  for (let index = 0; index < value.length; index++) {
    const b = (value[index] ?? {}) as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };
    let fields: number;
    if (b.type === "text" && typeof b.text === "string") fields = TEXT_FIELDS;
    else if (b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string") fields = IMAGE_FIELDS;
    else return `content[${index}] must be { type: "text", text } or { type: "image", data, mimeType }`;
    if (Object.keys(b).length > fields) {
      const problem = jsonProblem(b, `content[${index}]`);
      if (problem) return problem;
    }
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
 * Why `value` is not a tool result `{ content, details?, isError?, terminate? }` (flags boolean), or undefined.
 * Contract: never throws; serialises only `details` and blocks with extra fields, never the text.
 */
export function toolResultProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected { content: [...] }, not ${kindOf(value)}`;
  }
  const result = value as { content?: unknown; details?: unknown; isError?: unknown; terminate?: unknown };
  return (
    contentProblem(result.content) ??
    flagProblem(result, "isError") ??
    flagProblem(result, "terminate") ??
    (result.details === undefined ? undefined : jsonProblem(result.details, "it"))
  );
}

/**
 * Why a result's `isError` or `terminate` is not a boolean, or undefined. The loop reads both with
 * `=== true`, so `isError: "yes"` would count as a success (and `terminate: 1` as going on) while the
 * message, the session and every `--json` reader carry the string.
 */
export function flagProblem(
  result: { isError?: unknown; terminate?: unknown },
  key: "isError" | "terminate",
): string | undefined {
  const value = result[key];
  return value === undefined || typeof value === "boolean" ? undefined : `${key} must be true or false`;
}

/**
 * Why `value` is not a progress update `{ content, details? }` (what `ctx.onUpdate` takes), or
 * undefined. An update becomes a `tool_execution_update` event that every subscriber, extension
 * and `--json` reader gets, so one that is not a result's shape or cannot be written as JSON is
 * refused like a result. Contract: never throws; serialises only `details` and blocks with extra fields.
 */
export function progressProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected { content: [...] }, not ${kindOf(value)}`;
  }
  const update = value as { content?: unknown; details?: unknown };
  return (
    contentProblem(update.content) ?? (update.details === undefined ? undefined : jsonProblem(update.details, "it"))
  );
}
