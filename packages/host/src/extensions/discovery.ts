import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, extname, isAbsolute, join, relative, resolve } from "node:path";
import { packageEntry, resolvePackageFrom } from "./resolve-package.ts";

const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];
const INDEX_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"];

/** Where an extension was listed or found, in load order (SPEC §5). */
export type ExtensionOrigin = "managed" | "project" | "projectLocal" | "project-folder" | "user" | "user-folder";

/** An extension spec as a settings file lists it. */
export interface ExtensionSpec {
  spec: string;
  origin: "managed" | "project" | "projectLocal" | "user";
  /** Settings file that listed it. */
  file: string;
  /** Directory relative paths resolve against. */
  dir: string;
}

/** One extension to load (or to report as unloadable). */
export interface DiscoveredExtension {
  /** Stable identity across reloads: the resolved entry file. */
  id: string;
  /** What the user wrote or where it was found, for messages. */
  source: string;
  origin: ExtensionOrigin;
  /** The file to import, when it could be resolved. */
  entry?: string;
  /** Files and folders that belong to it (reload and trust): the entry's folder for folder extensions. */
  root?: string;
  /** Name to use when the module does not declare one. */
  fallbackName: string;
  /** True for code that came from the project (its folder or its node_modules): needs trust. */
  projectCode: boolean;
  /** Why it cannot be loaded, if it cannot. */
  error?: string;
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function isPathSpec(spec: string): boolean {
  return spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("~") || isAbsolute(spec);
}

/** The entry file of a folder extension: its index file, or its package.json entry. */
function folderEntry(dir: string): string | undefined {
  for (const name of INDEX_FILES) if (existsSync(join(dir, name))) return join(dir, name);
  return existsSync(join(dir, "package.json")) ? packageEntry(dir) : undefined;
}

function stem(file: string): string {
  const name = basename(file, extname(file));
  return name === "index" ? basename(resolve(file, "..")) : name;
}

function fromPath(spec: ExtensionSpec, projectDir: string): DiscoveredExtension {
  const expanded = spec.spec.startsWith("~") ? join(homedir(), spec.spec.slice(1)) : spec.spec;
  const target = resolve(spec.dir, expanded);
  const projectCode = spec.origin === "project" || spec.origin === "projectLocal" || isInside(projectDir, target);
  const base = { id: target, source: spec.spec, origin: spec.origin, fallbackName: stem(target), projectCode };
  if (!existsSync(target)) return { ...base, error: `${spec.spec} (listed in ${spec.file}): no such file or folder` };
  if (statSync(target).isDirectory()) {
    const entry = folderEntry(target);
    if (!entry) return { ...base, error: `${spec.spec}: the folder has no index.ts, index.js or package.json entry` };
    return { ...base, id: entry, entry, root: target };
  }
  return { ...base, entry: target, root: target };
}

function packageRoot(entry: string, name: string): string {
  const marker = `${join("node_modules", name)}`;
  const at = entry.lastIndexOf(marker);
  return at >= 0 ? entry.slice(0, at + marker.length) : resolve(entry, "..");
}

/**
 * Package names resolve from the project first, then from the host's installation (so the
 * first-party plugins work in any project). Managed and user settings resolve from the host
 * first: a project must not be able to substitute its own copy of a package a team lead or the
 * user chose.
 */
function fromPackage(spec: ExtensionSpec, input: DiscoveryInput): DiscoveredExtension {
  const projectDir = input.projectDir;
  const hostFirst = spec.origin === "managed" || spec.origin === "user";
  const fromHost = () => {
    for (const base of input.packageBases) {
      try {
        return createRequire(base).resolve(spec.spec);
      } catch {
        // not installed there: try the next base
      }
    }
    return undefined;
  };
  const fromProject = () => resolvePackageFrom(projectDir, spec.spec);
  let entry = hostFirst ? fromHost() : fromProject();
  let projectCode = !hostFirst && entry !== undefined;
  if (!entry) {
    entry = hostFirst ? fromProject() : fromHost();
    projectCode = hostFirst && entry !== undefined;
  }
  const base = { source: spec.spec, origin: spec.origin, fallbackName: spec.spec, projectCode };
  if (!entry) {
    return {
      ...base,
      id: `package:${spec.spec}`,
      projectCode: false,
      error: `package "${spec.spec}" (listed in ${spec.file}) is not installed in the project or with gatehouse`,
    };
  }
  return { ...base, id: entry, entry, root: packageRoot(entry, spec.spec) };
}

/** The extensions dropped into a folder: module files and folders with an entry, sorted by name. */
export function scanFolder(
  dir: string,
  origin: "project-folder" | "user-folder",
  projectCode: boolean,
): DiscoveredExtension[] {
  if (!existsSync(dir)) return [];
  const found: DiscoveredExtension[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "node_modules" || name.endsWith(".d.ts")) continue;
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) {
      const entry = folderEntry(path);
      // A folder without an entry is a helper library for the other extensions, not an extension.
      if (entry) found.push({ id: entry, source: path, origin, entry, root: path, fallbackName: name, projectCode });
    } else if (MODULE_EXTENSIONS.includes(extname(name))) {
      found.push({ id: path, source: path, origin, entry: path, root: dir, fallbackName: stem(path), projectCode });
    }
  }
  return found;
}

/** Inputs of discovery: the settings' extension lists and the two drop-in folders. */
export interface DiscoveryInput {
  projectDir: string;
  home: string;
  specs: readonly ExtensionSpec[];
  /**
   * Where package names resolve besides the project (Gatehouse's own installation): file paths or
   * URLs of modules, tried in order. The CLI passes its own, so the plugins it depends on resolve.
   */
  packageBases: readonly string[];
}

/**
 * Every extension in load order: managed settings, project settings (then project local),
 * the project folder, user settings, the user folder. The same entry found twice loads once,
 * at its first position.
 */
export function discoverExtensions(input: DiscoveryInput): DiscoveredExtension[] {
  const bySettings = (origins: ExtensionSpec["origin"][]) =>
    input.specs
      .filter((s) => origins.includes(s.origin))
      .map((s) => (isPathSpec(s.spec) ? fromPath(s, input.projectDir) : fromPackage(s, input)));
  const all = [
    ...bySettings(["managed"]),
    ...bySettings(["project", "projectLocal"]),
    ...scanFolder(join(input.projectDir, ".gatehouse", "extensions"), "project-folder", true),
    ...bySettings(["user"]),
    ...scanFolder(join(input.home, "extensions"), "user-folder", false),
  ];
  const seen = new Set<string>();
  return all.filter((d) => {
    if (seen.has(d.id)) return false;
    seen.add(d.id);
    return true;
  });
}
