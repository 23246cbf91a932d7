import { lstatSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { realOr } from "../common/real-or.ts";
import { hostInstallRoots, isInside } from "./code-origin.ts";

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(spec: string): string {
  const parts = spec.split("/");
  return (spec.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** Where Node looks for a bare specifier first: the nearest `node_modules/<name>` that exists. */
function nearestPackage(spec: string, from: string): string | undefined {
  const name = packageName(spec);
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (exists(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Where an import of project code leads out of the project through a link inside it, or `undefined`.
 * Why: which files are project code is decided by real paths, so a symbolic link the project
 * controls (`lib/fmt.ts → /tmp/x.ts`, `node_modules/pkg → /elsewhere`) would otherwise make code it
 * points at run as if it were not the project's, unchecked.
 * Contract: `parent` is a real path inside `root` (a real path) and `resolved` is what `spec`
 * resolves to from it; an import that reaches outside the project without passing through the
 * project (an explicit `../outside` path, a package found above the project) is not an escape, nor
 * is one into Gatehouse's own installation.
 */
export function linkEscape(options: {
  spec: string;
  parent: string;
  resolved: string;
  root: string;
}): LinkEscape | undefined {
  const { spec, parent, resolved, root } = options;
  if (isBuiltin(spec) || !isAbsolute(resolved)) return undefined;
  const real = realOr(resolved);
  if (isInside(root, real) || hostInstallRoots().some((r) => isInside(r, real))) return undefined;
  const relativeSpec = spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..";
  const lexical =
    relativeSpec || isAbsolute(spec) ? resolve(dirname(parent), spec) : nearestPackage(spec, dirname(parent));
  if (lexical === undefined || !isInside(root, lexical)) return undefined;
  const link = firstLink(root, lexical) ?? lexical;
  const target = realOr(link);
  const from = relative(root, parent) || parent;
  return {
    target,
    reason: `${from} imports ${JSON.stringify(spec)} through the link ${relative(root, link)} → ${target}`,
  };
}

/** A link inside the project that leads out of it: where it points, and how it was reached. */
export interface LinkEscape {
  /** The real path the link points at: every file below it is project code. */
  target: string;
  reason: string;
}

/**
 * Where a path inside the project (as spelled) really leads when a link on the way leads out: the
 * real path of the first linked component (a linked folder covers everything below it).
 */
export function linkTarget(root: string, path: string): string | undefined {
  if (!isInside(root, path)) return undefined;
  const link = firstLink(root, path);
  return link === undefined ? undefined : realOr(link);
}

/** The first path component below `root`, on the way to `path`, that is a symbolic link. */
function firstLink(root: string, path: string): string | undefined {
  let current = root;
  for (const part of relative(root, path).split(sep)) {
    if (part === "") continue;
    current = join(current, part);
    try {
      if (lstatSync(current).isSymbolicLink()) return current;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
