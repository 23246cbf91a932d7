import { findProblem } from "./find-command.ts";
import { GREP_SPEC, RG_SPEC, UNIQ_SPEC } from "./option-specs.ts";
import { hasFlag, parseArgs } from "./parse-args.ts";
import { literalWord, type ShellWord } from "./shell-word.ts";
import type { CommandExtractor } from "./target-spec.ts";
import { targetsOf } from "./target-spec.ts";

/**
 * Commands that touch no file and run no code: what an unconfined command line may contain
 * besides the commands whose paths the analysis checks.
 */
const INERT = new Set([
  "echo",
  "printf",
  "true",
  "false",
  "test",
  "[",
  ":",
  "pwd",
  "exit",
  "return",
  "sleep",
  "whoami",
  "id",
  "uname",
  "basename",
  "dirname",
  "which",
  "type",
  "seq",
  "expr",
  "nproc",
  "tr",
  "unset",
  "wait",
  "date",
]);

/** True for commands that touch no file and run no code (`echo`, `printf`, `true`, …). */
export function isInert(name: string): boolean {
  return INERT.has(name);
}

/**
 * Commands whose file effects the analysis models and that run no code of their own.
 * `sort` runs a program only through `--compress-program` (refused below).
 */
const MODELLED = new Set([
  "cat",
  "tac",
  "nl",
  "head",
  "tail",
  "wc",
  "strings",
  "od",
  "hexdump",
  "base64",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "diff",
  "cmp",
  "file",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "sed",
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "mkdir",
  "touch",
  "truncate",
  "tee",
  "chmod",
  "chown",
  "chgrp",
  "cp",
  "mv",
  "ln",
  "dd",
  "sort",
  "uniq",
  "git",
]);

/** Read-only listing and text commands: every operand is a path they read. */
const listing = (via: string, short = ""): CommandExtractor => {
  return (args) => ({ targets: targetsOf("read", parseArgs(args, { short }).operands, via) });
};

/**
 * git's operands after the subcommand, read: pathspecs (`git add .env`, `git diff -- .env`) and the
 * path of `REV:PATH` (`git show HEAD:.env`). A revision checked as a path matches no rule.
 */
/**
 * Git options whose value is the next word, by subcommand (a message, a count): not pathspecs.
 * Only these: `-m` is a flag of log and show, `--pretty` and `-U` take an attached value.
 */
/**
 * The options of git's subcommands the analysis reads: those that take a value (so the value is
 * not taken for a path) and those that widen what `add` stages without naming it. `-n` takes a
 * count only for log and show; elsewhere it is a flag (`blame -n FILE` prints FILE).
 */
function gitValues(sub: string | undefined) {
  return {
    short: sub === "commit" ? "mCc" : sub === "log" || sub === "show" ? "n" : "",
    long: ["message", "author", "date", "grep", "since", "until", "max-count"],
    flags: ["force", "all", "no-ignore-removal", "ignore-removal", "update", "renormalize", "intent-to-add"],
  };
}

/** A long option of git that abbreviates one the analysis reads (`--a` for `--all` or `--author`). */
function gitAbbreviation(word: ShellWord, sub: string | undefined): string | undefined {
  const long = word.unresolved === undefined ? /^--([^=]+)/.exec(word.text)?.[1] : undefined;
  if (long === undefined) return undefined;
  const { long: valued, flags } = gitValues(sub);
  const known = [...valued, ...flags];
  return !known.includes(long) && known.some((name) => name.startsWith(long)) ? word.text : undefined;
}

const gitReads: CommandExtractor = (args) => {
  const sub = args.find((a) => !a.text.startsWith("-"))?.text;
  const parsed = parseArgs(args, gitValues(sub));
  // `REV:PATH` names PATH after a revision that may hold colons itself (`:0:.env`,
  // `HEAD@{2024-01-01 10:00}:.env`): every text after a colon is checked as a path.
  const words = parsed.operands.slice(1).flatMap((w) => {
    if (w.unresolved !== undefined || !w.text.includes(":")) return [w];
    const parts = w.text.split(":");
    return parts.slice(1).map((_, i) => ({ ...w, text: parts.slice(i + 1).join(":") || "." }));
  });
  // `git add` copies what it stages into the repository, from where `git diff --cached` prints it:
  // each pathspec is read whole. Ignored files are no exception: `-f` stages them, and `.gitignore`
  // is the agent's to change (`printf 'x\n' > .gitignore && git add .`).
  const staging = parsed.operands[0]?.text === "add";
  // `-A`/`--all` (or a forced add) with no pathspec: the whole tree.
  const everything = staging && words.length === 0 && hasFlag(parsed, "A", "all", "no-ignore-removal", "f", "force");
  // `git diff A B` outside a repository, or with A or B outside it, is `git diff --no-index A B`:
  // two folders are read whole (`git diff /tmp/empty .` prints .env). Two operands count so.
  // A `--` after the first operand makes it a revision (`git diff HEAD -- .`).
  const dashes = args.findIndex((a) => a.text === "--" && a.unresolved === undefined);
  const firstOperand = args.indexOf(parsed.operands[1] as ShellWord);
  const revision = dashes !== -1 && firstOperand !== -1 && firstOperand < dashes;
  const noIndex = parsed.operands[0]?.text === "diff" && words.length === 2 && !revision;
  const targets = targetsOf("read", everything ? [literalWord(".")] : words, "git", staging || noIndex);
  // `git diff` (the working tree against the index or a revision), `git status -vv`, `git add -u` and
  // `git commit -a` or with pathspecs read every tracked file of the repository they name (a tracked `.env` with a
  // secret added locally is printed by `git diff`, or committed where `git show` prints it).
  const subcommand = parsed.operands[0]?.text;
  const worktree =
    subcommand === "diff" ||
    (subcommand === "status" && hasFlag(parsed, "v", "verbose")) ||
    (subcommand === "commit" && (words.length > 0 || hasFlag(parsed, "a", "all", "i", "include", "o", "only"))) ||
    (staging && hasFlag(parsed, "u", "update"));
  // `git add -A` without a pathspec stages the whole repository, not only the working directory.
  const tracked = everything ? "everything" : worktree ? "tracked" : undefined;
  if (tracked) targets.push({ access: "read", word: literalWord("."), via: "git", tracked });
  return { targets };
};

/** Extractors for commands only the unconfined mode accepts (their operands are read). */
export const UNCONFINED_READS: Readonly<Record<string, CommandExtractor>> = {
  git: gitReads,
  ls: listing("ls", "IwT"),
  stat: listing("stat", "c"),
  du: listing("du", "BdtX"),
  tree: listing("tree", "LPI"),
  readlink: listing("readlink"),
  realpath: listing("realpath"),
  cut: listing("cut", "bcdf"),
  paste: listing("paste", "d"),
  comm: listing("comm"),
};

/**
 * Variables that change which program runs, how a shell or a tool behaves, or where `~` and `cd`
 * lead; and those bash keeps as integers (`OPTIND`, `RANDOM`, …), whose assigned value it evaluates
 * as arithmetic (`y='a[$(cat .env)]'; OPTIND=y` runs the cat); and zsh's arrays tied to such
 * variables (`path=(.)` sets PATH).
 */
const RISKY_VARIABLE =
  /^(PATH|HOME|CDPATH|IFS|ENV|BASH_ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PS[0-9]|LD_.*|DYLD_.*|GIT_.*|XDG_.*|MAGIC|.*_CONFIG.*|.*RC|.*_HOME|.*PATH|RIPGREP_CONFIG_PATH|GREP_OPTIONS|.*_OPTIONS|.*_OPTS|NODE_.*|PYTHON.*|PERL.*|RUBY.*|.*PAGER|EDITOR|VISUAL|TMPDIR|TERMINFO|LESS.*|INPUTRC|HISTFILE|MAIL.*|POSIXLY_CORRECT|OLDPWD|PWD|DIRSTACK|GLOBIGNORE|BASHPID|HISTCMD|OPTIND|S?RANDOM|EUID|PPID|UID|TEXTDOMAIN|TEXTDOMAINDIR|path|cdpath|fpath|manpath|mailpath|module_path|psvar)$/;

/** Git subcommands that read the repository or write inside `.git` (never its hooks or config). */
const GIT_SUBCOMMANDS = new Set([
  "status",
  "diff",
  "log",
  "show",
  "rev-parse",
  "ls-files",
  "branch",
  "add",
  "commit",
  "blame",
  "shortlog",
  "describe",
]);

/** Options of git's subcommands that run a program, read or write a named file. */
const GIT_RISKY_OPTION =
  /^(--output|--output-directory|-O|--open-files-in-pager|--ext-diff|--textconv|--no-index|-F|--file|-t|--template|--upload-pack|--receive-pack|--gpg-sign|--pathspec-from-file|--exclude-from|--exclude-per-directory|-X)(=|$)|^-[FOtX]./;

/**
 * A bracket expression sed reads exactly as this reads it: `[`, an optional `^`, an optional
 * leading `]` (taken as itself), then characters other than `]`, `[`, `\`, `/` and newline, or
 * whole `[:class:]` names, up to the first `]`. GNU sed does not end a regular expression at a `/`
 * inside `[...]` (`s/[/]/;/e#/p` is `s` of `[/]` by `;` with the `e` flag, then a comment), so a
 * bracket holding `/` (or `[.`, `[=`, a backslash, whose readings vary) is no plain script.
 */
const SED_BRACKET = String.raw`\[\^?\]?(?:[^\][\\/\n]|\[:[a-z]+:\])*\]`;
/** A regular expression between `/`s (see `SED_BRACKET` for `[`). */
const SED_REGEX = String.raw`/(?:[^/\\\n[]|\\.|${SED_BRACKET})*/`;
const SED_ADDRESS = String.raw`(?:\d+|\$|${SED_REGEX})`;
/** The replacement of `s` and its closing `/`: sed reads `[` there as itself. */
const SED_REPLACEMENT = String.raw`(?:[^/\\\n]|\\.)*/`;
const SED_COMMAND = `(?:[pdqn=]|s${SED_REGEX}${SED_REPLACEMENT}[gpiI0-9]*)`;
const SED_PART = String.raw`\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?)?\s*!?\s*${SED_COMMAND}?\s*`;
/**
 * A sed script of addresses with p, d, q, n, = and `s/a/b/` (flags g, p, i, a count) only: no `e`,
 * `w`, `r`, no `s///e` or `s///w FILE`, no blocks, no comments, no other delimiters (`\cREc`,
 * `s|a|b|`), only plain bracket expressions (`SED_BRACKET`): a strict subset of what sed reads,
 * which sed reads the same way.
 */
const PLAIN_SED_SCRIPT = new RegExp(`^${SED_PART}(?:;${SED_PART})*$`);

function assignmentName(text: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(text)?.[1];
}

/**
 * Why an assignment (`NAME=value cmd`) cannot run unconfined, if it cannot. Bash takes a word as
 * an assignment only when its name is unquoted, so the raw word is what counts here.
 */
export function riskyAssignment(word: ShellWord): string | undefined {
  return riskyName(assignmentName(word.raw));
}

/**
 * The same for an argument that a builtin or `env` assigns (`export "BASH_ENV=x"`, `declare
 * P"ATH=…"`, `env 'PATH=…' cmd`): they see the word after quote removal, and a word the analysis
 * cannot resolve may assign anything.
 */
export function riskyAssignedArgument(word: ShellWord): string | undefined {
  if (word.unresolved !== undefined) {
    return `its argument ${word.raw} depends on a ${word.unresolved}, so which variable it sets cannot be checked`;
  }
  // A bare name counts too: `export BASH_ENV` exports what a loop or a read set, `unset PATH` runs ./cat.
  return riskyName(assignmentName(word.text) ?? /^[A-Za-z_][A-Za-z0-9_]*$/.exec(word.text)?.[0]);
}

/** Why setting the variable `name` cannot run unconfined (`for PATH in …`), if it cannot. */
export function riskyName(name: string | undefined): string | undefined {
  if (name === undefined || !RISKY_VARIABLE.test(name)) return undefined;
  return `it sets ${name}, which changes what later commands run or where their paths lead`;
}

/** The long options of `GIT_RISKY_OPTION`, which git also takes abbreviated (`--fil` for `--file`). */
const GIT_RISKY_LONG = [
  "output",
  "output-directory",
  "open-files-in-pager",
  "ext-diff",
  "textconv",
  "no-index",
  "file",
  "template",
  "upload-pack",
  "receive-pack",
  "gpg-sign",
  "pathspec-from-file",
  "exclude-from",
  "exclude-per-directory",
];

/** Real git options that are prefixes of a risky one (`--text` of `--textconv`): themselves. */
const GIT_SAFE_LONG = new Set(["text", "no-ext-diff", "no-textconv"]);

/** A git option that is, or may abbreviate, one that runs a program or touches a file. */
function gitRiskyOption(word: ShellWord, sub: string | undefined): boolean {
  if (word.unresolved !== undefined) return false;
  if (GIT_RISKY_OPTION.test(word.text)) return true;
  // `-S` signs a commit (running gpg); elsewhere it is log's pickaxe search.
  if (sub === "commit" && /^-S/.test(word.text)) return true;
  const long = /^--([^=]+)/.exec(word.text)?.[1];
  if (long === undefined || GIT_SAFE_LONG.has(long)) return false;
  return GIT_RISKY_LONG.some((name) => name.startsWith(long));
}

/** Git's own options (before the subcommand) that change nothing but output and locking. */
const GIT_GLOBAL_OPTIONS = new Set([
  "--no-pager",
  "--no-optional-locks",
  "--literal-pathspecs",
  "-P",
  "--no-replace-objects",
]);

/**
 * Options of the allowed subcommands that read or write a named file, change the configuration, or
 * take their choice of files from the input (`add -i`: `4` then `*` stages everything, `.env`
 * too): long names (matched by any prefix, as git abbreviates them), short letters (also inside
 * a cluster such as `-vp`), and the short letters that take a value (a cluster ends there).
 */
const GIT_RISKY_SUB_OPTION: Record<string, { long: readonly string[]; short: string; valued: string }> = {
  blame: { long: ["contents", "ignore-revs-file"], short: "S", valued: "LS" },
  branch: {
    long: ["set-upstream-to", "unset-upstream", "edit-description", "move", "copy", "track", "no-track"],
    short: "umMcCt",
    valued: "u",
  },
  add: { long: ["interactive", "patch", "edit"], short: "ipe", valued: "" },
  commit: { long: ["interactive", "patch"], short: "p", valued: "mFCctSu" },
};

/** True when `word` is one of `spec`'s risky options, spelled in full, abbreviated or in a cluster. */
function riskySubOption(word: ShellWord, spec: (typeof GIT_RISKY_SUB_OPTION)[string]): boolean {
  if (word.unresolved !== undefined || !word.text.startsWith("-") || word.text === "-" || word.text === "--") {
    return false;
  }
  const long = /^--([^=]+)/.exec(word.text)?.[1];
  if (long !== undefined) return spec.long.some((name) => name.startsWith(long));
  for (const letter of word.text.slice(1)) {
    if (spec.short.includes(letter)) return true;
    if (spec.valued.includes(letter)) return false;
  }
  return false;
}

function gitProblem(args: readonly ShellWord[]): string | undefined {
  const at = args.findIndex((a) => a.unresolved !== undefined || !a.text.startsWith("-"));
  // Before the subcommand: only options that touch nothing (`--shallow-file F status` takes `status` as F's value).
  const global = (at === -1 ? args : args.slice(0, at)).find((a) => !GIT_GLOBAL_OPTIONS.has(a.text));
  if (global) return `git ${global.raw} runs a program or touches a file the analysis does not follow`;
  const rest = at === -1 ? [] : args.slice(at + 1);
  const abbreviated = rest.map((a) => gitAbbreviation(a, args[at]?.text)).find((a) => a !== undefined);
  if (abbreviated)
    return `git ${abbreviated} abbreviates a long option (git reads any unique prefix); spell it in full`;
  const risky = rest.find((a) => gitRiskyOption(a, args[at]?.text));
  if (risky) return `git ${risky.text} runs a program or touches a file the analysis does not follow`;
  const sub = args[at];
  const subSpec =
    sub !== undefined && Object.hasOwn(GIT_RISKY_SUB_OPTION, sub.text) ? GIT_RISKY_SUB_OPTION[sub.text] : undefined;
  const subRisky = subSpec ? rest.find((a) => riskySubOption(a, subSpec)) : undefined;
  if (subRisky) {
    return `git ${sub?.text} ${subRisky.text} reads or writes a file, the configuration, or files it is told on its input, beyond its words`;
  }
  // Pathspecs are patterns to git (`'.en?'`, `':(top).env'`): it matches them itself, unseen by the analysis.
  const refPatterns = sub?.text === "branch" || sub?.text === "describe";
  const pattern = (refPatterns ? [] : parseArgs(rest, gitValues(sub?.text)).operands).find(
    // A backslash escapes the next character in a pathspec: `\.env` is `.env` to git.
    (a) => a.unresolved === undefined && (/^:[(!^/]/.test(a.text) || (a.glob === undefined && /[*?[\\]/.test(a.text))),
  );
  if (pattern)
    return `git matches the pathspec ${pattern.raw} itself, which the analysis cannot follow; name paths literally`;
  if (sub === undefined || sub.unresolved !== undefined || !GIT_SUBCOMMANDS.has(sub.text)) {
    return `git ${sub?.raw ?? ""} may run programs the repository configures (or change that configuration)`.replace(
      "git  ",
      "git ",
    );
  }
  return undefined;
}

function sedProblem(args: readonly ShellWord[]): string | undefined {
  // `-f`/`--file` never get here: the option allowlist refuses them first (see allowed-options.ts).
  const parsed = parseArgs(args, { short: "e", long: ["expression"] });
  const given = [...(parsed.values.get("e") ?? []), ...(parsed.values.get("expression") ?? [])];
  const scripts = given.length > 0 ? given : parsed.operands.slice(0, 1);
  const bad = scripts.find((s) => s.unresolved !== undefined || !PLAIN_SED_SCRIPT.test(s.text));
  return bad ? `the sed script ${bad.raw} may run commands or write files (e, w, r, s///e)` : undefined;
}

/**
 * uniq reads `+N` as its obsolete option `--skip-chars=N`, not a file (`uniq +0 in .git/hooks/x`
 * writes the hook, `uniq +0 +0 .env` prints .env): an operand's role follows from how many come
 * before it, so a `+` operand, or a third one, is refused.
 * The other modelled commands with obsolete forms keep every operand's role: `tail +N`, `od FILE
 * +OFFSET` and `cmp A B SKIP` only read, `sort +POS` needs `-POS` (no digit option is allowed),
 * `head`/`tail -N` are counts.
 */
function uniqProblem(args: readonly ShellWord[]): string | undefined {
  const { operands } = parseArgs(args, UNIQ_SPEC);
  const obsolete = operands.find((o) => o.text.startsWith("+"));
  if (obsolete)
    return `uniq reads ${obsolete.raw} as its obsolete option --skip-chars, which moves its files' roles; use -s`;
  return operands.length > 2 ? "uniq takes at most an input and an output file" : undefined;
}

/** `printf -v NAME` assigns a variable, like `NAME=…`: `printf -v PATH …` changes what runs next. */
function printfProblem(args: readonly ShellWord[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    // Options come first, then the format and its data: an unresolved word in option position may
    // be `-v` (`V=-v; printf $V PATH …`); after the format, words are only data.
    if (word.unresolved !== undefined) return `printf's argument ${word.raw} may be -v, which assigns a variable`;
    if (word.text === "--" || !word.text.startsWith("-")) return undefined;
    if (!word.text.startsWith("-v")) continue;
    const target = word.text === "-v" ? args[i + 1] : { ...word, text: word.text.slice(2), raw: word.text.slice(2) };
    if (!target || target.unresolved !== undefined) return "printf -v assigns a variable the analysis cannot name";
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(target.text)?.[0] ?? target.text;
    const risky = riskyAssignment({ ...target, raw: `${name}=` });
    if (risky) return `printf -v ${risky.slice("it ".length)}`;
  }
  return undefined;
}

/**
 * Why a command cannot be run outside a sandbox on the analysis' word alone, or `undefined` when
 * its effects are only those the analysis checks. Used when nothing confines the command (another
 * agent's shell, through its hooks): interpreters, build tools, package managers, unknown programs
 * and the options of known ones that run programs all have effects no static analysis can see.
 */
export function unconfinedProblem(name: string, args: readonly ShellWord[]): string | undefined {
  const opaque = `${name} runs code whose effects cannot be checked without the sandbox`;
  if (name === "git") return gitProblem(args);
  if (name === "printf") return printfProblem(args);
  // `wait -p NAME` assigns a job's pid to NAME (PATH=4242 makes ./4242/cat the next cat).
  if (name === "wait" && args.some((a) => /^-[a-z]*p/.test(a.text))) return "wait -p assigns a variable";
  if (name === "unset") return args.map(riskyAssignedArgument).find((p) => p !== undefined);
  // binutils read more arguments from `@FILE`.
  if (name === "strings" && args.some((a) => a.text.startsWith("@")))
    return "strings @FILE reads its arguments from a file";
  if (INERT.has(name) || Object.hasOwn(UNCONFINED_READS, name)) return undefined;
  if (name === "export" || name === "declare" || name === "local" || name === "readonly" || name === "typeset") {
    const flags = args.filter((a) => a.text.startsWith("-")).map((a) => a.text);
    if (flags.some((f) => /[finaA]/.test(f))) {
      return `${name} ${flags.join(" ")} defines functions, arithmetic, arrays or a reference to another variable`;
    }
    // A declaration builtin parses a value that starts with `(` as an array, expanding it again:
    // `a=(); declare a='($(cat .env))'` runs the cat.
    const array = args.find((a) => assignmentName(a.text) !== undefined && /^[^=]*=\(/.test(a.text));
    if (array) return `${name} ${array.raw} may assign an array, whose value bash expands again`;
    return args.map(riskyAssignedArgument).find((p) => p !== undefined);
  }
  if (name === "set") {
    return args.every(
      // Only errexit, nounset, xtrace, verbose and pipefail: `-k` moves later assignments into the
      // environment, `-P` makes cd physical, `-f`/`-B`/`-H` change expansion.
      (a) => a.unresolved === undefined && /^[-+][euxvo]+$|^pipefail$|^errexit$|^nounset$|^xtrace$/.test(a.text),
    )
      ? undefined
      : "set with operands changes the positional parameters or shell options the analysis relies on";
  }
  if (!MODELLED.has(name)) return opaque;
  if (name === "sed") return sedProblem(args);
  if (name === "uniq") return uniqProblem(args);
  if (name === "find") return findProblem(args);
  return undefined;
}

/** How a search reads whole trees (`grep -r`, `rg`). */
export interface RecursiveSearch {
  /** The directory it starts from when it names none (`.`); empty when its operands name them. */
  roots: ShellWord[];
  /** rg without `--hidden`, `-.` or `-u`: dot-files and dot-directories are not read. */
  skipsHidden: boolean;
}

/** How a command searches trees, or `undefined` when it does not. */
export function recursiveSearch(name: string, args: readonly ShellWord[]): RecursiveSearch | undefined {
  const grep = name === "grep" || name === "egrep" || name === "fgrep";
  if (!grep && name !== "rg") return undefined;
  const parsed = parseArgs(args, grep ? GREP_SPEC : RG_SPEC);
  if (grep) {
    const recurse = ["r", "R", "recursive", "dereference-recursive"].some((f) => parsed.flags.has(f));
    const directories = [...(parsed.values.get("d") ?? []), ...(parsed.values.get("directories") ?? [])];
    if (!recurse && directories.every((v) => v.unresolved === undefined && v.text !== "recurse")) return undefined;
  }
  const given = ["e", "f", "regexp", "file"].some((o) => parsed.values.has(o));
  const paths = given ? parsed.operands : parsed.operands.slice(1);
  // rg skips dot-files unless told otherwise — or unless an ignore file the agent can write
  // (`.ignore`, `.rgignore`, `.gitignore` with `!.env`) whitelists them: taken as reading them all.
  const hidden = true;
  return { roots: paths.length === 0 ? [literalWord(".")] : [], skipsHidden: !hidden };
}
