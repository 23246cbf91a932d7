import { readFile } from "node:fs/promises";
import { describeZodIssues } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { parseJsonSource } from "../common/json-source.ts";
import { PARSE_ONCE } from "../common/parse-once.ts";
import { type Script, scriptSchema } from "./script-schema.ts";

/**
 * Reads and validates a script file for the scripted model.
 * Contract: an unreadable file throws GatehouseError `GH_SCRIPT_INVALID` naming the file and the OS
 * reason; malformed JSON throws `GH_JSON_SYNTAX` (file:line:column); a schema mismatch throws
 * `GH_SCRIPT_INVALID` listing every problem (see `parseScript`). A leading byte-order mark is ignored.
 */
export async function loadScript(file: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new GatehouseError("GH_SCRIPT_INVALID", `Cannot read script ${file}: ${osReason(error)}`, { cause: error });
  }
  return parseScript(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file);
}

/**
 * Parses and validates script text; `file` is only used in messages.
 * Contract: malformed JSON throws `GH_JSON_SYNTAX`; a schema mismatch throws `GH_SCRIPT_INVALID`
 * whose message has one line per problem: `file:line:column: field.path: what was expected`.
 */
export function parseScript(text: string, file: string): Script {
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
