import { ShellSyntaxError } from "./shell-word.ts";

/**
 * Bash reads some text as one piece in which `<`, `(`, `;`, spaces and newlines are no operators:
 * arithmetic (`((…))`, `$((…))`, `$[…]`), an assignment's array subscript (`a[1<<2]=x`) and the
 * `(…)` of an extended glob or a `[[ =~ ]]` regular expression. Read as shell words instead, a
 * `<<` there starts a here-document that hides the lines bash runs next (`for ((i=0; i<<1; i++))`),
 * and `((cat .env) )` — which bash reads as two subshells — hides its commands as arithmetic.
 * These helpers find where such a piece ends the way bash does, or refuse it where that is not
 * certain (quotes and backslashes, which bash honours while it matches brackets).
 */

/** Characters that would end a word or start a quote: a span holding one is not a plain word. */
const NOT_PLAIN = /[\s;&|()<>'"\\`]/;

/**
 * The index of the `close` that matches the `open` at `start`, counting nested pairs, or -1 when
 * the text ends first. Quotes are not interpreted: callers refuse spans that hold them.
 */
function matchingClose(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === open) depth += 1;
    else if (text[i] === close) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * How bash reads the `((` at `start` (a command's, or the one of `$((`): arithmetic when the `(` at
 * `start + 1` closes right before the `)` that closes `start` — then the index after that `))` —
 * and otherwise (`((cat .env) )`, `$((cat .env) )`) a subshell or command substitution whose body
 * starts with `(`: `undefined`.
 * Contract: throws ShellSyntaxError when the span is not closed or holds quotes or backslashes.
 */
export function arithmeticEnd(text: string, start: number): number | undefined {
  const outer = matchingClose(text, start, "(", ")");
  if (outer === -1) throw new ShellSyntaxError("a (( is not closed");
  if (/['"\\]/.test(text.slice(start, outer))) {
    throw new ShellSyntaxError("quotes or backslashes inside (( … )) are not analysed");
  }
  return matchingClose(text, start + 1, "(", ")") === outer - 1 ? outer + 1 : undefined;
}

/**
 * The index after the `]` that closes the `$[` arithmetic whose `[` is at `start`.
 * Contract: throws ShellSyntaxError when it is not closed or holds quotes or backslashes.
 */
export function bracketArithmeticEnd(text: string, start: number): number {
  const close = matchingClose(text, start, "[", "]");
  if (close === -1) throw new ShellSyntaxError("a $[ arithmetic expansion is not closed");
  if (/['"\\]/.test(text.slice(start, close))) {
    throw new ShellSyntaxError("quotes or backslashes inside $[ … ] are not analysed");
  }
  return close + 1;
}

/**
 * Refuses an array subscript opened at `start` (`a[`, or `[` starting a word of `a=(…)`) that holds,
 * before its `]`, what would end a shell word or quote one: in an assignment bash reads the
 * subscript whole (`a[1<<2]=x`, `a=([1<<2]=x)`), elsewhere as words; which one cannot be told here.
 * Contract: throws ShellSyntaxError; returns normally for a plain subscript (`a[1]`, `a[$i]`).
 */
export function checkSubscript(text: string, start: number): void {
  const close = matchingClose(text, start, "[", "]");
  const span = text.slice(start, close === -1 ? text.length : close + 1);
  if (NOT_PLAIN.test(span)) {
    throw new ShellSyntaxError("an array subscript holding spaces, quotes or shell operators is not analysed");
  }
}

/**
 * Refuses an extended glob (`@(…)`, `!(…)`, `*(…)`, `+(…)`, `?(…)`) at `start`: with `extglob` on
 * (always inside `[[ ]]`, and in shells whose start-up files enable it) bash reads it as one
 * pattern word, `<<` and all, and `!(x)` as a glob that names the command; without it, as
 * operators and a subshell.
 * Contract: throws ShellSyntaxError when `text[start]` opens one.
 */
export function checkExtendedGlob(text: string, start: number): void {
  if ("@!*+?".includes(text[start] ?? "") && text[start + 1] === "(") {
    throw new ShellSyntaxError(
      `${text.slice(start, start + 2)}…) is an extended glob or an operator depending on bash's extglob option, which is not analysed`,
    );
  }
}

/**
 * Refuses the regular expression after a `[[ … =~` (starting at `start`) when it holds `(` or `|`
 * before it ends: bash reads them, and whatever a `(…)` holds, as part of the pattern.
 * Contract: throws ShellSyntaxError.
 */
export function checkRegexOperand(text: string, start: number): void {
  let i = start;
  while (text[i] === " " || text[i] === "\t") i += 1;
  for (; i < text.length && !/[\s;&<>]/.test(text[i]!); i += 1) {
    if (text[i] === "(" || text[i] === "|") {
      throw new ShellSyntaxError("a [[ =~ regular expression holding ( or | is not analysed");
    }
  }
}
