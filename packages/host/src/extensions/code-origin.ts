import { existsSync, realpathSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const hostRequire = createRequire(import.meta.url);
const FIRST_PARTY = ["@gatehouse/sdk", "@gatehouse/protected-paths", "@gatehouse/tool-audit", "@gatehouse/hello-tool"];

let roots: readonly string[] | undefined;

/** The directory of the nearest package.json at or above `file`'s folder. */
function packageDirOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return dirname(file);
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The folders that hold Gatehouse's own installation: the host package, the first-party packages it
 * resolves itself, and the `node_modules` folders on the host's own resolution path (its
 * dependencies). Code there is the host's, even when that installation lies inside a project (a
 * project that installs Gatehouse into its own `node_modules` can rewrite the host itself; the README
 * says to install it out of the workspace's reach).
 */
export function hostInstallRoots(): readonly string[] {
  if (roots) return roots;
  const hostDir = packageDirOf(fileURLToPath(import.meta.url));
  const found = new Set<string>([realOr(hostDir)]);
  for (const name of FIRST_PARTY) {
    try {
      found.add(realOr(packageDirOf(realOr(hostRequire.resolve(name)))));
    } catch {
      // Not installed with this host: nothing of it can be host code.
    }
  }
  const paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(hostDir);
  for (const dir of paths) if (existsSync(dir)) found.add(realOr(dir));
  roots = [...found];
  return roots;
}

/** True when `inner` is `outer` or lies below it (absolute paths, decided by `path.relative`). */
export function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * True when `file` is project code: its real path lies inside the project's real path and outside
 * the host's own installation. Whatever spelling led to it (a package name, `..`, a symlink).
 */
export function isProjectFile(file: string, projectReal: string): boolean {
  const real = realOr(file);
  return isInside(projectReal, real) && !hostInstallRoots().some((root) => isInside(root, real));
}
