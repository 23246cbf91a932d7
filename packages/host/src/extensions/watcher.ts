import { existsSync } from "node:fs";
import { dirname, isAbsolute, relative, sep } from "node:path";
import type { FSWatcher } from "chokidar";
import { readyResolver } from "../common/resolver-stat.ts";

/** A running watch; `ready` resolves once the initial scan is done, so no edit is missed after it. */
export interface ExtensionWatcher {
  ready: Promise<void>;
  /** Watches these roots from now on (e.g. files a reloaded extension now imports). */
  setRoots(roots: readonly string[]): void;
  close(): Promise<void>;
}

/** Folders that change during a run but hold no extension code or settings. */
const NOISY = [`${sep}audit${sep}`, `${sep}sessions${sep}`, `${sep}node_modules${sep}`, `${sep}.git${sep}`];

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/**
 * Watches the given roots (folders or files that may not exist yet) and calls `onChange` once per
 * burst of changes.
 * Why nearest existing ancestors: chokidar reports "ready" early and misses edits when asked to
 * watch a path that does not exist, so each root is watched through its nearest existing
 * ancestor, with a filter that keeps the watcher out of every unrelated subtree.
 * Contract: changes within `debounceMs` produce one call; audit logs, sessions, node_modules and
 * .git never trigger one.
 */
export function watchExtensions(initial: readonly string[], onChange: () => void, debounceMs = 100): ExtensionWatcher {
  let timer: NodeJS.Timeout | undefined;
  let roots = [...initial];
  const basesOf = (list: readonly string[]) =>
    [...new Set(list.map(nearestExisting))].filter(
      (base, _i, all) => !all.some((other) => other !== base && isInside(other, base)),
    );
  const relevant = (path: string) => roots.some((root) => isInside(root, path) || isInside(path, root));
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  let closed = false;
  // chokidar is loaded only by a host that watches (a one-shot command never pays for it); the
  // roots are read when it starts, so a `setRoots` before that is not lost.
  readyResolver();
  const started: Promise<FSWatcher | undefined> = import("chokidar").then(({ watch }) => {
    if (closed) return undefined;
    const watcher = watch(basesOf(roots), {
      ignoreInitial: true,
      ignored: (path) => !relevant(path) || NOISY.some((part) => `${path}${sep}`.includes(part)),
    });
    for (const event of ["add", "change", "unlink", "addDir", "unlinkDir"] as const) watcher.on(event, fire);
    return watcher;
  });
  const ready = started.then(
    (watcher) => watcher && new Promise<void>((resolve) => watcher.once("ready", () => resolve())),
  );
  return {
    ready,
    setRoots(next) {
      const added = next.filter((root) => !roots.includes(root));
      roots = [...next];
      if (added.length > 0) void started.then((watcher) => watcher?.add(basesOf(added)));
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await (await started)?.close();
    },
  };
}
