import { existsSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { realOr } from "../common/real-or.ts";

const FIRST_PARTY = ["@gatehouse/sdk", "@gatehouse/protected-paths", "@gatehouse/tool-audit", "@gatehouse/hello-tool"];

let roots: readonly string[] | undefined;
const installs = new Set<string>([import.meta.url]);

/** The directory of the nearest package.json at or above `file`'s folder. */
function packageDirOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return dirname(file);
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
  const found = new Set<string>();
  for (const install of installs) {
    const dir = packageDirOf(install.startsWith("file:") ? fileURLToPath(install) : install);
    found.add(realOr(dir));
    const require = createRequire(install);
    for (const name of FIRST_PARTY) {
      try {
        found.add(realOr(packageDirOf(realOr(require.resolve(name)))));
      } catch {
        // Not installed with this installation: nothing of it can be host code.
      }
    }
    const paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dir);
    for (const path of paths) if (existsSync(path)) found.add(realOr(path));
  }
  roots = [...found];
  return roots;
}

/**
 * Counts another installation as Gatehouse's own (the CLI's, whose dependencies are the first-party
 * plugins): a module path or file URL inside it, as `HostOptions.packageBases` names them.
 */
export function addHostInstall(module: string): void {
  if (installs.has(module)) return;
  installs.add(module);
  roots = undefined;
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
