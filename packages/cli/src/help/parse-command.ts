import { parseArgs } from "node:util";
import { closest } from "./closest.ts";
import { type CommandSpec, type FlagSpecs, type FlagValues, HELP_FLAG } from "./command-spec.ts";
import { UsageError } from "./usage-error.ts";
import { usageLine } from "./usage-line.ts";

/** What `parseCommand` returns. */
export interface ParsedCommand<F extends FlagSpecs> {
  values: FlagValues<F>;
  positionals: string[];
  /** `--help` or `-h` was given (main answers it before a command runs). */
  help: boolean;
}

type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/** A UsageError that ends with the command's usage and where to find more. */
export function usageError(spec: CommandSpec, message: string): UsageError {
  return new UsageError(`${message}\nusage: ${usageLine(spec)}\n(gatehouse ${spec.name} --help shows every option)`);
}

function flagName(token: Extract<Token, { kind: "option" }>, spec: CommandSpec): string | undefined {
  if (token.name === "help") return "help";
  if (Object.hasOwn(spec.flags, token.name)) return token.name;
  return undefined;
}

function unknownFlag(spec: CommandSpec, raw: string): UsageError {
  const names = Object.keys(spec.flags);
  const bare = raw.replace(/^-+/, "").split("=")[0] ?? "";
  const guess = closest(bare, [...names, "help"]);
  const hint = guess ? `; did you mean --${guess}?` : "";
  return usageError(spec, `unknown option ${raw.split("=")[0]} for "gatehouse ${spec.name}"${hint}`);
}

/** `--resume` followed by nothing or by another flag gets an explicit empty value. */
function withOptionalValues(args: readonly string[], spec: CommandSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return [...out, ...args.slice(i)];
    const name = arg.startsWith("--") ? arg.slice(2) : undefined;
    const flag = name !== undefined && Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    const next = args[i + 1];
    out.push(flag?.optionalValue && (next === undefined || next.startsWith("-")) ? `${arg}=` : arg);
  }
  return out;
}

/**
 * Parses one command's arguments against its spec (node:util parseArgs, then the checks it leaves
 * to us, with messages that say what to type).
 * Contract: an unknown flag names the closest valid one; a string flag without a value, a boolean
 * flag given a value, an empty value or positional argument (but an optional value's or a variadic
 * one's), and more positional arguments than the spec takes are UsageErrors; a string
 * flag's value may start with "-" unless it is itself one of the command's flags. The last of a
 * repeated flag wins. Everything after `--` is positional.
 */
export function parseCommand<F extends FlagSpecs>(spec: CommandSpec<F>, args: readonly string[]): ParsedCommand<F> {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
    help: { type: "boolean", short: HELP_FLAG.short as string },
  };
  for (const [name, flag] of Object.entries(spec.flags)) {
    options[name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}) };
  }
  const { tokens } = parseArgs({
    args: withOptionalValues(args, spec),
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, flag] of Object.entries(spec.flags)) values[name] = flag.type === "boolean" ? false : undefined;
  const positionals: string[] = [];
  let help = false;
  for (const token of tokens ?? []) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const name = flagName(token, spec);
    if (name === undefined) throw unknownFlag(spec, token.rawName);
    if (name === "help") {
      help = true;
      continue;
    }
    const flag = spec.flags[name] as F[string];
    if (flag.type === "boolean") {
      if (token.value !== undefined) throw usageError(spec, `${token.rawName} takes no value (got "${token.value}")`);
      values[name] = true;
      continue;
    }
    const value = token.value;
    const stolen = !token.inlineValue && value !== undefined && /^--?[^-]/.test(value) && isFlag(spec, value);
    if (value === undefined || stolen) {
      throw usageError(spec, `${token.rawName} needs a value: ${token.rawName} ${flag.value ?? "VALUE"}`);
    }
    // An empty value is a variable that expanded to nothing (`--cwd "$DIR"`), never a choice: taken
    // as given, `--cwd ""` meant the current directory (`gatehouse trust` trusted it) and
    // `--command ""` installed a hook that cannot start.
    if (value === "" && !flag.optionalValue) {
      throw usageError(spec, `${token.rawName} is empty: ${token.rawName} ${flag.value ?? "VALUE"} needs a value`);
    }
    values[name] = value;
  }
  if (!help) checkPositionals(spec, positionals);
  return { values: values as FlagValues<F>, positionals, help };
}

function isFlag(spec: CommandSpec, arg: string): boolean {
  const name = arg.replace(/^-+/, "").split("=")[0] ?? "";
  if (arg.startsWith("--")) return name === "help" || Object.hasOwn(spec.flags, name);
  return name === "h" || Object.values(spec.flags).some((f) => f.short === name);
}

function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const declared = spec.positionals ?? [];
  const empty = positionals.findIndex((p, i) => p === "" && !declared[Math.min(i, declared.length - 1)]?.variadic);
  const named = declared[empty];
  if (named) throw usageError(spec, `${named.name} is empty: give a value or leave it out`);
  if (declared.some((p) => p.variadic) || positionals.length <= declared.length) return;
  const extra = positionals[declared.length] as string;
  const what = declared.length === 0 ? "takes no arguments" : `takes at most ${declared.length}`;
  throw usageError(spec, `unexpected argument "${extra}": gatehouse ${spec.name} ${what}`);
}
