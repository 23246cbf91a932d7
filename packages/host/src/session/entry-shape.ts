/**
 * The one check of a session entry line that reading (`session show`, resume) and
 * `session check` share: every field the host relies on has the type it needs, ids are unique and
 * every reference points at an earlier entry — so the parent chain can never loop or break, and
 * nothing malformed reaches the tree view or the model.
 */

/** Where a value sits, for messages: `message.content[2].name`. */
type Path = string;

type Problem = string | undefined;

const ROLES = new Set(["user", "assistant", "toolResult"]);
const STOP_REASONS = new Set(["stop", "toolUse", "length", "error", "aborted"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function expect(path: Path, what: string, value: unknown): string {
  return `${path} must be ${what} (found ${kindOf(value)})`;
}

function optional(record: Record<string, unknown>, key: string, type: "string" | "number" | "boolean", at: Path) {
  const value = record[key];
  if (value === undefined || typeof value === type) return undefined;
  return expect(`${at}.${key}`, `a ${type}`, value);
}

function required(record: Record<string, unknown>, key: string, type: "string" | "number", at: Path): Problem {
  const value = record[key];
  return typeof value === type ? undefined : expect(`${at}.${key}`, `a ${type}`, value);
}

function blockProblem(block: unknown, at: Path, allowed: readonly string[]): Problem {
  if (!isObject(block)) return expect(at, "an object", block);
  if (typeof block.type !== "string" || !allowed.includes(block.type)) {
    return `${at}.type must be one of ${allowed.map((t) => `"${t}"`).join(", ")}`;
  }
  switch (block.type) {
    case "text":
      return required(block, "text", "string", at);
    case "thinking":
      return required(block, "thinking", "string", at);
    case "image":
      return required(block, "data", "string", at) ?? required(block, "mimeType", "string", at);
    default:
      return (
        required(block, "id", "string", at) ??
        required(block, "name", "string", at) ??
        (isObject(block.arguments) ? undefined : expect(`${at}.arguments`, "an object", block.arguments))
      );
  }
}

function contentProblem(content: unknown, at: Path, allowed: readonly string[]): Problem {
  if (!Array.isArray(content)) return expect(at, "an array of content blocks", content);
  for (const [i, block] of content.entries()) {
    const problem = blockProblem(block, `${at}[${i}]`, allowed);
    if (problem) return problem;
  }
  return undefined;
}

/** What is wrong with a message as stored in a message entry; undefined when it is well formed. */
export function messageProblem(message: unknown): Problem {
  const at = "message";
  if (!isObject(message)) return expect(at, "an object", message);
  if (typeof message.role !== "string" || !ROLES.has(message.role)) {
    return `message.role must be "user", "assistant" or "toolResult" (found ${JSON.stringify(message.role) ?? "nothing"})`;
  }
  const time = optional(message, "timestamp", "number", at);
  if (time) return time;
  if (message.role === "user") {
    if (typeof message.content === "string") return undefined;
    return contentProblem(message.content, `${at}.content`, ["text", "image"]);
  }
  if (message.role === "toolResult") {
    return (
      required(message, "toolCallId", "string", at) ??
      required(message, "toolName", "string", at) ??
      optional(message, "isError", "boolean", at) ??
      contentProblem(message.content, `${at}.content`, ["text", "image"])
    );
  }
  const stop = message.stopReason;
  if (stop !== undefined && (typeof stop !== "string" || !STOP_REASONS.has(stop))) {
    return `message.stopReason must be one of ${[...STOP_REASONS].map((s) => `"${s}"`).join(", ")}`;
  }
  return (
    optional(message, "errorMessage", "string", at) ??
    contentProblem(message.content, `${at}.content`, ["text", "thinking", "toolCall"])
  );
}

function referenceProblem(entry: Record<string, unknown>, key: string, ids: ReadonlyMap<string, number>): Problem {
  const target = entry[key];
  if (typeof target !== "string") return expect(key, "a string entry id", target);
  if (!ids.has(target)) return `${key} ${JSON.stringify(target)} is not an earlier entry of this session`;
  return undefined;
}

/** What is wrong with the fields of a known entry type; unknown types are kept as they are. */
function typeProblem(entry: Record<string, unknown>, ids: ReadonlyMap<string, number>): Problem {
  switch (entry.type) {
    case "message":
      return messageProblem(entry.message);
    case "compaction":
      return (
        (typeof entry.summary === "string" ? undefined : expect("summary", "a string", entry.summary)) ??
        (typeof entry.firstKeptEntryId === "string"
          ? undefined
          : expect("firstKeptEntryId", "a string", entry.firstKeptEntryId))
      );
    case "branch":
      return referenceProblem(entry, "targetId", ids);
    case "label":
      return (
        referenceProblem(entry, "targetId", ids) ??
        (typeof entry.label === "string" ? undefined : expect("label", "a string", entry.label))
      );
    case "custom":
      return typeof entry.extension === "string" ? undefined : expect("extension", "a string", entry.extension);
    case "model_change":
      return typeof entry.model === "string" ? undefined : expect("model", "a string", entry.model);
    default:
      return undefined;
  }
}

/**
 * What is wrong with one parsed entry line, given the ids of the entries before it (id → line).
 * Contract: returns undefined for a well-formed entry; otherwise one sentence for `file:line: …`.
 * Checks a string id and type, a unique id, a parent that is null or an earlier entry, and the
 * fields of every known entry type (a message's role, content blocks, tool calls and results).
 */
export function entryProblem(entry: Record<string, unknown>, ids: ReadonlyMap<string, number>): Problem {
  if (typeof entry.id !== "string" || entry.id === "" || typeof entry.type !== "string") {
    return "corrupt entry (every entry needs a string id and type)";
  }
  const first = ids.get(entry.id);
  if (first !== undefined) return `duplicate id ${JSON.stringify(entry.id)} (first on line ${first})`;
  const parent = entry.parentId;
  if (parent !== null) {
    if (typeof parent !== "string") return expect("parentId", "null or a string entry id", parent);
    if (!ids.has(parent)) return `parent ${JSON.stringify(parent)} does not precede this entry`;
  }
  return typeProblem(entry, ids);
}
