import path from "node:path";
import { showPath } from "../paths/path-text.ts";
import { type CwdState, CwdTracker } from "./cwd-tracker.ts";
import { findEffects } from "./find-command.ts";
import { perlEffects, sedEffects } from "./in-place-editors.ts";
import { parseArgs } from "./parse-args.ts";
import { READ_COMMANDS } from "./read-commands.ts";
import type { ShellToken, ShellWord } from "./shell-word.ts";
import { redirectTargets, type SimpleCommand, splitCommands } from "./simple-commands.ts";
import type { CommandExtractor, TargetSpec } from "./target-spec.ts";
import { tokenizeShell } from "./tokenize.ts";
import { SHELLS, shellScript, WRAPPERS } from "./wrappers.ts";
import { WRITE_COMMANDS } from "./write-commands.ts";

/** A path the command touches, with the directories it may be relative to. */
export type BashTarget = TargetSpec & { kind: "target"; cwd: CwdState };

/** Something that keeps the command from being analysed at all. */
export interface BashProblem {
  kind: "problem";
  rule: "bash unparseable" | "bash unresolved command";
  /** The rest of the reason, e.g. "it could not be parsed (a single quote is not closed)". */
  why: string;
}

/** What the analysis found, in command order. */
export type BashFinding = BashTarget | BashProblem;

const MAX_NESTING = 6;
/** Reserved words that may precede a command. */
const RESERVED = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"]);
/** Heads of compound commands whose words are not a command (`for x in ...`, `[[ ... ]]`). */
const COMPOUND_HEADS = new Set(["for", "select", "case", "[[", "function", "(("]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

const COMMANDS: Readonly<Record<string, CommandExtractor>> = {
  ...READ_COMMANDS,
  ...WRITE_COMMANDS,
  sed: sedEffects,
  perl: perlEffects,
  find: findEffects,
};

class Analysis {
  readonly findings: BashFinding[] = [];
  readonly tracker: CwdTracker;

  constructor(
    cwd: string,
    readonly home: string,
  ) {
    this.tracker = new CwdTracker(cwd, home);
  }

  source(src: string, depth: number): void {
    if (depth > MAX_NESTING) {
      this.#problem("bash unparseable", "it nests shells too deeply to be analysed");
      return;
    }
    const tokenized = tokenizeShell(src, { home: this.home });
    if (tokenized.ok) for (const tokens of [tokenized.tokens, ...tokenized.nested]) this.#tokens(tokens, depth);
    else this.#unparseable(tokenized.problem);
  }

  #tokens(tokens: readonly ShellToken[], depth: number): void {
    const split = splitCommands(tokens);
    if (split.ok) for (const command of split.commands) this.#simple(command, depth);
    else this.#unparseable(split.problem);
  }

  #simple(command: SimpleCommand, depth: number): void {
    for (const redirect of command.redirects) for (const spec of redirectTargets(redirect)) this.#target(spec, false);
    const words = [...command.words];
    const literal = (w: ShellWord | undefined) => w !== undefined && w.raw === w.text;
    while (words[0] && ((literal(words[0]) && RESERVED.has(words[0].text)) || ASSIGNMENT.test(words[0].raw))) {
      words.shift();
    }
    if (literal(words[0]) && COMPOUND_HEADS.has(words[0]!.text)) return;
    this.#run(words, depth, false);
  }

  #run(words: readonly ShellWord[], depth: number, recursive: boolean): void {
    const [first, ...args] = words;
    if (!first) return;
    if (first.unresolved !== undefined || first.glob !== undefined) {
      const what = first.unresolved ?? "glob pattern";
      this.#problem(
        "bash unresolved command",
        `its command name ${showPath(first.raw)} depends on a ${what}, so what it runs cannot be checked; spell the command name literally`,
      );
      return;
    }
    const name = path.basename(first.text);
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      const inner = wrapper(args);
      if (inner && "problem" in inner) this.#problem("bash unresolved command", inner.problem);
      else if (inner) this.#run(inner.words, depth, recursive);
      return;
    }
    if (SHELLS.has(name) || name === "eval") this.#script(name, args, depth);
    else if (name === "cd" || name === "pushd") this.tracker.cd(parseArgs(args).operands[0]);
    else this.#extract(name, args, depth, recursive);
  }

  #extract(name: string, args: readonly ShellWord[], depth: number, recursive: boolean): void {
    const extract = COMMANDS[name];
    if (!extract) return;
    const effects = extract(args);
    for (const spec of effects.targets) this.#target(spec, recursive);
    for (const inner of effects.commands ?? []) this.#run(inner, depth, true);
  }

  /** `bash -c SCRIPT` and `eval ARGS...`: the script is analysed like the outer command. */
  #script(name: string, args: readonly ShellWord[], depth: number): void {
    const script = name === "eval" ? args : [shellScript(args)].filter((w) => w !== undefined);
    const unknown = script.find((w) => w.unresolved !== undefined);
    if (unknown) {
      const why = `the script it passes to ${name} depends on a ${unknown.unresolved}, so what it runs cannot be checked`;
      this.#problem("bash unresolved command", why);
    } else if (script.length > 0) this.source(script.map((w) => w.text).join(" "), depth + 1);
  }

  #target(spec: TargetSpec, recursive: boolean): void {
    const inherited = recursive && spec.access === "write";
    this.findings.push({
      ...spec,
      recursive: spec.recursive === true || inherited,
      kind: "target",
      cwd: this.tracker.snapshot(),
    });
  }

  #unparseable(problem: string): void {
    const why = `it could not be parsed (${problem}), so what it writes cannot be checked; fix the command`;
    this.#problem("bash unparseable", why);
  }

  #problem(rule: BashProblem["rule"], why: string): void {
    this.findings.push({ kind: "problem", rule, why });
  }
}

/**
 * Finds the paths a shell command line reads and writes: redirections, the commands of
 * `WRITE_COMMANDS`/`READ_COMMANDS`, sed/perl in place, find, through wrappers (sudo, env, xargs...),
 * `bash -c`, `eval`, `$(...)` and `cd`.
 * Contract: best effort, never throws. Unparseable input and command names that depend on run-time
 * values are reported as problems; targets keep their unresolved words for the checker to refuse.
 */
export function analyzeBash(command: string, options: { cwd: string; home: string }): BashFinding[] {
  const analysis = new Analysis(options.cwd, options.home);
  analysis.source(command, 0);
  return analysis.findings;
}
