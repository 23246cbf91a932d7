/**
 * Whether a hook group's matcher selects a tool, with Claude Code's rules: absent, empty or `*`
 * matches every tool; letters, digits, `_` and `|` only is a list of exact names (`Edit|Write`);
 * anything else is a regular expression (`mcp__github__.*`, `Notebook.*`), matched against the
 * whole name so `Write` never selects `NotebookWrite` by accident.
 * Contract: never throws (settings validation rejects a matcher that is not a regular expression;
 * one that still fails to compile matches every tool, so a hook is never skipped by mistake).
 */
export function matchesTool(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  const names = exactNames(matcher);
  if (names) return names.includes(toolName);
  try {
    return new RegExp(`^(?:${matcher})$`).test(toolName);
  } catch {
    return true;
  }
}

/** The names of a matcher that is a list of exact names (`Edit|Write`), or undefined for a regular expression. */
export function exactNames(matcher: string): string[] | undefined {
  return /^[A-Za-z0-9_|]+$/.test(matcher) ? matcher.split("|") : undefined;
}
