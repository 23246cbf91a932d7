import { existsSync, type Stats, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";
import { type DanglingLink, danglingLinkOn, describeDanglingLink } from "../common/dangling-link.ts";
import { realOr } from "../common/real-or.ts";
import type { ExtensionSpec } from "../config/extension-specs.ts";
import { osReason } from "../config/os-reason.ts";
import type { SettingsLevelName } from "../config/settings-levels.ts";
import { isInside, isProjectFile } from "./code-origin.ts";
import { folderNames } from "./folder-names.ts";
import { guardMeantBy, guardPackageOf } from "./guard-names.ts";
import { explainPackageEntry, packageEntry, resolvePackageFrom } from "./resolve-package.ts";
import { isPathSpec, packageSpecProblem, pathSpecProblem } from "./spec-check.ts";
import type { EnabledAt } from "./types.ts";

const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];
const INDEX_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"];

export { FIRST_PARTY_GUARDS } from "./guard-names.ts";

/** Where an extension was listed or found, in load order (SPEC §5). */
export type ExtensionOrigin = "managed" | "project" | "projectLocal" | "project-folder" | "user" | "user-folder";

/** One extension to load (or to report as unloadable). */
export interface DiscoveredExtension {
  /** Stable identity across reloads: the resolved entry file. */
  id: string;
  /** What the user wrote or where it was found, for messages. */
  source: string;
  origin: ExtensionOrigin;
  /** The file to import, when it could be resolved. */
  entry?: string;
  /** The folder (or file) a reload forgets from the module cache: the entry's folder for folder extensions. */
  root?: string;
  /** Name to use when the module does not declare one. */
  fallbackName: string;
  /** True for code that lies inside the project (its folder or its node_modules): needs trust. */
  projectCode: boolean;
  /** Why it cannot be loaded, if it cannot. */
  error?: string;
  /** Why it must load, when it is a required guard. */
  required?: string;
  /** Where it was enabled. */
  enabledAt: EnabledAt;
  /**
   * Every settings level that enables it (a listing found twice loads once, at its first place):
   * what `disabledExtensions` is checked against.
   */
  enabledBy?: readonly SettingsLevelName[];
}

/** The settings level an extension's origin counts as, for `disabledExtensions`. */
export function levelOf(origin: ExtensionOrigin): SettingsLevelName {
  if (origin === "project-folder") return "project";
  if (origin === "user-folder") return "user";
  return origin;
}

/** The entry file of a folder extension: its index file, or its package.json entry. */
function folderEntry(dir: string): string | undefined {
  for (const name of INDEX_FILES) if (existsSync(join(dir, name))) return join(dir, name);
  return existsSync(join(dir, "package.json")) ? packageEntry(dir) : undefined;
}

function danglingEntry(dir: string): DanglingLink | undefined {
  for (const name of [...INDEX_FILES, "package.json"]) {
    const dangling = danglingLinkOn(join(dir, name));
    if (dangling) return dangling;
  }
  return undefined;
}

function stem(file: string): string {
  const name = basename(file, extname(file));
  return name === "index" ? basename(resolve(file, "..")) : name;
}

/**
 * Project code: whatever lies inside the project as spelled (a link inside it leads the project's
 * way) or really (a symbolic link or `..` does not make it anyone else's).
 */
function isProjectCode(path: string, projectReal: string, projectDir: string): boolean {
  return isProjectFile(path, projectReal) || isInside(projectReal, path) || isInside(projectDir, path);
}

const LEVEL_WORDS: Record<SettingsLevelName, string> = {
  managed: "managed settings",
  projectLocal: "project local settings",
  project: "project settings",
  user: "user settings",
};

function requiredBecause(spec: ExtensionSpec): string | undefined {
  if (spec.level === "managed") return "enabled by managed settings";
  if (spec.required) return `marked "required" in ${LEVEL_WORDS[spec.level]}`;
  // However it is spelt (case, `npm:`, `node_modules/`, a path to the plugin's folder, a version, a
  // typo), a spec that reads as a guard must load as one: otherwise the run would go unguarded.
  return guardMeantBy(spec.spec);
}

/**
 * A resolved spec whose package is a first-party guard (by its package.json name) is a required
 * guard too, whatever the spec looked like.
 */
function requireGuardPackage(found: DiscoveredExtension): DiscoveredExtension {
  if (found.required || found.entry === undefined) return found;
  const guard = guardPackageOf(found.entry);
  return guard ? { ...found, required: `it resolves to the first-party guard ${guard}` } : found;
}

function where(spec: ExtensionSpec): string {
  return `${spec.file}:${spec.at.line}:${spec.at.column}`;
}

function fromSpec(spec: ExtensionSpec, project: Project): DiscoveredExtension {
  const required = requiredBecause(spec);
  const base = {
    id: `spec:${spec.level}:${spec.spec}`,
    source: spec.spec,
    origin: spec.level,
    fallbackName: spec.spec,
    projectCode: false,
    enabledAt: { kind: "settings" as const, ...spec.at },
    ...(required ? { required } : {}),
  };
  const refuse = (why: string): DiscoveredExtension => ({
    ...base,
    error: `extension spec ${JSON.stringify(spec.spec)} (${where(spec)}, ${LEVEL_WORDS[spec.level]}) is refused: ${why}`,
  });
  if (isPathSpec(spec.spec)) {
    const problem = pathSpecProblem(spec.spec);
    return problem ? refuse(problem) : requireGuardPackage(fromPath(spec, project, { base, refuse }));
  }
  const problem = packageSpecProblem(spec.spec);
  return problem ? refuse(problem) : requireGuardPackage(fromPackage(spec, project, { base, refuse }));
}

interface Builders {
  base: Omit<DiscoveredExtension, "error">;
  refuse: (why: string) => DiscoveredExtension;
}

interface Project {
  projectReal: string;
  projectDir: string;
  /** Where package names resolve besides the project (Gatehouse's own installation). */
  packageBases: readonly string[];
}

function fromPath(
  spec: ExtensionSpec,
  { projectReal, projectDir }: Project,
  { base, refuse }: Builders,
): DiscoveredExtension {
  const expanded = spec.spec.startsWith("~") ? join(homedir(), spec.spec.slice(1)) : spec.spec;
  const target = resolve(spec.dir, expanded);
  const fallbackName = stem(target);
  if (!existsSync(target))
    return { ...base, fallbackName, error: `${spec.spec} (listed in ${where(spec)}): no such file or folder` };
  const projectLevel = spec.level === "project" || spec.level === "projectLocal";
  if (projectLevel && !isInside(projectReal, realOr(target))) {
    return refuse(`project settings may only list extensions inside the project, and it resolves to ${realOr(target)}`);
  }
  const projectCode = isProjectCode(target, projectReal, projectDir);
  if (statSync(target).isDirectory()) {
    const entry = folderEntry(target);
    if (!entry) {
      const manifest = existsSync(join(target, "package.json")) ? explainPackageEntry(target) : undefined;
      const why = manifest && "problem" in manifest ? ` (${manifest.problem})` : "";
      return {
        ...base,
        fallbackName,
        error: `${spec.spec}: the folder has no index.ts, index.js or package.json entry${why}`,
      };
    }
    return { ...base, fallbackName, projectCode, id: entry, entry, root: target };
  }
  return { ...base, fallbackName, projectCode, id: target, entry: target, root: target };
}

function packageRoot(entry: string, name: string): string {
  const marker = `${join("node_modules", name)}`;
  const at = entry.lastIndexOf(marker);
  return at >= 0 ? entry.slice(0, at + marker.length) : resolve(entry, "..");
}

/**
 * Package names resolve from the project first, then from the host's installation (so the
 * first-party plugins work in any project). Managed and user settings, and Gatehouse's own
 * package names (`@gatehouse/…`) at every level, resolve from the host first (managed and user
 * names then from their settings file's own tree, and only then from the project): a project must
 * not be able to substitute its own copy of a package a team lead or the user chose, nor of a
 * first-party guard (a sandboxed command can write `node_modules/@gatehouse/protected-paths`).
 * Wherever it was found, an entry inside the project is project code.
 * A project's settings reach the host's installation only for Gatehouse's own names: Node's
 * resolution from there also finds every package beside it (a repository checkout's dev tools,
 * the packages installed globally next to a global install) and their exported subpaths, which
 * count as host code and skip trust, and some run project files as they are imported (`tsdown/run`
 * loads the project's `tsdown.config.ts`, a `tsx/cli` runs a project file in a child process).
 */
function fromPackage(
  spec: ExtensionSpec,
  { projectReal, projectDir, packageBases }: Project,
  { base }: Builders,
): DiscoveredExtension {
  const hostFirst = spec.level === "managed" || spec.level === "user" || spec.spec.startsWith("@gatehouse/");
  const fromHost = () => {
    for (const from of packageBases) {
      try {
        return createRequire(from).resolve(spec.spec);
      } catch {
        // not installed there: try the next base
      }
    }
    return undefined;
  };
  // A project's own settings reach only the project's node_modules: a copy in a folder above the
  // project (a monorepo root, the home directory) is neither the project's code, which trust
  // would check, nor Gatehouse's, so it would run unreviewed on the project's say-so.
  const projectLevel = spec.level === "project" || spec.level === "projectLocal";
  const fromProject = () => resolvePackageFrom(projectReal, spec.spec, { ancestors: !projectLevel });
  // Managed and user settings look in their own tree (the settings file's folder and those above
  // it: ~/.gatehouse/node_modules, ~/node_modules) before the project: a copy the project plants in
  // its node_modules must never shadow the package the user or team lead installed, or the guard
  // they chose would be skipped as untrusted project code (or replaced by the project's).
  const fromOwnTree = () => (projectLevel ? undefined : resolvePackageFrom(spec.dir, spec.spec));
  // Not host-first means a project level: its names resolve from the project alone (see above).
  const entry = hostFirst ? (fromHost() ?? fromOwnTree() ?? fromProject()) : fromProject();
  if (!entry) {
    const above = projectLevel ? resolvePackageFrom(dirname(projectReal), spec.spec) : undefined;
    const beside = projectLevel ? fromHost() : undefined;
    const copy = above ? `the copy above the project (${above})` : `the copy beside Gatehouse (${beside})`;
    const why =
      above || beside
        ? `; ${copy} is not used: project settings load packages from the project's own node_modules (trusted with \`gatehouse trust\`) or Gatehouse's own plugins (@gatehouse/…)${beside ? "; list it in your user settings to run it" : ""}`
        : "";
    return {
      ...base,
      id: `package:${spec.spec}`,
      error: `package "${spec.spec}" (listed in ${where(spec)}) is not installed in the project${beside ? "" : " or with gatehouse"}${why}`,
    };
  }
  const projectCode = isProjectCode(entry, projectReal, projectDir);
  return { ...base, projectCode, id: entry, entry, root: packageRoot(entry, spec.spec) };
}

/** The extensions dropped into a folder: module files and folders with an entry, sorted by name. */
export function scanFolder(
  dir: string,
  origin: "project-folder" | "user-folder",
  projectReal: string,
): DiscoveredExtension[] {
  const enabledAt: EnabledAt = { kind: "folder", level: origin === "project-folder" ? "project" : "user", dir };
  const broken = (path: string, fallbackName: string, error: string): DiscoveredExtension => ({
    id: path,
    source: path,
    origin,
    fallbackName,
    projectCode: origin === "project-folder" || isProjectFile(path, projectReal),
    enabledAt,
    error,
  });
  const unreadable = (path: string, fallbackName: string, error: unknown) =>
    broken(path, fallbackName, `${path} cannot be read: ${osReason(error)}`);
  const brokenLink = (path: string, fallbackName: string, dangling: DanglingLink, what = "the extension") =>
    broken(path, fallbackName, `${describeDanglingLink(dangling)}: ${what} it led to cannot be loaded`);
  if (!existsSync(dir)) {
    // A folder that is a link leading nowhere held extensions once (a guard among them, perhaps).
    const dangling = danglingLinkOn(dir);
    return dangling ? [brokenLink(dir, basename(dir), dangling, "the extensions")] : [];
  }
  let names: string[];
  let notUtf8: string[];
  try {
    ({ names, notUtf8 } = folderNames(dir));
  } catch (error) {
    // Not a folder, or one that cannot be listed: whatever it was meant to hold is reported, not lost.
    return [unreadable(dir, basename(dir), error)];
  }
  const found: DiscoveredExtension[] = notUtf8.map((name) =>
    broken(
      join(dir, name),
      name,
      `${join(dir, name)}: its name is not UTF-8, so it cannot be loaded; rename it (or move it out of ${dir})`,
    ),
  );
  for (const name of names) {
    if (name.startsWith(".") || name === "node_modules" || name.endsWith(".d.ts")) continue;
    const path = join(dir, name);
    let stat: Stats | undefined;
    try {
      stat = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      // A link loop or an entry that cannot be looked at: reported like any broken extension.
      found.push(unreadable(path, stem(path), error));
      continue;
    }
    if (!stat) {
      // Gone between the listing and the look, or a link that leads nowhere: only the latter is reported.
      const dangling = danglingLinkOn(path);
      if (dangling) found.push(brokenLink(path, stem(path), dangling));
      continue;
    }
    const projectCode = origin === "project-folder" || isProjectFile(path, projectReal);
    let item: DiscoveredExtension | undefined;
    if (stat.isDirectory()) {
      const entry = folderEntry(path);
      // A folder without an entry is a helper library for the other extensions, not an extension;
      // a folder with a package.json means to be a package, so a manifest that names no entry is an error.
      const manifest = entry === undefined && existsSync(join(path, "package.json"));
      const problem = manifest ? explainPackageEntry(path) : undefined;
      // An entry (or manifest) that is a link leading nowhere made an extension a helper folder, silently.
      const lost = entry === undefined ? danglingEntry(path) : undefined;
      if (entry)
        item = { id: entry, source: path, origin, entry, root: path, fallbackName: name, projectCode, enabledAt };
      else if (lost) item = brokenLink(lost.link, name, lost);
      else if (problem && "problem" in problem)
        item = { id: path, source: path, origin, fallbackName: name, projectCode, enabledAt, error: problem.problem };
    } else if (MODULE_EXTENSIONS.includes(extname(name))) {
      // Its folder is its root: the helper folders next to it reload with it.
      item = {
        id: path,
        source: path,
        origin,
        entry: path,
        root: dir,
        fallbackName: stem(path),
        projectCode,
        enabledAt,
      };
    }
    if (item && origin === "project-folder" && !isInside(projectReal, realOr(path))) {
      item = {
        ...item,
        error: `${path} is a link out of the project (${realOr(path)}); project extensions must lie inside it`,
      };
    }
    if (item) found.push(item);
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
 * the project folder, user settings, the user folder. The same entry, or the same package name,
 * found twice loads once, at its first position (required if any of its listings is).
 */
export function discoverExtensions(input: DiscoveryInput): DiscoveredExtension[] {
  const projectReal = realOr(resolve(input.projectDir));
  const bySettings = (levels: SettingsLevelName[]) =>
    input.specs
      .filter((s) => levels.includes(s.level))
      .map((s) =>
        fromSpec(s, { projectReal, projectDir: resolve(input.projectDir), packageBases: input.packageBases }),
      );
  const all = [
    ...bySettings(["managed"]),
    ...bySettings(["project", "projectLocal"]),
    ...scanFolder(join(input.projectDir, ".gatehouse", "extensions"), "project-folder", projectReal),
    ...bySettings(["user"]),
    ...scanFolder(join(input.home, "extensions"), "user-folder", projectReal),
  ];
  // One extension per entry, and one per package name: the first listing in load order wins, so a
  // package a managed file lists is never loaded a second time from the project's own copy.
  const kept = new Map<string, DiscoveredExtension>();
  const idOf = new Map<string, string>();
  for (const d of all) {
    const name = d.enabledAt.kind === "settings" && !isPathSpec(d.source) ? `package:${d.source}` : undefined;
    const id = (name && idOf.get(name)) ?? d.id;
    if (name && !idOf.has(name)) idOf.set(name, id);
    const first = kept.get(id);
    const level = levelOf(d.origin);
    if (!first) kept.set(id, { ...d, enabledBy: [level] });
    else {
      const enabledBy = first.enabledBy?.includes(level) ? first.enabledBy : [...(first.enabledBy ?? []), level];
      kept.set(id, { ...first, enabledBy, ...(d.required && !first.required ? { required: d.required } : {}) });
    }
  }
  return [...kept.values()];
}
