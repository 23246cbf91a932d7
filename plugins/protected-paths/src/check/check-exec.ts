import path from "node:path";
import { analyzeBash, type BashTarget } from "../bash/analyze-bash.ts";
import { expandGlob } from "../bash/expand-glob.ts";
import { widenZshPattern } from "../bash/zsh-extended-glob.ts";
import { allow, type Decision, deny } from "../decision.ts";
import { showPath } from "../paths/path-text.ts";
import type { Spelling } from "../paths/spellings.ts";
import { inOwnMount } from "../scan/expand-absolute.ts";
import { processPathOf, processPathProblem } from "./descriptor-paths.ts";
import { evaluatePath, type PathVerdict } from "./evaluate-path.ts";
import { hookGitRuns } from "./git-hooks-run.ts";
import { GlobTooSlow, withGlobBudget } from "./glob-budget.ts";
import {
  createdAround,
  isFolder,
  type LineCreation,
  type LineWrite,
  lineCreations,
  lineWrites,
  mayBecomeFolder,
} from "./line-creations.ts";
import type { PolicyContext } from "./policy-context.ts";
import { MAX_SCANNED_ENTRIES, scanBelow } from "./scan-below.ts";
import { trackedDenied } from "./tracked-reads.ts";

/** Claude Code's memory files: `CLAUDE.md`, `CLAUDE.local.md` and the rules in `.claude/rules`. */
function agentMemoryFile(absolute: string): boolean {
  return /(^|\/)CLAUDE(\.local)?\.md$/i.test(absolute) || /(^|\/)\.claude\/rules(\/|$)/.test(absolute);
}

/**
 * How `exec` effects are treated. "unconfined" is not a setting: it is how a command that no
 * sandbox will confine (another agent's, checked through its hooks) is decided.
 */
export type BashMode = "sandbox" | "analyze" | "unconfined" | "deny" | "allow";

/** Files a command may always write: they are streams, not files of the workspace. */
const STREAMS = /^\/(dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)|proc\/self\/fd\/\d+)$/;

interface TargetCheck {
  ctx: PolicyContext;
  target: BashTarget;
  spellings: Spelling[];
  /**
   * The pre-check of sandbox mode: only what a deny rule provably refuses counts; what cannot be
   * resolved, the workspace boundary, hard links and recursive scans are left to the sandbox.
   */
  precheck: boolean;
  /** Unconfined: reads that cannot be resolved are refused like writes. */
  strict: boolean;
  /** The command line makes symbolic links (`ln -s`): a source it moves may be one of them. */
  makesLinks?: boolean;
  /** Unconfined: where the line makes links or puts what may hold them (unseen by a scan of the disk). */
  creations: readonly LineCreation[];
  /** Unconfined: every place the line writes, by command. */
  writes: readonly LineWrite[];
}

function subjectOf(target: BashTarget, shown: string, pattern?: string): string {
  const via = pattern === undefined ? target.via : `${target.via}, matching ${showPath(pattern)}`;
  return `Bash ${target.access === "write" ? "write to" : "read of"} ${showPath(shown)} (${via})`;
}

function refused(subject: string, verdict: Extract<PathVerdict, { ok: false }>): Decision {
  return deny({ subject, why: verdict.why, rule: verdict.rule, spellings: verdict.spellings });
}

function unresolved(subject: string, cause: string, hint: string): Decision {
  const why = `${cause}, so it cannot be checked before the shell runs; ${hint}`;
  return deny({ subject, why, rule: "bash unresolved target" });
}

/** Everything below a recursively written (unconfined: also read) directory must be writable (readable) too. */
function checkBelow(check: TargetCheck, subject: string, reals: readonly string[], dir: string): Decision | undefined {
  const { ctx } = check;
  const rules = check.target.access === "write" ? ctx.rules.write : ctx.rules.read;
  for (const real of reals) {
    if (!ctx.fs.lstat(real)?.isDirectory) continue;
    // Unconfined, a read of a tree may follow its links (grep -R, diff, rg -L) out of it.
    const links = check.strict && check.target.access === "read";
    const scan = scanBelow(ctx, real, rules, { skipHidden: check.target.skipsHidden === true, links });
    if (scan && "tooMany" in scan) {
      const why = `it holds more than ${MAX_SCANNED_ENTRIES} entries, too many to check for protected files; name narrower paths`;
      return deny({ subject, why, rule: "bash recursive target" });
    }
    if (scan && "link" in scan) {
      const rel = path.relative(dir, scan.link);
      const why = `it contains the symbolic link ${showPath(rel.startsWith("..") ? scan.link : rel)}, which a read of the whole tree may follow out of it; name the files`;
      return deny({ subject, why, rule: "bash recursive target" });
    }
    if (scan) {
      const rel = path.relative(dir, scan.found);
      const shown = rel.startsWith("..") ? scan.found : rel;
      return deny({ subject, why: `it contains ${showPath(shown)}, and ${scan.rule.why}`, rule: scan.rule.label });
    }
  }
  return undefined;
}

/** True when cp/mv/ln/install put their sources inside `destination` rather than replacing it. */
function landsInside(check: TargetCheck, destination: string, dir: string): boolean {
  const { ctx, target } = check;
  if (!target.into) return false;
  if (target.into.forced || destination.endsWith("/")) return true;
  return isFolder(ctx, path.resolve(dir, destination));
}

/** cp/mv/ln/install into a directory: each source lands there under its basename. */
function checkInto(check: TargetCheck, destination: string, dir: string): Decision | undefined {
  const { ctx, target } = check;
  for (const source of target.into?.sources ?? []) {
    if (source.unresolved !== undefined) {
      if (check.precheck) continue;
      const cause = `the name it lands under depends on a ${source.unresolved}`;
      return unresolved(subjectOf(target, source.raw), cause, "spell the source path literally");
    }
    if (source.found) {
      // find's `{}` lands under the name of whatever file find finds: anything a rule protects
      // inside the destination (`find t -exec cp {} .git/ ;` makes .git/config).
      const options = { cwd: dir, expandHome: false, rulesOnly: check.precheck, through: true };
      const verdict = evaluatePath(ctx, "write", destination, options);
      if (!verdict.ok) return refused(subjectOf(target, destination), verdict);
      continue;
    }
    const names = expandGlob(source, { cwd: dir, fs: ctx.fs, folding: ctx.folding || check.strict }) ?? [source.text];
    for (const name of names) {
      const landed = path.join(destination, path.basename(name));
      const options = { cwd: dir, expandHome: false, rulesOnly: check.precheck, through: target.creates === true };
      const verdict = evaluatePath(ctx, "write", landed, options);
      if (!verdict.ok) return refused(subjectOf(target, landed), verdict);
      check.spellings.push(...verdict.views.spellings);
    }
  }
  return undefined;
}

/** Checks one expanded path of a target, relative to one possible working directory. */
function checkOne(check: TargetCheck, p: string, dir: string): Decision | undefined {
  const { ctx, target } = check;
  const writes = target.access === "write";
  const absolute = path.resolve(dir, p);
  if (check.strict && absolute === "/dev/null") return undefined;
  if (check.strict) {
    // A descriptor's path names what the shell opened (`grep -r x /dev/fd/9/ 9<.` reads the project,
    // `printf x 1<.git/config >/dev/stdout` writes a file opened read-only), not what this process has.
    const met = processPathOf(ctx, path.isAbsolute(p) ? p : `${dir}/${p}`);
    if (met !== undefined) {
      const why = processPathProblem(target, met);
      return why === undefined
        ? undefined
        : deny({ subject: subjectOf(target, p), why, rule: "bash unresolved target" });
    }
  } else if (STREAMS.test(absolute)) return undefined;
  // `/proc/self/cwd/…` resolves through the shell's own process (its cwd, its fds), not this one's.
  if (check.strict && writes && /^\/proc(\/|$)/.test(absolute)) {
    const why =
      "a /proc path resolves through the shell's own process, which the analysis cannot see; name the file directly";
    return deny({ subject: subjectOf(target, p), why, rule: "bash unresolved target" });
  }

  // Only git writes inside a repository's folder: a file written there by another command means
  // what git makes of it (`.git/index` names the files `git diff` reads), which the analysis does
  // not follow.
  if (check.strict && writes && insideGitFolder(ctx, absolute)) {
    const why =
      "only git itself may write inside a .git folder (git reads what is written there, such as the index, as its own state); use git to change it";
    return deny({ subject: subjectOf(target, p), why, rule: "bash write in .git" });
  }
  // Claude Code reads what a memory file imports (`@.env`) into the conversation by itself, unseen
  // by any hook: the agent's Write and Edit are checked for that, a shell write's text is not known.
  if (check.strict && writes && agentMemoryFile(absolute)) {
    const why =
      "Claude Code reads the files a memory file imports (@path) by itself, and what a shell command writes cannot be checked for them; use the Write or Edit tool";
    return deny({ subject: subjectOf(target, p), why, rule: "bash write to agent memory" });
  }
  // Moved or copied, a relative symbolic link points somewhere new (`ln -s hooks z/l; mv z/l .git/l`),
  // whether it lands at the destination or inside it (`mv x/w .`).
  const moved = check.strict && writes ? movedLinkProblem(check, dir) : undefined;
  if (moved) return deny({ subject: subjectOf(target, p), why: moved, rule: "bash moved link" });
  // Copying into a directory writes entries inside it, not the directory itself.
  if (writes && landsInside(check, p, dir)) return checkInto(check, p, dir);
  // Not a folder now, the destination may be one when the command runs (`mkdir .claude && cp
  // settings.json .claude`, or a folder the line moves there): where the sources would land is
  // checked too.
  const landed = writes && target.into !== undefined ? checkInto(check, p, dir) : undefined;
  if (landed) return landed;
  if (check.precheck) return precheckOne(check, p, dir);
  const subject = p === target.word.text ? subjectOf(target, p) : subjectOf(target, p, target.word.text);
  const verdict = evaluatePath(ctx, target.access, p, {
    cwd: dir,
    expandHome: false,
    through: target.creates === true,
  });
  if (!verdict.ok) return refused(subject, verdict);
  check.spellings.push(...verdict.views.spellings);
  const below = target.recursive && (writes || check.strict);
  // A read of a whole tree may follow a link the line makes inside it (`ln -s ../config src/c &&
  // grep -R x src`), which the scan of the disk below cannot see yet.
  const made = below && check.strict && !writes ? createdAround(ctx, { ...check, p, dir }) : undefined;
  if (made !== undefined) {
    const why = `the command line makes a symbolic link (or moves or copies what may hold one) at ${showPath(made)}, which a read of the whole tree may follow out of it; run it as its own command`;
    return deny({ subject, why, rule: "bash recursive target" });
  }
  if (check.strict && target.tracked) {
    const tracked = trackedDenied(ctx, dir, target.tracked === "everything");
    if (tracked && "unknown" in tracked) {
      const why = `git reads every file the repository tracks, and ${tracked.unknown}`;
      return deny({ subject, why, rule: "bash unresolved target" });
    }
    if (tracked && "below" in tracked) return checkBelow(check, subject, [tracked.below], dir);
    if (tracked) {
      const why = `git reads every file the repository tracks, and it tracks ${showPath(path.relative(dir, tracked.found))}: ${tracked.rule.why}`;
      return deny({ subject, why, rule: tracked.rule.label });
    }
  }
  return below ? checkBelow(check, subject, verdict.views.reals, dir) : undefined;
}

/** Sandbox mode: refuse a target only when a deny rule matches it (as given or where it lands). */
function precheckOne(check: TargetCheck, p: string, dir: string): Decision | undefined {
  const { ctx, target } = check;
  // In the sandbox /proc and /dev are its own: reading /proc/self/status is nobody else's.
  if (inOwnMount(path.resolve(dir, p))) return undefined;
  const verdict = evaluatePath(ctx, target.access, p, {
    cwd: dir,
    expandHome: false,
    rulesOnly: true,
    through: target.creates === true,
  });
  if (verdict.ok) return undefined;
  const subject = p === target.word.text ? subjectOf(target, p) : subjectOf(target, p, target.word.text);
  return refused(subject, verdict);
}

/** True when `absolute` lies inside a folder named `.git` (as written, or where its links lead). */
function insideGitFolder(ctx: PolicyContext, absolute: string): boolean {
  const named = (p: string) => {
    const segments = path.normalize(p).split(path.sep);
    return segments.slice(0, -1).some((s) => (ctx.folding ? s.toLowerCase() : s) === ".git");
  };
  if (named(absolute)) return true;
  const parent = ctx.fs.realpath(path.dirname(absolute));
  return parent !== undefined && named(path.join(parent, path.basename(absolute)));
}

/**
 * The first folder of `text` (relative to `dir`) that a `..` climbs out of while it does not exist
 * now, or `undefined`: what the `..` then means depends on what the command makes there.
 */
function climbAfterMissing(ctx: PolicyContext, text: string, dir: string): string | undefined {
  const segments = text.split("/");
  let at = path.isAbsolute(text) ? "/" : dir;
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (ctx.fs.lstat(at) === undefined) return at;
      at = path.dirname(at);
    } else at = path.join(at, segment);
  }
  return undefined;
}

/**
 * Why an `mv` or recursive `cp` destination cannot be checked unconfined: a source that is a
 * relative symbolic link, a tree holding one, or a source that does not exist before the command
 * runs (this line may make the link): moved, its target text means a new place.
 */
function movedLinkProblem(check: TargetCheck, dir: string): string | undefined {
  const { ctx, target } = check;
  // `from` is set for mv and cp destinations only.
  if (target.creates !== true || target.from === undefined) return undefined;
  for (const source of target.from ?? []) {
    if (source.unresolved !== undefined || source.glob !== undefined) continue;
    const at = path.resolve(dir, source.text);
    const info = ctx.fs.lstat(at);
    if (info === undefined && check.makesLinks) {
      return `it moves or copies ${showPath(source.text)}, which does not exist before the command runs (a link made there would point elsewhere once moved)`;
    }
    const made = createdAround(ctx, { ...check, p: source.text, dir });
    if (made !== undefined) {
      return `it moves or copies ${showPath(source.text)}, where the command line makes a symbolic link (or moves or copies what may hold one) at ${showPath(made)}, which then may point somewhere else`;
    }
    if (info === undefined) continue;
    if (info.isSymbolicLink && !(ctx.fs.readlink(at) ?? "/").startsWith("/")) {
      return `it moves or copies the relative symbolic link ${showPath(source.text)}, which then points somewhere else`;
    }
    if (info.isDirectory) {
      const scan = scanBelow(ctx, at, [], { links: true });
      if (scan && "link" in scan) {
        return `it moves or copies a folder holding the symbolic link ${showPath(scan.link)}, which then may point somewhere else`;
      }
      if (scan && "tooMany" in scan) return `it moves or copies a folder too large to check for symbolic links`;
    }
  }
  return undefined;
}

/** Why a glob means more under an option of the agent's shell than the analysis expands, if it does. */
function shellGlobOptionProblem(glob: string | undefined): string | undefined {
  if (glob === undefined || !glob.split("/").includes("**")) return undefined;
  return "its ** walks every folder below where the shell's globstar option is on";
}

function checkTarget(check: TargetCheck): Decision | undefined {
  const { ctx, target } = check;
  const { word } = target;
  const refuseUnknown = (target.access === "write" || check.strict) && !check.precheck;
  const subject = subjectOf(target, word.unresolved === undefined ? word.text : word.raw);
  if (word.unresolved !== undefined) {
    return refuseUnknown
      ? unresolved(subject, `its value depends on a ${word.unresolved}`, "spell the path literally")
      : undefined;
  }
  if (target.cwd.unknown && !path.isAbsolute(word.text)) {
    const cause = "it is relative to a directory a cd chose at run time";
    return refuseUnknown ? unresolved(subject, cause, "use an absolute path") : undefined;
  }
  for (const dir of target.cwd.dirs) {
    // A link put into `ln`'s destination only when that is a folder already.
    // Unconfined, also when another command of the line may make it one (`mkdir d && ln -s ../.git/hooks d`).
    if (
      target.onlyIfFolder !== undefined &&
      !isFolder(ctx, path.resolve(dir, target.onlyIfFolder)) &&
      !(check.strict && mayBecomeFolder(ctx, { writes: check.writes, target, p: target.onlyIfFolder, dir }))
    ) {
      continue;
    }
    // `..` after a folder that does not exist yet: the line may make it a link (`ln -s .. a/b/l`,
    // then `a/b/l/..` is the project), which the kernel follows and a path's text cannot.
    const climb = check.strict ? climbAfterMissing(ctx, word.text, dir) : undefined;
    if (climb !== undefined) {
      const cause = `it climbs with .. out of ${showPath(climb)}, which does not exist before the command runs (a link made there would lead elsewhere)`;
      return refuseUnknown ? unresolved(subject, cause, "spell the path without ..") : undefined;
    }
    // Unconfined, the agent's shell may have the user's glob options (Claude Code carries them
    // over): nocaseglob, so matching folds case; globstar, under which `**` walks the whole tree
    // (nullglob: see the analysis' vanishingGlob).
    const shellOption = check.strict ? shellGlobOptionProblem(word.glob) : undefined;
    if (shellOption !== undefined) return unresolved(subject, shellOption, "name the files literally");
    // zsh with EXTENDED_GLOB (a user's option Claude Code carries over) reads `^`, `~` and `#` as
    // pattern characters: `cat .^x` prints .env. Unconfined, the word is checked as wide as that.
    const pattern = check.strict ? widenZshPattern(word) : word;
    if (pattern === undefined) {
      const cause =
        "with zsh's EXTENDED_GLOB option an unquoted ^, ~ or # makes it a pattern this analysis cannot bound";
      return unresolved(subject, cause, "quote the ^, ~ or #");
    }
    const paths = expandGlob(pattern, { cwd: dir, fs: ctx.fs, folding: ctx.folding || check.strict });
    if (paths === undefined) {
      const cause = "a directory in it is a glob pattern";
      return refuseUnknown ? unresolved(subject, cause, "name the files literally") : undefined;
    }

    for (const p of paths) {
      const decision = checkOne(check, p, dir);
      if (decision) return decision;
    }
  }
  return undefined;
}

/**
 * Checks an `exec` effect. "allow" skips it, "deny" refuses every command, "analyze" checks every
 * path the best-effort analysis finds with the same rules as read/write effects, "sandbox" is the
 * quick pre-check before the sandbox runs the command.
 * Contract: "analyze" refuses commands that cannot be parsed, whose command name or write targets
 * depend on run-time values, and recursive writes over a directory holding a protected path.
 * "sandbox" refuses only targets a deny rule matches (for a precise reason) and lets everything
 * it cannot resolve through: the sandbox, not the analysis, is the guarantee. "unconfined" is
 * "analyze" that also refuses unresolved reads and every command whose effects it does not model.
 * Every mode but "allow" and "deny" refuses a command whose globs take longer than the glob budget
 * to match (`GlobTooSlow`): what they name cannot be known.
 */
export function checkExec(ctx: PolicyContext, options: { mode: BashMode; command: unknown }): Decision {
  if (options.mode === "allow") return allow();
  const subject = "Bash command";
  const precheck = options.mode === "sandbox";
  const strict = options.mode === "unconfined";
  if (options.mode === "deny") {
    const why = 'shell commands are disabled by the path policy (bash: "deny"); use the file tools instead';
    return deny({ subject, why, rule: "bash deny" });
  }
  const { command } = options;
  if (typeof command !== "string") {
    return deny({ subject, why: "the command is not a string", rule: "non-string command" });
  }
  try {
    return withGlobBudget(() => decideCommand(ctx, { command, precheck, strict }));
  } catch (error) {
    if (!(error instanceof GlobTooSlow)) throw error;
    return deny({ subject, why: error.message, rule: "bash glob too slow" });
  }
}

/** The analysis of one command line and the check of every target it found (see `checkExec`). */
function decideCommand(ctx: PolicyContext, options: { command: string; precheck: boolean; strict: boolean }): Decision {
  const { precheck, strict } = options;
  const subject = "Bash command";
  const spellings: Spelling[] = [];
  const listDir = (dir: string) => ctx.fs.readdir(dir)?.map((entry) => entry.name);
  // Unconfined, the command runs in the agent's shell, which inherits this environment's CDPATH.
  const cdpath = strict && (process.env.CDPATH ?? "") !== "";
  const gitHook = (sub: string) => hookGitRuns(ctx, sub);
  const analysis = analyzeBash(options.command, {
    cwd: ctx.cwd,
    home: ctx.home,
    unconfined: strict,
    listDir,
    cdpath,
    gitHook,
    ...(strict ? { isFolder: (p: string) => isFolder(ctx, p) } : {}),
  });
  const makesLinks = analysis.some((f) => f.kind === "target" && f.via === "link target");
  const creations = strict ? lineCreations(ctx, analysis) : [];
  const writes = strict ? lineWrites(ctx, analysis) : [];
  for (const finding of analysis) {
    if (finding.kind === "problem") {
      // In sandbox mode what the analysis cannot follow runs confined; it is not a reason to refuse.
      if (precheck) continue;
      return deny({ subject, why: finding.why, rule: finding.rule });
    }
    const decision = checkTarget({ ctx, target: finding, spellings, precheck, strict, makesLinks, creations, writes });
    if (decision) return decision;
  }
  return allow(spellings);
}
