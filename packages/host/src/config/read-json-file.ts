import type { z } from "zod";
import { danglingLinkOn, describeDanglingLink } from "../common/dangling-link.ts";
import { decodeUtf8 } from "../common/decode-utf8.ts";
import { describeZodIssues, formatPath } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { findTooDeep, MAX_JSON_DEPTH } from "../common/json-depth.ts";
import { findProtoKey } from "../common/json-proto-key.ts";
import { type JsonSource, parseJsonSource, positionAt } from "../common/json-source.ts";
import { PARSE_ONCE } from "../common/parse-once.ts";
import { readRegularFile } from "../common/read-regular-file.ts";
import { osReason } from "./os-reason.ts";

/** What to read and how to word its problems. */
export interface ReadJsonFileOptions<Schema extends z.ZodType> {
  /** Absolute path of the file. */
  file: string;
  /** The schema the parsed JSON must satisfy. */
  schema: Schema;
  /** What the file is, for messages: `settings`, `managed settings`, `trust store`. */
  what: string;
  /** When true, a file that does not exist yields `undefined` instead of an error. */
  optional: boolean;
  /** Appended to the message when the file cannot be read, e.g. why it must exist. */
  readHint?: string;
  /**
   * Refuse a key named `__proto__` anywhere (hand-written settings: see `findProtoKey`). Off for
   * files Gatehouse writes itself, whose keys are file paths of the projects it serves.
   */
  refuseProtoKey?: boolean;
}

/** A validated JSON file and the source to locate its values. */
export interface JsonFile<Value> {
  value: Value;
  source: JsonSource;
}

/**
 * Reads, parses and validates a hand-written JSON file of the Gatehouse configuration.
 * Contract: every problem throws GatehouseError `GH_SETTINGS_INVALID` naming the file: unreadable
 * (the OS reason; a missing file only when not `optional` — a missing parent directory counts as
 * missing, but a symbolic link on the way that leads nowhere is an error naming it, even when
 * `optional`), bytes that are not UTF-8 (`file:line`), malformed JSON (`file:line:column: found — expected`, the `GH_JSON_SYNTAX` error as
 * cause), arrays and objects nested more than `MAX_JSON_DEPTH` levels (`file:line:column` of the
 * first too deep), a `__proto__` key when `refuseProtoKey`, schema mismatch (one
 * `file:line:column: field: expectation` line per problem). A leading byte-order mark is ignored.
 */
export function readJsonFile<Schema extends z.ZodType>(
  options: ReadJsonFileOptions<Schema>,
): JsonFile<z.output<Schema>> | undefined {
  const { file, what } = options;
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file);
  } catch (error) {
    // A link that leads nowhere is a file someone meant to be read (a dotfiles checkout moved), not
    // an absent one: reading it as "no settings" would drop the guards it enables without a word.
    const dangling = isMissing(error) ? danglingLinkOn(file) : undefined;
    if (options.optional && isMissing(error) && dangling === undefined) return undefined;
    const hint = options.readHint ? `; ${options.readHint}` : "";
    const reason = dangling ? describeDanglingLink(dangling) : osReason(error);
    throw new GatehouseError("GH_SETTINGS_INVALID", `Cannot read ${what} ${file}: ${reason}${hint}`, {
      cause: error,
    });
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `Invalid ${what} ${file}:\n  ${file}:${decoded.line}: bytes that are not UTF-8 — expected UTF-8 text (save the file as UTF-8)`,
    );
  }
  const text = decoded.text;
  return parseJsonFile(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, options);
}

function parseJsonFile<Schema extends z.ZodType>(
  text: string,
  options: ReadJsonFileOptions<Schema>,
): JsonFile<z.output<Schema>> {
  const { file, schema, what } = options;
  let source: JsonSource;
  try {
    source = parseJsonSource(text, file);
  } catch (error) {
    if (!(error instanceof GatehouseError) || error.code !== "GH_JSON_SYNTAX") throw error;
    throw new GatehouseError("GH_SETTINGS_INVALID", `Invalid ${what} ${file} (malformed JSON):\n  ${error.message}`, {
      cause: error,
    });
  }
  const deep = findTooDeep(text, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    const { line, column } = positionAt(text, deep);
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `Invalid ${what} ${file}:\n  ${file}:${line}:${column}: ${text[deep] === "[" ? "an array" : "an object"} nested more than ${MAX_JSON_DEPTH} levels deep — expected at most ${MAX_JSON_DEPTH} levels of nested arrays and objects`,
    );
  }
  const proto = options.refuseProtoKey ? findProtoKey(source.value) : undefined;
  if (proto !== undefined) {
    const { line, column } = source.locate(proto);
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `Invalid ${what} ${file}:\n  ${file}:${line}:${column}: ${formatPath(proto)}: a key named "__proto__" — expected another name (JavaScript would take it as the object's prototype, so what it holds would be ignored)`,
    );
  }
  const parsed = schema.safeParse(source.value, PARSE_ONCE);
  if (parsed.success) return { value: parsed.data, source };
  const lines = describeZodIssues(parsed.error, source, file);
  const count = lines.length === 1 ? "1 problem" : `${lines.length} problems`;
  throw new GatehouseError("GH_SETTINGS_INVALID", [`Invalid ${what} ${file} (${count}):`, ...lines].join("\n  "), {
    cause: parsed.error,
  });
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
