import path from "node:path";
import { matchingNames } from "../check/glob-budget.ts";
import { showPath } from "../paths/path-text.ts";
import { optionProblem } from "./allowed-options.ts";
import { type CwdState, CwdTracker } from "./cwd-tracker.ts";
import { findEffects } from "./find-command.ts";
import { roleShiftingGlob, vanishingGlob } from "./glob-roles.ts";
import { perlEffects, sedEffects } from "./in-place-editors.ts";
import { type Access, type LineDescriptors, lineDescriptors } from "./line-descriptors.ts";
import { parseArgs } from "./parse-args.ts";
import { READ_COMMANDS } from "./read-commands.ts";
import type { ShellToken, ShellWord } from "./shell-word.ts";
import { type Redirection, redirectTargets, type SimpleCommand, splitCommands } from "./simple-commands.ts";
import type { CommandExtractor, TargetSpec } from "./target-spec.ts";
import { tokenizeShell } from "./tokenize.ts";
import {
  isInert,
  recursiveSearch,
  riskyAssignedArgument,
  riskyAssignment,
  riskyName,
  UNCONFINED_READS,
  unconfinedProblem,
} from "./unconfined-commands.ts";
import { SHELLS, shellScript, WRAPPERS } from "./wrappers.ts";
import { WRITE_COMMANDS } from "./write-commands.ts";

/** A path the command touches, with the directories it may be relative to. */
export type BashTarget = TargetSpec & {
  kind: "target";
  cwd: CwdState;
  /** What the line's redirections open, for a descriptor path (`/dev/stdout`) to reopen. */
  descriptors: LineDescriptors;
  /** Which command of the line it belongs to (a command's redirections count as one of their own). */
  command: number;
};

/** Something that keeps the command from being analysed at all. */
export interface BashProblem {
  kind: "problem";
  rule: "bash unparseable" | "bash unresolved command" | "bash unconfined";
  /** The rest of the reason, e.g. "it could not be parsed (a single quote is not closed)". */
  why: string;
}

/** What the analysis found, in command order. */
export type BashFinding = BashTarget | BashProblem;

const MAX_NESTING = 6;
/** Shells (and `eval`, which the running bash reads) that take `((…))` as an arithmetic command. */
const ARITHMETIC_SHELLS = new Set(["bash", "eval", "zsh", "ksh", "mksh"]);
/** Reserved words that may precede a command. */
const RESERVED = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"]);
/** Heads of compound commands whose words are not a command (`for x in ...`, `[[ ... ]]`). */
const COMPOUND_HEADS = new Set(["for", "select", "case", "[[", "function", "(("]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
/**
 * Arithmetic (`$((`, `$[`, `${a[…]}`, `${x:y}`), indirection (`${!x}`), assignment
 * (`${CDPATH:=…}`, `${X=…}`, which set a variable as they expand), transformations (`${x@P}`
 * expands the value as a prompt, running its `$(…)`) and `$"…"` (translated through a message
 * catalogue the line may have written, then expanded) in a word or a here-document.
 */
const HIDDEN_CODE =
  /\$\(\(|\$\[|\$\{[^}]*\[|\$\{!|\$\{[^}:]*:[^-=?+}]|\$\{[A-Za-z_][A-Za-z0-9_]*:?=|\$\{[^}]*@[A-Za-z]|\$"/;
/** `name[…]` with a subscript other than a plain number: bash evaluates it as arithmetic. */
const EVALUATED_SUBSCRIPT = /[A-Za-z_][A-Za-z0-9_]*\[(?!\s*\d+\s*\])[^\]]*\]/;

/** An assignment to `name[…]=` whose subscript bash evaluates as arithmetic (see EVALUATED_SUBSCRIPT). */
function subscriptProblem(raw: string): string | undefined {
  const name = /^[A-Za-z_][A-Za-z0-9_]*\[[^\]]*\]/.exec(raw)?.[0];
  if (name === undefined || !EVALUATED_SUBSCRIPT.test(name)) return undefined;
  return `${name} evaluates its subscript as arithmetic, which can run commands hidden in variables`;
}

/**
 * `a=(…)` evaluates every `[…]=` subscript of an indexed array as arithmetic, which runs what a
 * variable named there holds (`x='b[$(…)]'; a=([x]=1)`); in zsh `path=(…)` sets PATH.
 */
function arrayAssignmentProblem(word: ShellWord): string | undefined {
  if (word.unresolved !== "array assignment") return undefined;
  return `${word.raw} assigns an array, whose subscripts bash evaluates as arithmetic, which can run commands hidden in variables`;
}

/** Shell options a nested shell may be started with: the ones that change no expansion. */
const SAFE_SHELL_OPTIONS = new Set(["errexit", "nounset", "pipefail", "xtrace", "verbose"]);

/** Long options of bash that change nothing the analysis relies on. */
const SAFE_SHELL_LONG = new Set(["--noprofile", "--norc", "--login"]);

/**
 * Why a nested shell reads its script otherwise than the analysis: another shell than bash (sh,
 * dash, zsh expand words by their own rules: `NAME=~` keeps its tilde), or options before the
 * script other than -c, -e, -u, -x, -v, -l and `-o` of a safe option (`-k` moves `NAME=value`
 * arguments into the environment, `--posix` changes expansions, `-O`/`-o` set others).
 */
function shellOptionProblem(name: string, args: readonly ShellWord[]): string | undefined {
  if (name !== "bash") return "reads its script by other rules than bash's, which the analysis follows; use bash -c";
  for (let i = 0; i < args.length; i += 1) {
    const { text, unresolved, raw } = args[i]!;
    if (unresolved !== undefined) return `${raw} may be an option that changes how the script is read`;
    if (!/^[-+]/.test(text) || text === "--" || text === "-") return undefined;
    if (/^[-+][oO]$/.test(text) || /^[-+][ceuxvl]*o$/.test(text)) {
      const option = args[i + 1];
      if (text.includes("O") || !option || option.unresolved !== undefined || !SAFE_SHELL_OPTIONS.has(option.text)) {
        return `${text} ${option?.raw ?? ""} changes how the script is expanded, which the analysis does not follow`;
      }
      i += 1;
      continue;
    }
    if (SAFE_SHELL_LONG.has(text) || /^-[ceuxvl]+$/.test(text) || /^\+[euxv]+$/.test(text)) continue;
    return `${text} changes how the script is read or run, which the analysis does not follow`;
  }
  return undefined;
}

/** Builtins that evaluate an array subscript in their arguments. */
const SUBSCRIPT_BUILTINS = new Set([
  "test",
  "[",
  "[[",
  "printf",
  "unset",
  "read",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "let",
  "mapfile",
  "readarray",
  "wait",
]);

/** A `cd -P`: where it leads depends on the symbolic links it passes. */
const PHYSICAL_CD: ShellWord = { text: "", raw: "cd -P", glob: undefined, unresolved: "physical cd" };

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

  /** Globs that may expand to an option (`?v` with a file named `-v`), checked once the line is known. */
  readonly optionGlobs: ShellWord[] = [];

  /** Every redirection of the line, nested scripts included. */
  readonly redirects: Redirection[] = [];

  /** Counts the commands of the line, for `BashTarget.command`. */
  #command = 0;

  /** Filled once the whole line is known: shared by every target. */
  readonly descriptors = new Map<number, ReadonlySet<Access>>();

  constructor(
    cwd: string,
    readonly home: string,
    /** Nothing confines the command: refuse whatever has effects the analysis does not model. */
    readonly unconfined: boolean,
    /** Names in a directory, to tell whether a glob matches a name that starts with `-`. */
    readonly listDir?: (dir: string) => readonly string[] | undefined,
    cdpath = false,
    /** See `analyzeBash`'s `gitHook`. */
    readonly gitHook?: (sub: string) => string | undefined,
    isFolder?: (absolute: string) => boolean,
  ) {
    this.tracker = new CwdTracker(cwd, home, cdpath, isFolder);
  }

  /** `shell`: the nested shell that reads `src` (`sh` has no `((` command: `((cat .env))` is two subshells to dash). */
  source(src: string, depth: number, shell = "bash"): void {
    if (depth > MAX_NESTING) {
      this.#problem("bash unparseable", "it nests shells too deeply to be analysed");
      return;
    }
    if (this.unconfined && /\(\(|\[\[|\$\[/.test(src)) {
      const why =
        "it uses (( )), [[ ]] or $[ ]: arithmetic evaluation can run commands hidden in variables, and the analysis does not parse them";
      this.#problem("bash unconfined", why);
      return;
    }
    const tokenized = tokenizeShell(src, { home: this.home, arithmeticCommands: ARITHMETIC_SHELLS.has(shell) });
    if (!tokenized.ok) {
      this.#unparseable(tokenized.problem);
      return;
    }
    // An unquoted here-document expands like a word: `${v:x}` or `${a[x]}` in it is arithmetic.
    const hidden = this.unconfined ? tokenized.bodies.find((body) => HIDDEN_CODE.test(body)) : undefined;
    if (hidden !== undefined) {
      const why = "a here-document expands arithmetic or indirection, which can run commands hidden in variables";
      this.#problem("bash unconfined", why);
      return;
    }
    for (const tokens of [tokenized.tokens, ...tokenized.nested]) this.#tokens(tokens, depth);
  }

  #tokens(tokens: readonly ShellToken[], depth: number): void {
    // `name() { …; }` defines a function: later words that look like an inert command run its body.
    const defines = tokens.findIndex(
      (t, i) =>
        t.type === "word" &&
        tokens[i + 1]?.type === "control" &&
        (tokens[i + 1] as { op: string }).op === "(" &&
        tokens[i + 2]?.type === "control" &&
        (tokens[i + 2] as { op: string }).op === ")",
    );
    if (this.unconfined && defines !== -1) {
      const name = (tokens[defines] as { word: ShellWord }).word.raw;
      this.#problem("bash unconfined", `${name}() defines a function, which hides commands from the analysis`);
      return;
    }
    const split = splitCommands(tokens);
    if (split.ok) for (const command of split.commands) this.#simple(command, depth);
    else this.#unparseable(split.problem);
  }

  #simple(command: SimpleCommand, depth: number): void {
    this.redirects.push(...command.redirects);
    this.#command += 1;
    for (const redirect of command.redirects) for (const spec of redirectTargets(redirect)) this.#target(spec, false);
    const words = [...command.words];
    const literal = (w: ShellWord | undefined) => w !== undefined && w.raw === w.text;
    if (this.unconfined && this.#hiddenCode(command)) return;
    // Character classes, equivalence classes and collating symbols (`.[x[=e=]]nv` and
    // `.e[a[:print:]]v` are `.env` to bash) are not matched by the glob library the analysis
    // expands with as bash matches them: refused rather than misread.
    const bracket = this.unconfined
      ? [...command.words, ...command.redirects.flatMap((r) => redirectTargets(r).map((t) => t.word))].find(
          (w) => w.glob !== undefined && /\[[^\]]*\[[=.:]/.test(w.glob),
        )
      : undefined;
    if (bracket) {
      this.#problem(
        "bash unconfined",
        `${bracket.raw} uses a [: :], [= =] or [. .] bracket expression, which the analysis cannot match`,
      );
      return;
    }
    for (;;) {
      while (words[0] && ((literal(words[0]) && RESERVED.has(words[0].text)) || ASSIGNMENT.test(words[0].raw))) {
        const risky = this.unconfined
          ? (riskyAssignment(words[0]) ?? subscriptProblem(words[0].raw) ?? arrayAssignmentProblem(words[0]))
          : undefined;
        if (risky) {
          this.#problem("bash unconfined", risky);
          return;
        }
        words.shift();
      }
      // Unconfined, both are refused as they are (coproc is no modelled command; function hides one).
      const prefix = this.unconfined ? 0 : compoundPrefix(words);
      if (prefix === 0) break;
      words.splice(0, prefix);
    }
    if (literal(words[0]) && COMPOUND_HEADS.has(words[0]!.text)) {
      // `for x in ...` lists words, not commands; the other heads hide commands or arithmetic.
      if (this.unconfined && words[0]!.text !== "for") {
        const why = `${words[0]!.text} hides commands (or arithmetic that can run them) from the analysis`;
        this.#problem("bash unconfined", why);
      }
      // The loop assigns its variable (`for PATH in bin; do cat x; done`).
      const variable = words[0]!.text === "for" ? words[1] : undefined;
      const risky = this.unconfined && variable ? riskyName(variable.text) : undefined;
      if (risky) this.#problem("bash unconfined", risky);
      return;
    }
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
    if (this.unconfined) {
      const problem =
        builtinSubscriptProblem(name, args) ??
        this.#optionGlobProblem(name, args) ??
        this.#unconfinedProblem(first, name, args);
      if (problem) {
        this.#problem("bash unconfined", problem);
        return;
      }
    }
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      const inner = wrapper(args);
      if (inner && "problem" in inner) this.#problem("bash unresolved command", inner.problem);
      else if (inner) this.#run(inner.words, depth, recursive);
      return;
    }
    if (SHELLS.has(name) || name === "eval") this.#script(name, args, depth);
    else if (name === "cd" || name === "pushd") {
      const parsed = parseArgs(args);
      const operand = parsed.operands[0];
      // A physical cd (`cd -P r/..`) resolves symbolic links first: where it leads is not lexical.
      // `cd -` goes to OLDPWD and pushd's `+N`, `-N`, `-n` or no operand to the directory stack:
      // both may hold anything, set in this command or left by an earlier one in the same shell.
      const stacked =
        name === "pushd" && (operand === undefined || parsed.flags.has("n") || /^[+-]\d+$/.test(operand.text));
      // zsh's `cd OLD NEW` goes to $PWD with OLD replaced by NEW (`cd p1 p1/.git/hooks`); bash refuses it.
      const replaced = parsed.operands.length > 1;
      const unknown = parsed.flags.has("P") || stacked || replaced || operand?.text === "-";
      this.tracker.cd(unknown ? PHYSICAL_CD : operand);
    } else this.#extract(name, args, depth, recursive);
  }

  /**
   * A glob with no literal start, in option position, may expand to an option: with a file named
   * `-v`, `printf ?v PATH bin` is `printf -v PATH bin`, `sed ?i`/`sort ?o`/`cp ?t` write elsewhere.
   * Refused when such a file is there now; kept for the end of the line otherwise, which refuses
   * it if the line could create one (`touch ./-v && printf ?v …`).
   */
  #optionGlobProblem(name: string, args: readonly ShellWord[]): string | undefined {
    if (name === "echo") return undefined;
    const end = args.findIndex((a) => a.text === "--" && a.glob === undefined);
    const globs = (end === -1 ? args : args.slice(0, end)).filter(
      (a) => a.glob !== undefined && /^[*?[]/.test(a.glob) && !a.glob.includes("/"),
    );
    if (globs.length === 0) return undefined;
    const state = this.tracker.snapshot();
    for (const glob of globs) {
      const dashed = state.dirs.some((dir) => {
        const names = (this.listDir?.(dir) ?? []).filter((entry) => entry.startsWith("-"));
        // nocase: the agent's shell may have nocaseglob on (`?V` then matches a file named `-v`).
        return matchingNames(glob.glob as string, names, { dot: true, nonegate: true, nocase: true }).length > 0;
      });
      if (state.unknown || dashed) {
        return `${name}'s argument ${glob.raw} may expand to an option (a file whose name starts with -); write ./${glob.raw} or put -- before it`;
      }
      this.optionGlobs.push(glob);
    }
    return undefined;
  }

  /**
   * True when a glob may match nothing where the command runs (nothing there now, or a cd to an
   * unknown place); its folder part is a plain path (globs in it are refused as targets).
   */
  #matchesNothing(word: ShellWord): boolean {
    const state = this.tracker.snapshot();
    if (state.unknown) return true;
    const glob = word.glob as string;
    const slash = glob.lastIndexOf("/");
    const folder = slash === -1 ? "." : glob.slice(0, slash + 1).replace(/\\(.)/g, "$1") || "/";
    const options = { dot: true, nonegate: true, nocase: true };
    return state.dirs.every((dir) => {
      const names = this.listDir?.(path.resolve(dir, folder)) ?? [];
      return matchingNames(glob.slice(slash + 1), names, options).length === 0;
    });
  }

  /** Commands an unconfined run may not contain: see `unconfinedProblem`; wrappers that change the user. */
  #unconfinedProblem(first: ShellWord, name: string, args: readonly ShellWord[]): string | undefined {
    // Git finds its repository from the directory it runs in: after a cd that may be one the
    // command planted (a bare repository's `config` is not `.git/config`, and no rule protects it).
    const moved = this.tracker.snapshot();
    if (name === "git" && (moved.unknown || moved.dirs.length > 1)) {
      return "git runs in a directory a cd chose, whose repository (and its configuration) the analysis does not check; run git from the project";
    }
    if (first.text.includes("/"))
      return `${first.raw} runs a program by path, whose effects cannot be checked without the sandbox`;
    if (name === "sudo" || name === "doas") return `${name} runs the command as another user, beyond any path policy`;
    if (SHELLS.has(name) && args.some((a) => a.text === "--rcfile" || a.text === "--init-file")) {
      return `${name} ${args.find((a) => a.text.startsWith("--"))?.text} runs a start-up file the analysis does not read`;
    }
    const shellProblem = SHELLS.has(name) ? shellOptionProblem(name, args) : undefined;
    if (shellProblem) return `${name} ${shellProblem}`;
    if (SHELLS.has(name) && shellScript(args) === undefined) {
      return `${name} without -c runs a script file or its input, which the analysis does not read`;
    }
    // A variable or substitution may expand to options or several words (`grep $(echo x .env)`,
    // `rg "$(printf -- --pre=sh)"`): only inert commands take them.
    const unknown = isInert(name) ? inertUnresolved(name, args) : args.find((a) => a.unresolved !== undefined);
    if (unknown) {
      return `${name}'s argument ${unknown.raw} depends on a ${unknown.unresolved}, which could add options or paths the analysis cannot see; spell it literally`;
    }
    const option = optionProblem(name, args);
    if (option) return option;
    if (name === "env") return envAssignmentProblem(args);
    if (name === "git") {
      const problem = unconfinedProblem(name, args);
      const sub = args.find((a) => !a.text.startsWith("-"))?.text;
      const hook = problem === undefined && sub !== undefined ? this.gitHook?.(sub) : undefined;
      if (hook === undefined) return problem;
      return `git ${sub} runs the repository's hook ${showPath(hook)}, which runs what the project holds (npm test, package.json, lint-staged) and the agent may change, outside any sandbox; run it yourself`;
    }
    if (WRAPPERS[name] || SHELLS.has(name) || name === "eval" || name === "cd" || name === "pushd") return undefined;
    return unconfinedProblem(name, args);
  }

  /**
   * Arithmetic (`$((…))`, `${a[…]}`, a substring offset `${x:y}`) and indirection (`${!y}`)
   * evaluate variables as expressions, which can run commands (array subscripts given to builtins:
   * see `subscriptProblem`).
   */
  #hiddenCode(command: SimpleCommand): boolean {
    // Every redirection's word is expanded, whatever the operator (`<<< ${y:x}`, `<&${y:x}`).
    const words = [...command.words, ...command.redirects.map((r) => r.target)];
    const found = words.find((w) => HIDDEN_CODE.test(w.raw));
    if (!found) return false;
    this.#problem("bash unconfined", evaluatesWhy(found.raw));
    return true;
  }

  #extract(name: string, args: readonly ShellWord[], depth: number, recursive: boolean): void {
    const extract = COMMANDS[name] ?? (this.unconfined ? UNCONFINED_READS[name] : undefined);
    if (!extract) return;
    this.#command += 1;
    // Unconfined, a glob must keep its role however many names it expands to (`grep .e* f` with
    // `.e` and `.env` there makes `.env` a file read, not the pattern).
    const shifted = this.unconfined ? roleShiftingGlob(name, extract, args) : undefined;
    if (shifted) {
      this.#problem(
        "bash unconfined",
        `${shifted.raw} may expand to several names, which ${name} would take in different roles (a pattern, a source, a destination, an output); name the files, or put the glob where every name is read alike`,
      );
      return;
    }
    const vanishing = this.unconfined ? vanishingGlob(name, extract, args, (w) => this.#matchesNothing(w)) : undefined;
    if (vanishing) {
      this.#problem(
        "bash unconfined",
        `${vanishing.raw} matches nothing, and where the shell's nullglob option is on (the agent's shell may have the user's) it vanishes, so ${name} would take its other words in other roles or fall back to its default (a search of .); name files that exist`,
      );
      return;
    }
    const effects = extract(args);
    // Unconfined, a search through a tree reads everything below its roots: each is checked whole.
    const search = this.unconfined ? recursiveSearch(name, args) : undefined;
    const searched = (spec: TargetSpec): TargetSpec =>
      search && spec.access === "read" ? { ...spec, recursive: true, skipsHidden: search.skipsHidden } : spec;
    for (const word of search?.roots ?? []) this.#target(searched({ access: "read", word, via: name }), true);
    for (const spec of effects.targets) this.#target(searched(spec), recursive);
    for (const inner of effects.commands ?? []) this.#run(inner, depth, true);
  }

  /** `bash -c SCRIPT` and `eval ARGS...`: the script is analysed like the outer command. */
  #script(name: string, args: readonly ShellWord[], depth: number): void {
    const script = name === "eval" ? args : [shellScript(args)].filter((w) => w !== undefined);
    const unknown = script.find((w) => w.unresolved !== undefined);
    if (unknown) {
      const why = `the script it passes to ${name} depends on a ${unknown.unresolved}, so what it runs cannot be checked`;
      this.#problem("bash unresolved command", why);
    } else if (script.length > 0) this.source(script.map((w) => w.text).join(" "), depth + 1, name);
  }

  #target(spec: TargetSpec, recursive: boolean): void {
    // Unconfined, what a command run on a tree's behalf reads (find -exec cat {}) is checked below it too.
    const inherited = recursive && (spec.access === "write" || this.unconfined);
    this.findings.push({
      ...spec,
      recursive: spec.recursive === true || inherited,
      kind: "target",
      cwd: this.tracker.snapshot(),
      descriptors: this.descriptors,
      command: this.#command,
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
 * With `unconfined` (nothing will sandbox the command) every command whose effects the analysis
 * does not model — interpreters, build tools, programs run by path, risky variables, arithmetic —
 * is a problem too (`unconfinedProblem`).
 */
export function analyzeBash(
  command: string,
  options: {
    cwd: string;
    home: string;
    unconfined?: boolean;
    /** The names in a directory (for globs that may expand to options; unconfined only). */
    listDir?: (dir: string) => readonly string[] | undefined;
    /** CDPATH is set in the shell that will run the command (`cd name` may go anywhere it lists). */
    cdpath?: boolean;
    /** A hook the repository runs for `git SUB` from where the line starts (unconfined only). */
    gitHook?: (sub: string) => string | undefined;
    /** Whether a path is a folder now (unconfined only: `cd NAME` of none may follow `cdable_vars`). */
    isFolder?: (absolute: string) => boolean;
  },
): BashFinding[] {
  const analysis = new Analysis(
    options.cwd,
    options.home,
    options.unconfined === true,
    options.listDir,
    options.cdpath === true,
    options.gitHook,
    options.isFolder,
  );
  analysis.source(command, 0);
  for (const [fd, accesses] of lineDescriptors(analysis.redirects)) analysis.descriptors.set(fd, accesses);
  const glob = analysis.optionGlobs[0];
  if (glob && analysis.findings.some(mayCreateDashName)) {
    analysis.findings.push({
      kind: "problem",
      rule: "bash unconfined",
      why: `${glob.raw} may expand to an option (a file whose name starts with -) that the same command line could create; write ./${glob.raw} or put -- before it`,
    });
  }
  return analysis.findings;
}

/** A write that may create an entry whose name starts with `-`: named so, or not known before it runs. */
function mayCreateDashName(finding: BashFinding): boolean {
  if (finding.kind !== "target" || finding.access !== "write") return false;
  const { word } = finding;
  if (word.glob !== undefined || word.unresolved !== undefined || finding.into !== undefined) return true;
  return path.basename(word.text).startsWith("-");
}

/**
 * How many words of `coproc [NAME] {`, `coproc` or `function NAME {` come before the first command
 * they run or define (`coproc tee x`, `function f { tee x; }`): that command is analysed like any.
 * A `function` whose brace is not on its line defines the commands after it (analysed there).
 */
function compoundPrefix(words: readonly ShellWord[]): number {
  const literal = (i: number, text?: string) =>
    words[i] !== undefined && words[i]!.raw === words[i]!.text && (text === undefined || words[i]!.text === text);
  if (literal(0, "coproc")) {
    if (literal(1, "{")) return 2;
    return literal(2, "{") && /^[A-Za-z_][A-Za-z0-9_]*$/.test(words[1]!.text) ? 3 : 1;
  }
  if (!literal(0, "function")) return 0;
  return literal(2, "{") ? 3 : words.length;
}

/** `env [-i] [-u NAME] NAME=value… command`: the assignments before the command, after quote removal. */
function envAssignmentProblem(args: readonly ShellWord[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.unresolved === undefined && word.text.startsWith("-")) {
      if (word.text === "-u" || word.text === "--unset") i += 1;
      continue;
    }
    if (word.unresolved === undefined && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) return undefined;
    const risky = riskyAssignedArgument(word);
    if (risky) return risky;
  }
  return undefined;
}

/**
 * The word of an inert command that may still do harm when the analysis cannot resolve it: date's
 * options read files (`D=-f; date $D .env`); `unset` and `wait -p` name variables, whose subscripts
 * are arithmetic; and a word given to `test` or `[` may be `-v NAME[…]`: unquoted it may split
 * into both, after `-v`/`-R` it is the name, and quoted it may be `-v` or `-R` itself, naming the
 * word after it when that one is not known either (`test "$op" "$x"` with `op=-v`,
 * `x='a[$(…)]'` runs the substitution).
 * printf's are judged by `printfProblem`.
 */
function inertUnresolved(name: string, args: readonly ShellWord[]): ShellWord | undefined {
  if (name === "date" || name === "unset" || name === "wait") return args.find((a) => a.unresolved !== undefined);
  if (name !== "test" && name !== "[") return undefined;
  const unknown = (w: ShellWord | undefined) => w !== undefined && (w.unresolved !== undefined || w.glob !== undefined);
  return args.find(
    (a, i) =>
      a.unresolved !== undefined &&
      (!/^"[^"]*"$/.test(a.raw) || args[i - 1]?.text === "-v" || args[i - 1]?.text === "-R" || unknown(args[i + 1])),
  );
}

/** Why a word makes bash evaluate or re-expand something hidden, for `bash unconfined` reasons. */
function evaluatesWhy(raw: string): string {
  return `${raw} evaluates arithmetic, assigns a variable or re-expands a value as it expands, which can run commands hidden in variables or change where later commands lead`;
}

/**
 * Array subscripts given to the builtins that evaluate them (`test -v 'a[$(…)]'`, `printf -v`,
 * `unset`, `read`, `declare`) and `let`: a subscript other than a plain number is arithmetic,
 * which evaluates variables named in it, recursively, as expressions (`x='y[$(cat .env)]';
 * unset 'a[x]'` runs the cat). Judged by the command that runs, after reserved words, assignments
 * and wrappers (`if test -v …`, `! printf -v …`, `X=1 unset …`, `command test -v …`).
 */
function builtinSubscriptProblem(name: string, args: readonly ShellWord[]): string | undefined {
  if (name === "let") return evaluatesWhy(name);
  if (!SUBSCRIPT_BUILTINS.has(name)) return undefined;
  // A glob may expand to a subscript too (`test -v a?x?` with a file named `a[x]`).
  const found = args.find(
    (w, i) => EVALUATED_SUBSCRIPT.test(w.text) || (w.glob !== undefined && namesVariable(name, args, i)),
  );
  return found ? evaluatesWhy(found.raw) : undefined;
}

/** Whether argument `i` of a builtin is a variable name (printf -v X, test -v X, unset X…). */
function namesVariable(name: string, args: readonly ShellWord[], i: number): boolean {
  const before = args[i - 1]?.text;
  if (name === "printf") return before === "-v";
  if (name === "test" || name === "[" || name === "[[") return before === "-v" || before === "-R";
  return true;
}
