/** Turns one tool's arguments into what the audit may record; runs on a private copy. */
export type ArgsRedactor = (args: Record<string, unknown>) => unknown;

/** Per tool, the argument fields recorded verbatim; everything else is reduced to names and lengths. */
export type VerbatimFields = Readonly<Record<string, readonly string[]>>;

/** Fields recorded verbatim unless the configuration replaces a tool's list. Patterns may hold secrets: grep's is not here. */
export const DEFAULT_VERBATIM: VerbatimFields = {
  read: ["path", "offset", "limit"],
  write: ["path"],
  edit: ["path", "replaceAll"],
  ls: ["path"],
  find: ["pattern", "path"],
  grep: ["path", "glob"],
  bash: ["timeout"],
  // Other agents' tools, as Gatehouse's agent hooks (`gatehouse hook claude-code|codex`) record them.
  Read: ["file_path", "offset", "limit"],
  Write: ["file_path"],
  Edit: ["file_path", "replace_all"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path", "cell_id", "cell_type", "edit_mode"],
  Glob: ["pattern", "path"],
  Grep: ["path", "glob", "type", "output_mode"],
  LS: ["path"],
  Bash: ["timeout", "run_in_background"],
};

/** Where Claude Code's and Codex's shell tools (every name the agent hooks map) take their command. */
const SHELL_COMMAND = ["command", "cmd"];

/**
 * Fields that are never recorded verbatim, whatever the configuration says (SPEC §7): file contents,
 * edit texts and commands, under every tool name and argument name the agent hooks read them from
 * (Codex's shell tools are `Bash`, `shell`, `exec_command` and `local_shell`, with `command` or `cmd`).
 */
export const NEVER_VERBATIM: VerbatimFields = {
  write: ["content"],
  edit: ["oldText", "newText", "edits"],
  bash: ["command"],
  Write: ["content"],
  Edit: ["old_string", "new_string"],
  MultiEdit: ["edits"],
  NotebookEdit: ["new_source"],
  Bash: SHELL_COMMAND,
  shell: SHELL_COMMAND,
  exec_command: SHELL_COMMAND,
  local_shell: SHELL_COMMAND,
  apply_patch: ["command", "patch", "input"],
};

/** What is recorded instead of the arguments when a custom redactor throws or returns non-JSON. */
export const REDACTION_FAILED = Object.freeze({ redactionFailed: true as const });

const MAX_DEPTH = 8;
const MAX_ITEMS = 100;
const MAX_KEYS = 100;

/**
 * The verbatim lists in effect: the defaults, with each configured tool's list replacing that tool's.
 * Contract: `NEVER_VERBATIM` fields are removed from every list.
 */
export function mergeVerbatim(configured: VerbatimFields = {}): VerbatimFields {
  const merged: Record<string, readonly string[]> = { ...DEFAULT_VERBATIM, ...configured };
  for (const [tool, denied] of Object.entries(NEVER_VERBATIM)) {
    const list = merged[tool];
    if (list) merged[tool] = list.filter((field) => !denied.includes(field));
  }
  return merged;
}

/**
 * Reduces any value to its shape: strings to `{ redacted: true, length }`, numbers and booleans to
 * their type, arrays to their length and redacted items, objects to their keys with redacted values.
 * Contract: no string, number or boolean of the input appears in the output, only key names.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (value === null) return null;
  if (typeof value === "string") return { redacted: true, length: value.length };
  if (typeof value !== "object") return { redacted: true, type: typeof value };
  if (Array.isArray(value)) {
    const items = depth < MAX_DEPTH ? value.slice(0, MAX_ITEMS).map((item) => redactValue(item, depth + 1)) : [];
    return { redacted: true, length: value.length, items };
  }
  const keys = Object.keys(value);
  if (depth >= MAX_DEPTH || keys.length > MAX_KEYS) return { redacted: true, type: "object", keys: keys.length };
  return Object.fromEntries(
    keys.map((key) => [key, redactValue((value as Record<string, unknown>)[key], depth + 1)] as const),
  );
}

/** A verbatim value as JSON will write it; a value JSON cannot hold (e.g. a BigInt from a schema transform) is redacted. */
function asJson(value: unknown): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? redactValue(value, 1) : JSON.parse(json);
  } catch {
    return redactValue(value, 1);
  }
}

function keepVerbatim(args: Record<string, unknown>, verbatim: readonly string[]): unknown {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const value = verbatim.includes(key) ? asJson(args[key]) : redactValue(args[key], 1);
    // "__proto__" must become an own field (as Object.fromEntries makes it), not the prototype.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

function runRedactor(redactor: ArgsRedactor, args: Record<string, unknown>): unknown {
  const out = redactor(structuredClone(args));
  if (out === undefined) return null;
  // Only JSON survives into the record; a value JSON cannot hold counts as a failed redaction.
  return JSON.parse(JSON.stringify(out));
}

/** Options of `createRedactor`. */
export interface RedactorOptions {
  /** The verbatim lists in effect (see `mergeVerbatim`). */
  verbatim: VerbatimFields;
  /** Per-tool redactors; they take precedence over verbatim lists. */
  redactors?: Readonly<Record<string, ArgsRedactor>> | undefined;
  /** Told when a redactor fails, so it can be logged (the record only says `redactionFailed`). */
  onRedactorError?: (tool: string, error: unknown) => void;
}

/**
 * Builds the function that redacts one call's arguments.
 * Contract: a tool's redactor wins; else its verbatim fields are kept as-is and every other field
 * is reduced by `redactValue`; unknown tools keep names and lengths only. A redactor that throws
 * yields `REDACTION_FAILED`, never the raw arguments.
 */
export function createRedactor(options: RedactorOptions): (tool: string, args: unknown) => unknown {
  const redactors = options.redactors ?? {};
  return (tool, args) => {
    const redactor = Object.hasOwn(redactors, tool) ? redactors[tool] : undefined;
    if (args === null || typeof args !== "object" || Array.isArray(args)) return redactValue(args);
    const record = args as Record<string, unknown>;
    if (redactor) {
      try {
        return runRedactor(redactor, record);
      } catch (error) {
        options.onRedactorError?.(tool, error);
        return { ...REDACTION_FAILED };
      }
    }
    const verbatim = Object.hasOwn(options.verbatim, tool) ? options.verbatim[tool] : undefined;
    return verbatim ? keepVerbatim(record, verbatim) : redactValue(record);
  };
}
