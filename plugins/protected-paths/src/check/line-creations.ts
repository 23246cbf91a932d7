import path from "node:path";
import type { BashFinding, BashTarget } from "../bash/analyze-bash.ts";
import type { ShellWord } from "../bash/shell-word.ts";
import type { PolicyContext } from "./policy-context.ts";
import { scanBelow } from "./scan-below.ts";

/** A place where the command line puts a symbolic link, or a folder that may hold one. */
export interface LineCreation {
  /** Absolute, as written and with its existing part resolved. */
  paths: readonly string[];
  /** The target that makes it (a target's own creation does not count against it). */
  origin: BashTarget;
}

/** `inner` is `outer` or lies below it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** `p` with its longest existing part replaced by its real path (where the kernel will put it). */
function resolvedLike(ctx: PolicyContext, p: string): string {
  let existing = p;
  const rest: string[] = [];
  for (; existing !== path.dirname(existing); existing = path.dirname(existing)) {
    const real = ctx.fs.realpath(existing);
    if (real !== undefined) return path.join(real, ...rest);
    rest.unshift(path.basename(existing));
  }
  return p;
}

/** The part of a word before its first glob pattern (all of it when it has none). */
function literalPart(word: ShellWord): string {
  if (word.glob === undefined) return word.text;
  const segments = word.glob.split("/");
  const first = segments.findIndex((s) => /[*?[\]\\{}!+@]/.test(s));
  return segments.slice(0, first).join("/") || (word.glob.startsWith("/") ? "/" : ".");
}

/** Absolute forms of `text` in `dir`: as written, and where the kernel will put it. */
function placesOf(ctx: PolicyContext, text: string, dir: string): string[] {
  const absolute = path.resolve(dir, text);
  return [absolute, resolvedLike(ctx, absolute)];
}

/** Whether `p` is a folder, or a link that leads to one (`ln` and `cp` put entries inside either). */
export function isFolder(ctx: PolicyContext, p: string): boolean {
  const real = ctx.fs.realpath(p);
  return real !== undefined && ctx.fs.lstat(real)?.isDirectory === true;
}

/** The entries an `ln`/`mv`/`cp` destination makes: inside it when it is a folder already. */
function madePaths(ctx: PolicyContext, target: BashTarget, dir: string): string[] {
  const { word } = target;
  const dest = literalPart(word);
  if (word.glob !== undefined || target.into === undefined || !isFolder(ctx, path.resolve(dir, dest))) {
    return placesOf(ctx, dest, dir);
  }
  return target.into.sources.flatMap((source) =>
    source.unresolved !== undefined || source.glob !== undefined || source.found
      ? placesOf(ctx, dest, dir)
      : placesOf(ctx, path.join(dest, path.basename(source.text)), dir),
  );
}

/** `a` and `b` overlap: one lies at or below the other. */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => within(x, y) || within(y, x)));
}

/**
 * Whether what `target` moves or copies may be, or hold, a symbolic link: a source that is one,
 * a folder holding one, a source that does not exist before the line runs, or one at or around
 * another creation of the line.
 */
function bringsLinks(ctx: PolicyContext, target: BashTarget, others: readonly LineCreation[]): boolean {
  if (target.via === "ln destination") return true;
  for (const source of target.from ?? []) {
    if (source.unresolved !== undefined || source.glob !== undefined) return true;
    for (const dir of target.cwd.dirs) {
      const at = path.resolve(dir, source.text);
      if (others.some((c) => c.origin !== target && overlaps(c.paths, placesOf(ctx, source.text, dir)))) {
        return true;
      }
      const info = ctx.fs.lstat(at);
      if (info === undefined || info.isSymbolicLink) return true;
      if (info.isDirectory && scanBelow(ctx, at, [], { links: true }) !== undefined) return true;
    }
  }
  return false;
}

/**
 * Where the line makes symbolic links or puts entries that may be or hold them (`ln`, `mv`, a
 * recursive or link-keeping `cp`): a scan of the disk before the line runs does not see them.
 * Contract: wherever the commands stand on the line (a loop may run a later one first); a move
 * of plain files and folders without links is no creation.
 */
export function lineCreations(ctx: PolicyContext, findings: readonly BashFinding[]): LineCreation[] {
  const candidates = findings.filter(
    (f): f is BashTarget =>
      f.kind === "target" && f.access === "write" && f.creates === true && f.via !== "link target",
  );
  const creations: LineCreation[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    for (const target of candidates) {
      if (creations.some((c) => c.origin === target) || !bringsLinks(ctx, target, creations)) continue;
      const paths = target.cwd.dirs.flatMap((dir) => madePaths(ctx, target, dir));
      creations.push({ paths, origin: target });
      changed = true;
    }
  }
  return creations;
}

/**
 * The first place another target of the line makes a link at, inside or around `p` (in `dir`),
 * or `undefined`.
 */
export function createdAround(
  ctx: PolicyContext,
  options: { creations: readonly LineCreation[]; target: BashTarget; p: string; dir: string },
): string | undefined {
  const places = placesOf(ctx, options.p, options.dir);
  for (const creation of options.creations) {
    if (creation.origin === options.target) continue;
    const hit = creation.paths.find((c) => places.some((p) => within(c, p) || within(p, c)));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Where the line writes anything, by command: what may make a folder that does not exist yet. */
export interface LineWrite {
  paths: readonly string[];
  command: number;
}

/** Every place the line writes (for an `ln`/`cp`/`mv` destination: also inside it). */
export function lineWrites(ctx: PolicyContext, findings: readonly BashFinding[]): LineWrite[] {
  return findings
    .filter((f): f is BashTarget => f.kind === "target" && f.access === "write" && f.via !== "link target")
    .map((target) => ({
      paths: target.cwd.dirs.flatMap((dir) => placesOf(ctx, literalPart(target.word), dir)),
      command: target.command,
    }));
}

/**
 * Whether another command of the line may make `p` (in `dir`) a folder: it writes at or below it
 * (`mkdir .claude`, `mkdir -p d/e`, `mv x d`, `ln -s dir d`).
 */
export function mayBecomeFolder(
  ctx: PolicyContext,
  options: { writes: readonly LineWrite[]; target: BashTarget; p: string; dir: string },
): boolean {
  const places = placesOf(ctx, options.p, options.dir);
  return options.writes.some(
    (w) => w.command !== options.target.command && w.paths.some((c) => places.some((p) => within(c, p))),
  );
}
