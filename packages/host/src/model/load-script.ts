import { decodeUtf8 } from "../common/decode-utf8.ts";
import { describeZodIssues } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { findTooDeep, MAX_JSON_DEPTH } from "../common/json-depth.ts";
import { parseJsonSource } from "../common/json-source.ts";
import { PARSE_ONCE } from "../common/parse-once.ts";
import { readRegularFile } from "../common/read-regular-file.ts";
import { type Script, scriptSchema } from "./script-schema.ts";

/**
 * Reads and validates a script file for the scripted model.
 * Contract: an unreadable file throws GatehouseError `GH_SCRIPT_INVALID` naming the file and the OS
 * reason — a FIFO, a device or a directory is refused at once, never waited on; bytes that are not
 * UTF-8 throw `GH_SCRIPT_INVALID` naming file:line (never decoded to U+FFFD silently); malformed
 * JSON throws `GH_JSON_SYNTAX` (file:line:column); a schema mismatch throws `GH_SCRIPT_INVALID`
 * listing every problem (see `parseScript`). A leading byte-order mark is ignored.
 */
export async function loadScript(file: string): Promise<Script> {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file);
  } catch (error) {
    throw new GatehouseError("GH_SCRIPT_INVALID", `Cannot read script ${file}: ${osReason(error)}`, { cause: error });
  }
  const text = decodeScript(bytes, file);
  return parseScript(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file);
}

/** The text of `bytes`; throws GH_SCRIPT_INVALID at the first line that is not valid UTF-8. */
function decodeScript(bytes: Buffer, file: string): string {
  const decoded = decodeUtf8(bytes);
  if (decoded.ok) return decoded.text;
  throw new GatehouseError(
    "GH_SCRIPT_INVALID",
    `${file}:${decoded.line}: bytes that are not UTF-8 — expected UTF-8 text`,
  );
}

/**
 * Parses and validates script text; `file` is only used in messages.
 * Contract: malformed JSON throws `GH_JSON_SYNTAX`; arrays and objects nested deeper than
 * MAX_JSON_DEPTH throw `GH_SCRIPT_INVALID` at file:line:column (nothing that deep can be replayed
 * without exhausting the stack); a schema mismatch throws `GH_SCRIPT_INVALID`
 * whose message has one line per problem: `file:line:column: field.path: what was expected`.
 */
export function parseScript(text: string, file: string): Script {
  const deep = findTooDeep(text);
  if (deep !== undefined) {
    const before = text.slice(0, deep);
    const line = before.split("\n").length;
    const column = deep - before.lastIndexOf("\n");
    throw new GatehouseError(
      "GH_SCRIPT_INVALID",
      `${file}:${line}:${column}: arrays and objects nested deeper than ${MAX_JSON_DEPTH} — expected at most ${MAX_JSON_DEPTH} levels`,
    );
  }
  const source = parseJsonSource(text, file);
  const parsed = scriptSchema().safeParse(source.value, PARSE_ONCE);
  if (parsed.success) return parsed.data;
  const lines = describeZodIssues(parsed.error, source, file);
  const count = lines.length === 1 ? "1 problem" : `${lines.length} problems`;
  throw new GatehouseError("GH_SCRIPT_INVALID", [`Invalid script ${file} (${count}):`, ...lines].join("\n  "), {
    cause: parsed.error,
  });
}

/** `ENOENT: no such file or directory, open 'x'` → `no such file or directory (ENOENT)`. */
function osReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  const described = /^[A-Z0-9_]+: ([^,]+)/.exec(text)?.[1];
  if (typeof code === "string" && described !== undefined) return `${described} (${code})`;
  return text;
}
