import { findJsonSyntaxError } from "../common/json-syntax-error.ts";

/**
 * Why a session line is not a JSON object, in words that are safe to print: where the JSON stops
 * and what it found there (a control character is named by its code point, never printed).
 * Contract: `text` is one line; the result never contains a control character.
 */
export function corruptLineReason(text: string): string {
  const problem = findJsonSyntaxError(text);
  if (problem === undefined) return "corrupt line (not a JSON object)";
  return `corrupt line (column ${problem.offset + 1}: ${problem.found} — expected ${problem.expected})`;
}

/**
 * How deep a session line may nest arrays and objects. Tool arguments are capped at 256 levels
 * (partial-json.ts, the script loader) and sit 4 levels into a line; the rest is headroom for a
 * tool result's `details`. Deeper lines are refused on reading, before anything recursive (the
 * tree view, the model request) can run out of stack on them.
 */
export const MAX_LINE_DEPTH = 1024;

/** Why a line nested deeper than MAX_LINE_DEPTH is refused; `offset` is where it goes too deep. */
export function tooDeepReason(offset: number): string {
  return `corrupt line (column ${offset + 1}: arrays and objects nested deeper than ${MAX_LINE_DEPTH}, far more than any entry Gatehouse writes)`;
}
