import type { ShellWord } from "./shell-word.ts";
import type { CommandExtractor } from "./target-spec.ts";
import { recursiveSearch } from "./unconfined-commands.ts";

/** What a command does with its words: one entry per target, search root and command it runs. */
function roles(name: string, extract: CommandExtractor, args: readonly ShellWord[]): Map<string, number> {
  const effects = extract(args);
  const out = new Map<string, number>();
  const add = (key: string) => out.set(key, (out.get(key) ?? 0) + 1);
  for (const t of effects.targets) {
    add(`${t.access} ${t.via} ${t.recursive === true} ${t.creates === true} ${t.into !== undefined}\0${t.word.raw}`);
  }
  for (const root of recursiveSearch(name, args)?.roots ?? []) add(`search root\0${root.raw}`);
  // The commands it runs are analysed on their own; only how many there are counts here.
  if (effects.commands?.length) add(`runs ${effects.commands.length}`);
  return out;
}

/** True when `doubled` is `single` with every entry of `word` counted twice. */
function sameRolesTwice(single: Map<string, number>, doubled: Map<string, number>, word: ShellWord): boolean {
  const expected = new Map(single);
  for (const [key, count] of single) if (key.endsWith(`\0${word.raw}`)) expected.set(key, count * 2);
  if (expected.size !== doubled.size) return false;
  for (const [key, count] of expected) if (doubled.get(key) !== count) return false;
  return true;
}

/**
 * The first glob among `args` whose names would not all play the role the glob plays as one word.
 * Bash expands a glob into as many words as it matches before the command parses its arguments, so
 * a glob where the pattern goes (`grep .e* f`), in the last place of `cp`, as `uniq`'s input or
 * as an option's value (`sort -o x*`) hands a name another role: a file read, a destination, an
 * output. Checked by parsing the arguments again with the glob given twice: every role it had must
 * simply double, and no other word's role may change.
 * Contract: words the analysis cannot resolve are left to the unresolved-word checks.
 */
export function roleShiftingGlob(
  name: string,
  extract: CommandExtractor,
  args: readonly ShellWord[],
): ShellWord | undefined {
  let single: Map<string, number> | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (word.glob === undefined || word.unresolved !== undefined) continue;
    single ??= roles(name, extract, args);
    const doubled = roles(name, extract, [...args.slice(0, i + 1), word, ...args.slice(i + 1)]);
    if (!sameRolesTwice(single, doubled, word)) return word;
  }
  return undefined;
}

/**
 * The first glob among `args` that `matchesNothing` and whose absence would change what the
 * command does with its other words: under the shell's `nullglob` option (which an agent's shell
 * may carry over from the user's) a glob that matches nothing vanishes before the command parses
 * its arguments, so `grep -r x none*` searches its default `.` and the word after a vanished
 * pattern becomes the pattern. Checked by parsing the arguments again without it: every other
 * word must keep its role, and no default (a search root) may appear.
 */
export function vanishingGlob(
  name: string,
  extract: CommandExtractor,
  args: readonly ShellWord[],
  matchesNothing: (word: ShellWord) => boolean,
): ShellWord | undefined {
  let single: Map<string, number> | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (word.glob === undefined || word.unresolved !== undefined || !matchesNothing(word)) continue;
    single ??= roles(name, extract, args);
    const expected = new Map([...single].filter(([key]) => !key.endsWith(`\0${word.raw}`)));
    const without = roles(name, extract, [...args.slice(0, i), ...args.slice(i + 1)]);
    if (expected.size !== without.size || [...expected].some(([key, count]) => without.get(key) !== count)) {
      return word;
    }
  }
  return undefined;
}
