import type { CommandSpec, FlagSpec } from "./command-spec.ts";

/** `--script FILE`, `--resume [ID]`, `--json`. */
export function flagSyntax(name: string, flag: FlagSpec): string {
  if (flag.type === "boolean") return `--${name}`;
  const value = flag.value ?? "VALUE";
  return flag.optionalValue ? `--${name} [${value}]` : `--${name} ${value}`;
}

function positional(p: { name: string; variadic?: boolean; required?: boolean }): string {
  const name = p.variadic ? `${p.name}...` : p.name;
  return p.required ? name : `[${name}]`;
}

/**
 * The one-line synopsis: `gatehouse tools [--cwd DIR] [--json] [--trust]`; a group lists its
 * subcommands (`gatehouse audit verify|tail|stats ...`).
 */
export function usageLine(spec: CommandSpec): string {
  if (spec.subcommands) return `gatehouse ${spec.name} ${Object.keys(spec.subcommands).join("|")} [options]`;
  const parts = [`gatehouse ${spec.name}`, ...(spec.positionals ?? []).map(positional)];
  for (const [name, flag] of Object.entries(spec.flags)) parts.push(`[${flagSyntax(name, flag)}]`);
  return parts.join(" ");
}
