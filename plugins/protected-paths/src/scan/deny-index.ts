import type { Stats } from "node:fs";
import path from "node:path";
import type { DenyRule, MatchView } from "../rules/deny-rule.ts";
import type { PolicyRules } from "../rules/policy-rules.ts";
import { chmodAt, lstatAt, type RawEntry, readdirAt, readlinkAt, statAt } from "./raw-fs.ts";

/** Who a path is: what a swap, a rename or a new file changes. */
export interface Identity {
  dev: number;
  ino: number;
  /** Hard links to it. */
  nlink: number;
  kind: "file" | "dir" | "link" | "other";
  /** For a symlink: its target text and who the target is (undefined when it dangles). */
  link?: { target: string; resolved: { dev: number; ino: number } | undefined };
}

/** An existing path that a deny rule matches. */
export interface DenyMatch {
  path: string;
  /** The first write rule that matches it, unless a protected directory above already covers it. */
  write?: DenyRule;
  /** The write rule protects everything below it too (`dir/**`); otherwise only the entry itself. */
  writeCoversContents: boolean;
  /** The first read rule that matches it, unless a protected directory above already covers it. */
  read?: DenyRule;
  identity: Identity;
}

/** What one directory was when it was last read. */
interface DirState {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Modified so recently that a later change could leave the same timestamp: read it again next time. */
  racy: boolean;
  /** Rules that protect this directory and everything below it. */
  inherited: { write?: DenyRule | undefined; read?: DenyRule | undefined };
  /** Full paths of the matches among its entries and of its subdirectories, as last read. */
  matched: Set<string>;
  subdirs: Set<string>;
}

/**
 * Directories the index does not enter: what a package manager owns. Installs must be able to
 * replace anything in them (a package may ship a `.env.example`), so the sandbox neither mounts
 * nor reviews what lies there; the file tools still apply every rule inside them.
 */
export const DEPENDENCY_DIRS: ReadonlySet<string> = new Set(["node_modules"]);

/** Timestamps closer than this to the scan may not change again visibly (coarse kernel clocks). */
const RACY_MS = 1000;

function kindOf(st: Stats): Identity["kind"] {
  if (st.isSymbolicLink()) return "link";
  if (st.isDirectory()) return "dir";
  return st.isFile() ? "file" : "other";
}

/** What a failed filesystem call says, for the record of what the index could not read. */
function failure(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/**
 * The entries of a directory, or the error that kept it from being read. One its owner cannot
 * read (a command ran `chmod 000` on a directory it made, to hide what it put inside) gets its
 * owner's read and search bits back and is read again: every directory a sandboxed command can
 * create belongs to the user Gatehouse runs as. A directory that is gone has no entries.
 */
function listDir(dir: string, st: Stats): RawEntry[] | { error: string } {
  try {
    return readdirAt(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    if (code !== "EACCES") return { error: failure(error) };
  }
  try {
    chmodAt(dir, (st.mode & 0o7777) | 0o500);
    return readdirAt(dir);
  } catch (error) {
    return { error: failure(error) };
  }
}

/**
 * Reads who `p` is now, without following it (and, for a symlink, who its target is).
 * Contract: undefined when nothing is there; throws when the entry cannot be examined (the caller
 * records it as unreadable rather than taking it for absent). Any path length, any bytes in names.
 */
export function identityOf(p: string): Identity | undefined {
  const st = lstatAt(p);
  if (!st) return undefined;
  const identity: Identity = { dev: st.dev, ino: st.ino, nlink: st.nlink, kind: kindOf(st) };
  if (identity.kind === "link") {
    // Gone between lstat and readlink: the next scan sees it.
    const target = readlinkAt(p) ?? "";
    const through = statAt(p);
    identity.link = { target, resolved: through ? { dev: through.dev, ino: through.ino } : undefined };
  }
  return identity;
}

/** `identityOf`, or undefined where it throws (for callers that only compare). */
export function identityOrNone(p: string): Identity | undefined {
  try {
    return identityOf(p);
  } catch {
    return undefined;
  }
}

/**
 * Every existing path under the workspace roots that a deny rule matches, kept current by
 * re-reading only the directories whose timestamps changed since the last scan.
 * Contract: `refresh()` is synchronous (no other code runs while it scans) and afterwards
 * `matches()` reflects the tree as it was during the scan. A directory is re-read when its
 * mtime, ctime or inode changed, or when it was modified within a second of the previous scan
 * (a same-tick change would keep its timestamp). Symlinks are recorded, never followed. The
 * first scan reads the whole tree, `.git` included (deny rules match at any depth), except
 * `DEPENDENCY_DIRS` below the roots.
 */
export class DenyIndex {
  readonly #roots: readonly string[];
  readonly #rules: PolicyRules;
  readonly #view: (absolute: string) => MatchView;
  readonly #fold: (name: string) => string;
  readonly #dirs = new Map<string, DirState>();
  readonly #matches = new Map<string, DenyMatch>();
  /** Paths the last scans could not read or examine, with why: what is there is unknown. */
  readonly #unreadable = new Map<string, string>();
  #scanned = false;
  /** Bumped whenever a directory is (re-)read: what the index knows may have changed. */
  #version = 0;
  #aliases: { key: string; version: number; found: { path: string; file: string }[] } | undefined;

  constructor(options: {
    roots: readonly string[];
    rules: PolicyRules;
    view: (absolute: string) => MatchView;
    folding: boolean;
  }) {
    this.#roots = [...new Set(options.roots)];
    this.#rules = options.rules;
    this.#view = options.view;
    this.#fold = options.folding ? (n) => n.normalize("NFC").toLowerCase() : (n) => n.normalize("NFC");
  }

  /** The matches as of the last refresh. */
  matches(): DenyMatch[] {
    return [...this.#matches.values()];
  }

  /**
   * Paths the index could not read (a folder) or examine (an entry) at the last refresh, with the
   * error: what lies there is unknown, so a review must not take it for unchanged.
   */
  unreadable(): ReadonlyMap<string, string> {
    return new Map(this.#unreadable);
  }

  /**
   * The names (hard links) in the indexed tree of the given files, by `dev:ino` (the protected
   * names themselves included).
   * Contract: reads every indexed directory, but only when a directory changed since the last
   * answer for the same files; a new hard link always changes the directory it is made in.
   */
  aliasesOf(files: ReadonlySet<string>): { path: string; file: string }[] {
    if (files.size === 0) return [];
    const key = [...files].sort().join(",");
    if (this.#aliases?.key === key && this.#aliases.version === this.#version) return this.#aliases.found;
    const found: { path: string; file: string }[] = [];
    for (const dir of this.#dirs.keys()) {
      let entries: RawEntry[];
      try {
        entries = readdirAt(dir);
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const full = path.join(dir, entry.name);
        let st: Stats | undefined;
        try {
          st = lstatAt(full);
        } catch {
          continue;
        }
        const file = st && st.nlink > 1 ? `${st.dev}:${st.ino}` : undefined;
        if (file !== undefined && files.has(file)) found.push({ path: full, file });
      }
    }
    this.#aliases = { key, version: this.#version, found };
    return found;
  }

  /** Brings the index up to date with the filesystem. */
  refresh(): void {
    const now = Date.now();
    if (!this.#scanned) {
      this.#scanned = true;
      for (const root of this.#roots) this.#scanRoot(root, now);
      return;
    }
    for (const [dir, state] of [...this.#dirs]) {
      if (this.#dirs.get(dir) !== state) continue; // replaced or dropped earlier in this pass
      let st: Stats | undefined;
      try {
        st = lstatAt(dir);
      } catch (error) {
        // Unknown now: read again at the next refresh; what the index knew below it stays.
        this.#unreadable.set(dir, failure(error));
        state.racy = true;
        continue;
      }
      if (!st?.isDirectory() || st.ino !== state.ino || st.dev !== state.dev) {
        this.#drop(dir);
        if (this.#roots.includes(dir)) this.#scanRoot(dir, now);
        continue;
      }
      if (state.racy || st.mtimeMs !== state.mtimeMs || st.ctimeMs !== state.ctimeMs) this.#reread(dir, st, now);
    }
  }

  #scanRoot(root: string, now: number): void {
    let st: Stats | undefined;
    try {
      st = lstatAt(root);
    } catch (error) {
      this.#unreadable.set(root, failure(error));
      return;
    }
    if (!st?.isDirectory()) return;
    // A root that lies inside a protected directory inherits its rules.
    const view = this.#view(root);
    const write = this.#rules.write.find((r) => r.matches(view));
    const read = this.#rules.read.find((r) => r.matches(view));
    this.#scanDir(root, st, { write, read }, now);
  }

  /** Reads a directory the index did not know (or no longer trusts) and everything below it. */
  #scanDir(dir: string, st: Stats, inherited: DirState["inherited"], now: number): void {
    const queue: { dir: string; st: Stats; inherited: DirState["inherited"] }[] = [{ dir, st, inherited }];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const sub of this.#readDir(next.dir, next.st, next.inherited, now)) queue.push(sub);
    }
  }

  /** Re-reads one changed directory: its own entries are re-matched; new subdirectories are scanned. */
  #reread(dir: string, st: Stats, now: number): void {
    const state = this.#dirs.get(dir)!;
    for (const sub of this.#readDir(dir, st, state.inherited, now)) {
      const known = this.#dirs.get(sub.dir);
      if (known && known.ino === sub.st.ino && known.dev === sub.st.dev) continue;
      this.#drop(sub.dir);
      this.#scanDir(sub.dir, sub.st, sub.inherited, now);
    }
  }

  /**
   * Records one directory and the matches among its entries; returns its subdirectories (with
   * what they inherit) for the caller to scan. Entries that vanished since the last read are forgotten.
   */
  #readDir(
    dir: string,
    st: Stats,
    inherited: DirState["inherited"],
    now: number,
  ): { dir: string; st: Stats; inherited: DirState["inherited"] }[] {
    const listed = listDir(dir, st);
    const entries = Array.isArray(listed) ? listed : [];
    this.#version += 1;
    const before = this.#dirs.get(dir);
    // A folder that could not be read is read again at every refresh until it can be.
    const racy = !Array.isArray(listed) || now - st.mtimeMs < RACY_MS || now - st.ctimeMs < RACY_MS || st.mtimeMs > now;
    this.#forgetUnreadable(dir);
    if (!Array.isArray(listed)) this.#unreadable.set(dir, listed.error);
    const state: DirState = {
      dev: st.dev,
      ino: st.ino,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      racy,
      inherited,
      matched: new Set(),
      subdirs: new Set(),
    };
    this.#dirs.set(dir, state);
    const subdirs: { dir: string; st: Stats; inherited: DirState["inherited"] }[] = [];
    for (const entry of entries) {
      // Only dependency folders of the project: one inside `.git` (`.git/modules/node_modules/hooks`)
      // is the repository's own, and every rule applies there.
      if (DEPENDENCY_DIRS.has(entry.name) && entry.isDirectory() && !this.#insideGit(dir)) continue;
      const full = path.join(dir, entry.name);
      let found: DenyMatch | undefined;
      let sub: Stats | undefined;
      try {
        found = this.#match(full, entry.name, inherited, entry.isSymbolicLink());
        sub = entry.isDirectory() ? lstatAt(full) : undefined;
      } catch (error) {
        // One entry that cannot be examined never stops the scan: it is recorded as unknown.
        this.#unreadable.set(full, failure(error));
        continue;
      }
      if (found) {
        this.#matches.set(full, found);
        state.matched.add(full);
      }
      if (!sub?.isDirectory()) continue;
      state.subdirs.add(full);
      const write = found?.write && found.writeCoversContents ? found.write : inherited.write;
      const read = found?.read ?? inherited.read;
      subdirs.push({ dir: full, st: sub, inherited: { write, read } });
    }
    // What was here at the last read and is gone (or no longer matches) is forgotten.
    for (const known of before?.matched ?? []) if (!state.matched.has(known)) this.#matches.delete(known);
    for (const known of before?.subdirs ?? []) if (!state.subdirs.has(known)) this.#drop(known);
    return subdirs;
  }

  /** Whether `dir` is or lies inside a folder named `.git` (as the filesystem compares names). */
  #insideGit(dir: string): boolean {
    return dir.split(path.sep).some((segment) => this.#fold(segment) === this.#fold(".git"));
  }

  #match(full: string, name: string, inherited: DirState["inherited"], link: boolean): DenyMatch | undefined {
    const folded = this.#fold(name);
    let view: MatchView | undefined;
    const test = (rule: DenyRule) => {
      if (!rule.nameMayMatch(folded)) return false;
      view ??= this.#view(full);
      return rule.subtree ? rule.matchesRoot(view) : rule.matches(view);
    };
    // A symbolic link where a rule protects something inside (`.claude -> elsewhere` for
    // `.claude/settings.json`) leads writes of the protected name elsewhere: it is protected itself.
    const through = (rule: DenyRule) => {
      view ??= this.#view(full);
      return rule.reachesThrough(view);
    };
    const write = inherited.write
      ? undefined
      : (this.#rules.write.find(test) ?? (link ? this.#rules.write.find(through) : undefined));
    const read = inherited.read ? undefined : this.#rules.read.find(test);
    if (!write && !read) return undefined;
    const identity = identityOf(full);
    if (!identity) return undefined;
    const match: DenyMatch = { path: full, writeCoversContents: write?.subtree === true, identity };
    if (write) match.write = write;
    if (read) match.read = read;
    return match;
  }

  /** Forgets what was unreadable directly in `dir` (it is being read again). */
  #forgetUnreadable(dir: string): void {
    for (const known of this.#unreadable.keys()) {
      if (known === dir || path.dirname(known) === dir) this.#unreadable.delete(known);
    }
  }

  /** Forgets a directory and everything the index knew below it. */
  #drop(dir: string): void {
    const state = this.#dirs.get(dir);
    if (!state) return;
    this.#dirs.delete(dir);
    this.#forgetUnreadable(dir);
    for (const known of state.matched) this.#matches.delete(known);
    for (const sub of state.subdirs) this.#drop(sub);
  }
}
