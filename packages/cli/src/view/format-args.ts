/**
 * One-line summaries of tool-call arguments: `write playground/x.txt (12 chars)`,
 * `read src/a.ts:10-40`, `bash sleep 0.2; echo A`. Large texts become lengths, never content.
 */
import { oneLine } from "./ansi.ts";

type Args = Record<string, unknown>;
type Summarize = (args: Args) => string | undefined;

/** Longest summary kept before width truncation, so a huge command costs nothing to render. */
const MAX_SUMMARY = 400;

/** A string shown inline in a generic summary longer than this is shown as its length instead. */
const MAX_INLINE_VALUE = 40;

/** Fields that hold file contents or patches: shown as lengths whatever their size. */
const LARGE_TEXT_KEYS = new Set(["content", "newText", "oldText", "text", "data", "patch", "diff", "body"]);

const str = (value: unknown): string | undefined => (typeof value === "string" ? oneLine(value) : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const chars = (text: string): string => `${text.length} ${text.length === 1 ? "char" : "chars"}`;

function lineRange(offset: number | undefined, limit: number | undefined): string {
  if (offset === undefined && limit === undefined) return "";
  const start = offset ?? 1;
  return limit === undefined || limit < 1 ? `:${start}-` : `:${start}-${start + limit - 1}`;
}

function editSize(args: Args): string {
  if (Array.isArray(args.edits)) return `(${args.edits.length} ${args.edits.length === 1 ? "edit" : "edits"})`;
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return "";
  const all = args.replaceAll === true ? ", all" : "";
  return `(${args.oldText.length} → ${chars(args.newText)}${all})`;
}

const within = (path: string | undefined): string => (path ? ` in ${path}` : "");

/** Summaries of the built-in tools; `undefined` means "not the expected shape": use the fallback. */
const BUILT_INS = new Map<string, Summarize>(
  Object.entries({
    read: (a) => {
      const path = str(a.path);
      return path === undefined ? undefined : `${path}${lineRange(num(a.offset), num(a.limit))}`;
    },
    write: (a) => {
      const path = str(a.path);
      if (path === undefined || typeof a.content !== "string") return undefined;
      return `${path} (${chars(a.content)})`;
    },
    edit: (a) => {
      const path = str(a.path);
      return path === undefined ? undefined : `${path} ${editSize(a)}`.trim();
    },
    ls: (a) => (a.path === undefined ? "." : str(a.path)),
    find: (a) => {
      const pattern = str(a.pattern);
      return pattern === undefined ? undefined : `${pattern}${within(str(a.path))}`;
    },
    grep: (a) => {
      const pattern = str(a.pattern);
      if (pattern === undefined) return undefined;
      const glob = str(a.glob);
      return `/${pattern}/${within(str(a.path))}${glob ? ` (${glob})` : ""}`;
    },
    bash: (a) => str(a.command),
  } satisfies Record<string, Summarize>),
);

function inlineValue(key: string, value: unknown): string {
  if (typeof value === "string") {
    if (LARGE_TEXT_KEYS.has(key) || value.length > MAX_INLINE_VALUE) return `<${chars(value)}>`;
    const text = oneLine(value);
    return /\s|^$/.test(text) ? JSON.stringify(text) : text;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  return value === undefined ? "undefined" : "{…}";
}

/**
 * The fallback for custom tools: a lone string field shows as its value, anything else as
 * `key=value` pairs, with large strings, arrays and objects reduced to sizes.
 */
export function formatGenericArgs(args: Args): string {
  const entries = Object.entries(args);
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only && typeof only[1] === "string" && !LARGE_TEXT_KEYS.has(only[0])) return oneLine(only[1]);
  return entries.map(([key, value]) => `${oneLine(key)}=${inlineValue(key, value)}`).join(" ");
}

/**
 * Summarizes the arguments of one call, without the tool name.
 * Contract: one line, no control characters, at most `MAX_SUMMARY` characters; the values of
 * `content`, `oldText`, `newText` and other large-text fields never appear, only their lengths.
 */
export function formatArgs(options: { toolName: string; args: unknown }): string {
  const args: Args =
    typeof options.args === "object" && options.args !== null && !Array.isArray(options.args)
      ? (options.args as Args)
      : {};
  const summary = BUILT_INS.get(options.toolName)?.(args) ?? formatGenericArgs(args);
  return capLength(summary, MAX_SUMMARY);
}

/** Cuts `text` to `max` UTF-16 units with `…`, never splitting a surrogate pair. */
function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
