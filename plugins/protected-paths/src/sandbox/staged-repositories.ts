import { lstatSync } from "node:fs";
import path from "node:path";
import { DEPENDENCY_DIRS } from "../scan/deny-index.ts";
import { runHostGit } from "../scan/host-git.ts";
import { decodeName, lstatAt } from "../scan/raw-fs.ts";

/** Git's quoting of a path (core.quotePath: `"w\\377/x"`, C escapes and octal bytes), as the path it names. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"')) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i] as string;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return decodeName(Buffer.from(bytes));
}

/** What `.git/index` of a workspace root was, to tell whether something staged in the meantime. */
export function indexStamp(root: string): string | undefined {
  const st = lstatSync(path.join(root, ".git", "index"), { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
}

/**
 * The folders of the submodule entries (gitlinks, mode 160000) that the index of `root` stages
 * inside a dependency folder (`node_modules/x`). The sandbox does not review `node_modules`, so a
 * command could plant a repository at such a folder (with a `core.fsmonitor`) — git run in the
 * project later enters it and runs its configuration.
 * Contract: asks the host's git (`ls-files -s`, which reads the index and runs nothing the agent
 * wrote: the project's `.git/config` is protected); no git, or no repository, gives none.
 */
export function stagedDependencyFolders(root: string): string[] {
  // Quoted, one per line (not -z): the output is read as text, and a name that is not UTF-8 would
  // lose its bytes; git's quoting spells every byte out.
  const listed = runHostGit(["-c", "core.quotePath=true", "ls-files", "-s"], { cwd: root });
  if (listed?.status !== 0 || typeof listed.stdout !== "string") return [];
  const found: string[] = [];
  for (const entry of listed.stdout.split("\n")) {
    const tab = entry.indexOf("\t");
    if (tab === -1 || !entry.startsWith("160000 ")) continue;
    const rel = unquote(entry.slice(tab + 1));
    if (rel.split("/").some((segment) => DEPENDENCY_DIRS.has(segment))) found.push(path.join(root, rel));
  }
  return found;
}

/** Whether a folder holds a repository of its own (a `.git` folder or file). */
function hasRepository(folder: string): boolean {
  try {
    return lstatAt(path.join(folder, ".git")) !== undefined;
  } catch {
    return true; // cannot be examined: taken for one (fail closed)
  }
}

/**
 * Watches the submodule entries a workspace root stages in dependency folders, across the runs of
 * one planner: `before()` when a run starts, `planted(snapshot)` after it — the `.git` of every such
 * entry that has a repository now and had none when the run started (or was staged by the run). So
 * staging first and planting the repository in a later command is caught too.
 * Contract: asks git again only when the index changed since it last did.
 */
export class StagedDependencies {
  #stamp: string | undefined | null = null;
  #folders: string[] = [];

  constructor(readonly root: string) {}

  #fresh(): string[] {
    const stamp = indexStamp(this.root);
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#folders = stamp === undefined ? [] : stagedDependencyFolders(this.root);
    }
    return this.#folders;
  }

  /** The staged folders that hold a repository as a run starts. */
  before(): ReadonlySet<string> {
    return new Set(this.#fresh().filter(hasRepository));
  }

  /** The `.git` of each staged folder that holds a repository it did not hold at `before`. */
  planted(before: ReadonlySet<string>): string[] {
    return this.#fresh()
      .filter((folder) => !before.has(folder) && hasRepository(folder))
      .map((folder) => path.join(folder, ".git"));
  }
}
