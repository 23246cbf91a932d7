import { partOf, type ShellWord } from "./shell-word.ts";

/** The options of a command that take a value. */
export interface ArgSpec {
  /** Short options that take a value (attached `-n5` or next word `-n 5`). */
  short?: string;
  /** Long options that take a value as the next word (`--name=value` always works). */
  long?: readonly string[];
  /**
   * Long options without a value that callers look for (`recursive`): with `long`, what an
   * abbreviation is resolved against.
   */
  flags?: readonly string[];
  /** Stop at the first operand: the rest (a wrapped command) is returned as operands untouched. */
  stopAtOperand?: boolean;
}

/** A command's arguments split into options and operands. */
export interface ParsedArgs {
  flags: Set<string>;
  values: Map<string, ShellWord[]>;
  operands: ShellWord[];
}

/** An argument that looks like an option; unresolved words never do (they may be operands). */
export function isOption(word: ShellWord): boolean {
  return word.unresolved === undefined && word.text.length > 1 && word.text.startsWith("-");
}

/**
 * The options a long option word stands for. GNU getopt and git take any unambiguous prefix of a
 * long option (`--outp` is `--output`, `--recur` is `--recursive`): a prefix of options the spec
 * knows stands for all of them (the real command would pick one, or fail); any other name for itself.
 */
function longNames(given: string, spec: ArgSpec): readonly string[] {
  const known = [...(spec.long ?? []), ...(spec.flags ?? [])];
  if (given.length === 0 || known.includes(given)) return [given];
  const expanded = known.filter((name) => name.startsWith(given));
  return expanded.length > 0 ? expanded : [given];
}

/**
 * Splits arguments GNU-style: `--` ends options, `--name[=value]` (a known option's abbreviation
 * stands for it, see `longNames`), short clusters (`-rf`) where a value-taking letter takes the
 * rest of the cluster or the next word.
 * Contract: best effort — an unknown option is taken as a flag without a value.
 */
export function parseArgs(args: readonly ShellWord[], spec: ArgSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { flags: new Set(), values: new Map(), operands: [] };
  const setValue = (name: string, value: ShellWord) => {
    parsed.values.set(name, [...(parsed.values.get(name) ?? []), value]);
  };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.text === "--" && word.unresolved === undefined) {
      parsed.operands.push(...args.slice(i + 1));
      break;
    }
    if (!isOption(word)) {
      if (spec.stopAtOperand) {
        parsed.operands.push(...args.slice(i));
        break;
      }
      parsed.operands.push(word);
      continue;
    }
    if (word.text.startsWith("--")) {
      const eq = word.text.indexOf("=");
      const names = longNames(word.text.slice(2, eq === -1 ? undefined : eq), spec);
      if (eq !== -1) for (const name of names) setValue(name, partOf(word, word.text.slice(eq + 1)));
      else if (names.some((name) => spec.long?.includes(name)) && i + 1 < args.length) {
        const value = args[++i]!;
        for (const name of names) setValue(name, value);
      } else for (const name of names) parsed.flags.add(name);
      continue;
    }
    for (let j = 1; j < word.text.length; j += 1) {
      const letter = word.text[j]!;
      if (!spec.short?.includes(letter)) {
        parsed.flags.add(letter);
        continue;
      }
      const rest = word.text.slice(j + 1);
      if (rest.length > 0) setValue(letter, partOf(word, rest));
      else if (i + 1 < args.length) setValue(letter, args[++i]!);
      break;
    }
  }
  return parsed;
}

/** The first value of any of the named options. */
export function optionValue(parsed: ParsedArgs, ...names: string[]): ShellWord | undefined {
  for (const name of names) {
    const value = parsed.values.get(name)?.[0];
    if (value) return value;
  }
  return undefined;
}

/** True when any of the named flags is set. */
export function hasFlag(parsed: ParsedArgs, ...names: string[]): boolean {
  return names.some((n) => parsed.flags.has(n));
}
