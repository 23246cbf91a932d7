import type { ShellWord } from "./shell-word.ts";

const PATTERN_SPECIAL = /[*?[\]\\{}()!+@]/g;

/**
 * A word with zsh's extended-glob characters (`.^x`, `.envv#`, `.env~x`) as a glob that matches at
 * least what zsh with EXTENDED_GLOB would match: the text before the first such character, then
 * `*` (before a `#`, the character it repeats may occur zero times, so that one is left out too).
 * `undefined` when no such bound is known: the character sits in a folder of the path, the word
 * also holds an ordinary glob, or a `#` follows a bracket or group.
 * Contract: only for words with `zshPattern`; the text is kept (without the option zsh takes it literally).
 */
export function widenZshPattern(word: ShellWord): ShellWord | undefined {
  const at = word.zshPattern;
  if (at === undefined) return word;
  if (word.glob !== undefined || word.text.slice(at).includes("/")) return undefined;
  let prefix = word.text.slice(0, at);
  if (word.text[at] === "#") {
    if (/[\])]$/.test(prefix)) return undefined;
    prefix = prefix.slice(0, -1);
  }
  return { ...word, glob: `${prefix.replace(PATTERN_SPECIAL, (c) => `\\${c}`)}*` };
}
