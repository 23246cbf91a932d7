/**
 * The meaningful argument of a call, for its call line: `playground/x.txt`, `src/a.ts:10-40`,
 * `sleep 0.2; echo A`, `/TODO/ in src (*.ts)`. Redacted like the audit: file contents never
 * appear (only the fields that name what a call acts on), and every secret shape the audit's
 * scrubber knows is replaced by `[REDACTED:<shape>]`.
 */
import { scrubSecrets } from "@gatehouse/tool-audit";
import { oneLine } from "./ansi.ts";

type Args = Record<string, unknown>;
type Summarize = (args: Args) => string | undefined;

/** Longest summary kept before width truncation, so a huge command costs nothing to render. */
const MAX_SUMMARY = 400;

/** A string shown inline in a generic summary longer than this is shown as its length instead. */
const MAX_INLINE_VALUE = 40;

/** Fields that hold file contents or patches: shown as lengths whatever their size. */
const LARGE_TEXT_KEYS = new Set(["content", "newText", "oldText", "data", "patch", "diff", "body", "edits"]);

/**
 * Field names whose values are credentials whatever their shape (the names the audit's scrubber
 * treats as secret in `NAME=value`, plus cookies): never shown, not even as a length.
 */
const SECRET_KEY =
  /(secrets?|tokens?|passw(or)?d|passphrase|api[-_]?key|access[-_]?key([-_]?id)?|private[-_]?key|credentials?|session[-_]?id|auth|authorization|cookies?)$/i;

/**
 * Characters of one argument looked at: a huge command is cut before it is sanitized or scrubbed
 * (long enough that a secret starting inside the shown part is still whole when scrubbed).
 */
const MAX_INPUT = MAX_SUMMARY * 5;

const str = (value: unknown): string | undefined =>
  typeof value === "string" ? oneLine(value.slice(0, MAX_INPUT)) : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const chars = (text: string): string => `${text.length} ${text.length === 1 ? "char" : "chars"}`;

function lineRange(offset: number | undefined, limit: number | undefined): string {
  if (offset === undefined && limit === undefined) return "";
  const start = offset ?? 1;
  return limit === undefined || limit < 1 ? `:${start}-` : `:${start}-${start + limit - 1}`;
}

const within = (path: string | undefined): string => (path ? ` in ${path}` : "");

/** Summaries of the built-in tools; `undefined` means "not the expected shape": use the fallback. */
const BUILT_INS = new Map<string, Summarize>(
  Object.entries({
    read: (a) => {
      const path = str(a.path);
      return path === undefined ? undefined : `${path}${lineRange(num(a.offset), num(a.limit))}`;
    },
    write: (a) => (typeof a.content === "string" ? str(a.path) : undefined),
    edit: (a) => str(a.path),
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
  if (SECRET_KEY.test(key)) return "[REDACTED:assignment]";
  if (typeof value === "string") {
    if (LARGE_TEXT_KEYS.has(key) || value.length > MAX_INLINE_VALUE) return `<${chars(value)}>`;
    const text = oneLine(value.slice(0, MAX_INPUT));
    return /\s|^$/.test(text) ? JSON.stringify(text) : text;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  return value === undefined ? "undefined" : "{…}";
}

/**
 * The fallback for custom tools: a lone string field shows as its value, anything else as
 * `key=value` pairs, with large strings, arrays and objects reduced to sizes, and credential-named
 * fields (`password`, `apiKey`, `accessToken`…) redacted whatever their value, even a lone one.
 */
export function formatGenericArgs(args: Args): string {
  const entries = Object.entries(args);
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only && typeof only[1] === "string" && !LARGE_TEXT_KEYS.has(only[0]) && !SECRET_KEY.test(only[0]))
    return oneLine(only[1].slice(0, MAX_INPUT));
  return entries
    .slice(0, 20)
    .map(([key, value]) => `${oneLine(key.slice(0, 100))}=${inlineValue(key, value)}`)
    .join(" ");
}

/**
 * The meaningful argument of one call, without the tool name.
 * Contract: one line, no control characters, at most `MAX_SUMMARY` characters, secret shapes
 * scrubbed (before the cut, so a cut never leaves half a secret unrecognised); the values of
 * `content`, `oldText`, `newText` and other large-text fields never appear.
 */
export function formatArgs(options: { toolName: string; args: unknown }): string {
  const args: Args =
    typeof options.args === "object" && options.args !== null && !Array.isArray(options.args)
      ? (options.args as Args)
      : {};
  const summary = BUILT_INS.get(options.toolName)?.(args) ?? formatGenericArgs(args);
  return capLength(scrubSecrets(summary), MAX_SUMMARY);
}

/** Cuts `text` to `max` UTF-16 units with `…`, never splitting a surrogate pair. */
function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
