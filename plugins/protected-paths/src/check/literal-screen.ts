import { type DenyRule, escapeRegExp, type MatchView } from "../rules/deny-rule.ts";

/**
 * One pass over a spelling for a whole rule list: whether any rule's required text (`DenyRule.
 * required`) occurs in it. Most paths an agent touches (`src/app.ts`) hold none of the defaults'
 * texts (`.env`, `.ssh`, `id_rsa`, …), and then only the rules without one need looking at.
 */
export interface LiteralScreen {
  /** Positions (ascending) of the rules that declare no required text: they are always tried. */
  readonly open: readonly number[];
  /** False when no rule's required text occurs in any spelling of the view: only `open` can match. */
  mayMatch(view: MatchView): boolean;
}

/**
 * The test `containsTest` of deny-rule.ts makes per rule, made once for many literals: an
 * alternation of each literal's NFC and NFD forms, matched against the spelling and its NFD form;
 * with `i` and `iu` flags when folding (minimatch's `nocase` and JavaScript's two case rules).
 */
function anyOf(literals: readonly string[], folding: boolean): ((text: string) => boolean) | undefined {
  if (literals.length === 0) return undefined;
  const forms = [...new Set(literals.flatMap((l) => [l.normalize("NFC"), l.normalize("NFD")]))];
  const source = forms.map(escapeRegExp).join("|");
  if (!folding) {
    const plain = new RegExp(source);
    return (text) => plain.test(text);
  }
  const plain = new RegExp(source, "i");
  const unicode = new RegExp(source, "iu");
  return (text) => plain.test(text) || unicode.test(text);
}

function build(rules: readonly DenyRule[]): LiteralScreen {
  const open: number[] = [];
  const byFolding: [string[], string[]] = [[], []];
  rules.forEach((rule, i) => {
    if (rule.required === undefined) open.push(i);
    else byFolding[rule.required.folding ? 1 : 0].push(rule.required.literal);
  });
  const tests = [anyOf(byFolding[0], false), anyOf(byFolding[1], true)].filter((t) => t !== undefined);
  const contains = (spelling: string): boolean => {
    for (const test of tests) if (test(spelling)) return true;
    const nfd = spelling.normalize("NFD");
    if (nfd === spelling) return false;
    for (const test of tests) if (test(nfd)) return true;
    return false;
  };
  return {
    open,
    mayMatch(view) {
      if (contains(view.absolute)) return true;
      for (const relative of view.relatives) if (contains(relative)) return true;
      return false;
    },
  };
}

const screens = new WeakMap<readonly DenyRule[], { length: number; screen: LiteralScreen }>();

/**
 * The screen of a rule list, built at its first use and kept with the list (rebuilt if the list
 * has grown since: a policy appends its link-alias rules after compiling the others).
 * Contract: for every view, `!mayMatch(view)` implies that no rule outside `open` matches it
 * (`matches` or `matchesRoot`).
 */
export function literalScreen(rules: readonly DenyRule[]): LiteralScreen {
  const known = screens.get(rules);
  if (known && known.length === rules.length) return known.screen;
  const screen = build(rules);
  screens.set(rules, { length: rules.length, screen });
  return screen;
}

/**
 * Gives `list`, the concatenation of `parts` in order, the screen made of its parts' screens (each
 * built at its part's first use and kept with that part), so a list rebuilt from mostly the same
 * parts builds only the new parts' screens.
 * Contract: afterwards `literalScreen(list)` answers as `build(list)` would: `open` holds the
 * positions in `list` of every part's open rules, and `mayMatch` is true when any part's is.
 */
export function composeScreen(list: readonly DenyRule[], parts: readonly (readonly DenyRule[])[]): void {
  const made: LiteralScreen[] = [];
  const open: number[] = [];
  let start = 0;
  for (const part of parts) {
    if (part.length === 0) continue;
    const screen = literalScreen(part);
    made.push(screen);
    for (const i of screen.open) open.push(start + i);
    start += part.length;
  }
  if (start !== list.length) throw new Error(`composeScreen: the parts hold ${start} rules, the list ${list.length}`);
  const screen: LiteralScreen = {
    open,
    mayMatch(view) {
      for (const part of made) if (part.mayMatch(view)) return true;
      return false;
    },
  };
  screens.set(list, { length: list.length, screen });
}
