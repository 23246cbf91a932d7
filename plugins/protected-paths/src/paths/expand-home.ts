import path from "node:path";

/**
 * Turns a path as a tool receives it into an absolute path WITHOUT normalising it, exactly like
 * the built-ins do: `~` and `~/x` mean the home directory, anything else not absolute is relative
 * to `cwd`. Keeping `..` and `//` lets the resolver follow them the way the kernel would.
 * Contract: the result is absolute; `~user` is not expanded (the built-ins do not either).
 */
export function joinRaw(input: string, options: { cwd: string; home: string; expandHome: boolean }): string {
  if (options.expandHome && input === "~") return options.home;
  if (options.expandHome && input.startsWith("~/")) return `${options.home}/${input.slice(2)}`;
  if (path.isAbsolute(input)) return input;
  return `${options.cwd}/${input}`;
}
