import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { errorMessage } from "../common/errors.ts";
import {
  gatehouseHome,
  loadSettings,
  type MergedSettings,
  mergeSettings,
  type SettingsLevelName,
  settingsFileLocations,
  type TrustStatus,
  trustStatus,
} from "../config/index.ts";
import { type DiscoveredExtension, discoverExtensions } from "../extensions/discovery.ts";
import { extensionFiles, fingerprint } from "../extensions/extension-files.ts";
import type { ExtensionCandidate } from "../extensions/extension-manager.ts";
import { loadModule } from "../extensions/module-loader.ts";
import { type ExtensionWatcher, watchExtensions } from "../extensions/watcher.ts";
import type { HostOptions } from "./types.ts";

/** A project's settings, discovered extensions and trust, kept current while watching. */
export interface ProjectExtensions {
  readonly settings: MergedSettings;
  readonly home: string;
  /** Re-reads settings after a change; a now-invalid settings file keeps the last good settings and returns why. */
  refresh(): string | undefined;
  /** The extensions to load, in load order, with trust applied. */
  candidates(): ExtensionCandidate[];
  /** An extension's merged settings section and the file that provided it. */
  configFor(name: string): { section: unknown; source: string };
  /** The project's own code and settings files, as `gatehouse trust` records them. */
  projectFiles(): string[];
  /** The trust state of the project's own code. */
  trust(): TrustStatus;
  /** Watches every folder and file that can change the extension set. */
  watch(onChange: () => void): ExtensionWatcher;
}

/** The settings level an extension's origin counts as, for `disabledExtensions`. */
function levelOf(origin: DiscoveredExtension["origin"]): SettingsLevelName {
  if (origin === "project-folder") return "project";
  if (origin === "user-folder") return "user";
  return origin;
}

function isExtensionFolder(dir: string): boolean {
  return ["index.ts", "index.mts", "index.js", "index.mjs", "package.json"].some((f) => existsSync(join(dir, f)));
}

/**
 * Opens a project for extension loading.
 * Contract: invalid settings throw GH_SETTINGS_INVALID / GH_JSON_SYNTAX (naming file and field)
 * on open; after that, a settings file broken while watching is reported and the last good
 * settings stay in force. Project code (its `.gatehouse` extensions, paths inside the project,
 * packages from its node_modules) loads only when trusted; first-party and user extensions always.
 */
export function openProject(
  options: Pick<HostOptions, "cwd" | "env" | "trust" | "packageBases">,
  logger: Logger,
): ProjectExtensions {
  const env = options.env ?? process.env;
  const cwd = options.cwd;
  const home = gatehouseHome(env);
  const read = () => mergeSettings(loadSettings({ cwd, env, home }));
  let settings = read();
  let discovered: DiscoveredExtension[] = [];
  const filesOf = new Map<string, string[]>();

  const rediscover = () => {
    discovered = discoverExtensions({
      projectDir: cwd,
      home,
      packageBases: options.packageBases ?? [import.meta.url],
      specs: settings.extensions.map((s) => ({ spec: s.spec, origin: s.level, file: s.file, dir: s.dir })),
    });
    filesOf.clear();
    for (const d of discovered) filesOf.set(d.id, extensionFiles(d, isExtensionFolder));
  };
  rediscover();

  const projectFiles = () => {
    const files = new Set<string>();
    for (const d of discovered) if (d.projectCode) for (const f of filesOf.get(d.id) ?? []) files.add(f);
    for (const loc of settingsFileLocations({ cwd, env, home })) {
      if ((loc.level === "project" || loc.level === "projectLocal") && existsSync(loc.file)) files.add(loc.file);
    }
    return [...files].sort();
  };
  const trust = (): TrustStatus =>
    options.trust
      ? { trusted: true, changed: [], added: [], removed: [] }
      : trustStatus({ home, projectDir: cwd, files: projectFiles() });

  const configFor = (name: string) => {
    const where = settings.configSource(name, []);
    return {
      section: settings.config[name],
      source: where ? `${where.file}:${where.line}:${where.column}` : "settings",
    };
  };

  function candidates(): ExtensionCandidate[] {
    const state = discovered.some((d) => d.projectCode) ? trust() : undefined;
    const untrusted =
      state && !state.trusted
        ? `project code is not trusted${state.reason ? ` (${state.reason})` : ""}: run "gatehouse trust" in ${cwd}, or pass --trust for one run`
        : undefined;
    return discovered.map((d): ExtensionCandidate => {
      const files = filesOf.get(d.id) ?? [];
      const base = {
        id: d.id,
        source: d.source,
        fallbackName: d.fallbackName,
        fingerprint: fingerprint(files, ""),
      };
      if (d.error) return { ...base, skip: { status: "failed", reason: d.error } };
      if (settings.isDisabled(d.fallbackName, levelOf(d.origin))) {
        return { ...base, skip: { status: "skipped", reason: `disabled by disabledExtensions in settings` } };
      }
      if (d.projectCode && untrusted)
        return { ...base, skip: { status: "skipped", reason: untrusted }, keepLastGood: true };
      const entry = d.entry as string;
      const root = d.root;
      return { ...base, load: (fresh) => loadModule(entry, { fresh, ...(root ? { root } : {}) }) };
    });
  }

  return {
    get settings() {
      return settings;
    },
    home,
    refresh() {
      let problem: string | undefined;
      try {
        settings = read();
      } catch (error) {
        problem = errorMessage(error);
        logger.error({ err: problem }, "settings are invalid; keeping the last good settings");
      }
      rediscover();
      return problem;
    },
    candidates,
    configFor,
    projectFiles,
    trust,
    watch(onChange) {
      const roots = [join(cwd, ".gatehouse"), home];
      for (const loc of settingsFileLocations({ cwd, env, home })) roots.push(loc.file);
      for (const d of discovered) if (d.root && !d.root.includes("node_modules")) roots.push(d.root);
      return watchExtensions([...new Set(roots)], onChange);
    },
  };
}
