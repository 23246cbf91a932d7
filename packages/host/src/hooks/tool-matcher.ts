import { builtinToolParameters } from "@gatehouse/sdk";
import { editDistance } from "../common/edit-distance.ts";

/** A compiled `tools` matcher (`api.on(event, handler, { tools })`): which tools' calls reach a handler. */
export interface ToolMatch {
  matches(toolName: string): boolean;
  /** How `gatehouse extensions` shows it: `write,edit` or `/^(write|edit)$/`. */
  readonly text: string;
  /** The names of a list matcher (none for a RegExp). */
  readonly names?: readonly string[];
}

const BUILTIN_NAMES = Object.keys(builtinToolParameters);

function isRegExp(value: unknown): value is RegExp {
  return Object.prototype.toString.call(value) === "[object RegExp]";
}

/** Why one listed name can never be what the author meant, if so. */
function nameProblem(name: string): string | undefined {
  if (name.length === 0) return "an empty tool name matches no tool";
  if (/[|,\s]/.test(name)) {
    return `"${name}" is one tool name; list several as ["write", "edit"], or pass a RegExp such as /^(write|edit)$/`;
  }
  const builtin = BUILTIN_NAMES.find((b) => b !== name && b.toLowerCase() === name.toLowerCase());
  if (builtin) return `tool names are case-sensitive: "${name}" never matches the built-in "${builtin}"`;
  return undefined;
}

/**
 * Compiles the `tools` option of one registration, or says what is wrong with it.
 * Contract: a matcher that could silently match nothing — an empty list, a non-string entry, a
 * `"Write|Edit"` string, a built-in's name in the wrong case — is refused (returns the reason), so
 * a guard never quietly stops guarding. A RegExp is copied without its `g` and `y` flags, whose
 * `lastIndex` state would make `test` alternate between calls.
 */
export function compileToolMatcher(tools: unknown): ToolMatch | string {
  if (isRegExp(tools)) {
    const pattern = new RegExp(tools.source, tools.flags.replace(/[gy]/g, ""));
    return { matches: (toolName) => pattern.test(toolName), text: String(pattern) };
  }
  if (typeof tools === "string") {
    return `tools is the string ${JSON.stringify(tools)}; list tool names as ["write", "edit"], or pass a RegExp such as /^(write|edit)$/`;
  }
  if (!Array.isArray(tools)) {
    return `tools must be a list of tool names or defineTool handles, or a RegExp, not ${JSON.stringify(tools) ?? typeof tools}`;
  }
  if (tools.length === 0) return "tools is an empty list, so the handler would never run";
  const names = new Set<string>();
  for (const entry of tools) {
    const name =
      typeof entry === "string"
        ? entry
        : entry && typeof entry === "object" && typeof (entry as { name?: unknown }).name === "string"
          ? (entry as { name: string }).name
          : undefined;
    if (name === undefined) {
      return `tools lists ${JSON.stringify(entry) ?? typeof entry}, which is neither a tool name nor a defineTool handle`;
    }
    const problem = nameProblem(name);
    if (problem) return problem;
    names.add(name);
  }
  return { matches: (toolName) => names.has(toolName), text: [...names].join(","), names: [...names] };
}

/** How many edits away a listed name may be from a tool's to count as its typo (ignoring case). */
const TYPO_DISTANCE = 2;

/**
 * Listed names that name none of `known` but come within two edits (ignoring case) of one that
 * does — `["wrte"]` for `write` — each with the name it was probably meant as: a guard whose list
 * holds only such a typo never runs. Names far from every tool may belong to a tool an extension
 * loaded later registers, so they are left alone.
 */
export function nearMissNames(names: readonly string[], known: ReadonlySet<string>): { name: string; near: string }[] {
  const out: { name: string; near: string }[] = [];
  for (const name of names) {
    if (known.has(name)) continue;
    const lower = name.toLowerCase();
    const near = [...known].find((k) => editDistance(lower, k.toLowerCase(), TYPO_DISTANCE) <= TYPO_DISTANCE);
    if (near !== undefined) out.push({ name, near });
  }
  return out;
}
