import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

const SKIPPED = new Set(["node_modules", ".git"]);

/** Every regular file under `root` (not following links), by relative path, with a digest of its content. */
export function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory() && !SKIPPED.has(name)) walk(path);
      else if (stat?.isFile()) {
        const digest = createHash("sha256").update(readFileSync(path)).digest("hex");
        files.set(relative(root, path).split(sep).join("/"), digest);
      }
    }
  };
  walk(root);
  return files;
}

/** The path of `file` inside `root`; throws for a path that leaves it (a test bug, not a model's). */
export function inside(root: string, file: string): string {
  const full = resolve(root, file);
  const rel = relative(root, full);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
    throw new Error(`${JSON.stringify(file)} is not a file inside the test project ${root}`);
  }
  return full;
}

/** Writes files given by relative path, creating folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [file, content] of Object.entries(files)) {
    const full = inside(root, file);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}
