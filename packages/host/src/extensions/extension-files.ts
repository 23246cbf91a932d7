import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { readRegularFile } from "../common/read-regular-file.ts";
import type { DiscoveredExtension } from "./discovery.ts";

const MAX_FILES = 2000;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (out.length >= MAX_FILES) return;
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(path, out);
    } else if (stat.isFile()) out.push(path);
  }
}

/**
 * The files whose content an extension's behaviour depends on: what trust hashes and what a
 * reload compares. A single file dropped into an extensions folder also depends on the helper
 * folders next to it (subfolders that are not extensions themselves); a folder extension on all
 * its files; a package on its entry and manifest.
 */
export function extensionFiles(d: DiscoveredExtension, isExtensionFolder: (dir: string) => boolean): string[] {
  if (!d.entry || !d.root) return [];
  const rootStat = statSync(d.root, { throwIfNoEntry: false });
  if (!rootStat?.isDirectory()) return [d.entry];
  if (d.root.includes(`${"node_modules"}`)) return [d.entry, join(d.root, "package.json")];
  if (dirname(d.entry) === d.root && (d.origin === "project-folder" || d.origin === "user-folder")) {
    const files = [d.entry];
    for (const name of readdirSync(d.root).sort()) {
      const path = join(d.root, name);
      if (
        !SKIP_DIRS.has(name) &&
        statSync(path, { throwIfNoEntry: false })?.isDirectory() &&
        !isExtensionFolder(path)
      ) {
        walk(path, files);
      }
    }
    return files;
  }
  const files: string[] = [];
  walk(d.root, files);
  return files;
}

/** A digest of file contents (and anything else that should trigger a reload when it changes). */
export function fingerprint(files: readonly string[], extra: string): string {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file);
    hash.update("\0");
    try {
      hash.update(readRegularFile(file));
    } catch {
      hash.update("(unreadable)");
    }
    hash.update("\0");
  }
  hash.update(extra);
  return hash.digest("hex");
}
