import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Logger } from "pino";
import { PROJECT_HOOKS_KEY, projectHooksCode } from "../command-hooks/hook-code.ts";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { realOr } from "../common/real-or.ts";
import {
  ensurePrivateDir,
  gatehouseHome,
  loadSettings,
  type MergedSettings,
  mergeSettings,
  settingsFileLocations,
  type TrustStatus,
  trustCommand,
  trustFilePath,
  trustStatuses,
} from "../config/index.ts";
import { addHostInstall } from "../extensions/code-origin.ts";
import { disableVerdict, strayDisableEntries } from "../extensions/disable-check.ts";
import { type DiscoveredExtension, discoverExtensions } from "../extensions/discovery.ts";
import { extensionFiles, fingerprint } from "../extensions/extension-files.ts";
import type { ConfigEnablers, ExtensionCandidate } from "../extensions/extension-manager.ts";
import { namesInSpec } from "../extensions/guard-names.ts";
import { type ImportGraph, importGraph } from "../extensions/import-graph.ts";
import { linkTarget } from "../extensions/link-escape.ts";
import { loadModule } from "../extensions/module-loader.ts";
import type { ConfigInput } from "../extensions/read-config.ts";
import { type Approval, type GateRegistration, registerProjectGate } from "../extensions/trust-gate.ts";
import { type ExtensionWatcher, watchExtensions } from "../extensions/watcher.ts";
import type { HostOptions } from "./types.ts";

/** One project extension's code, as `gatehouse trust` records it. */
export interface ProjectCode {
  /** Its identity in the trust store: the entry, relative to the project. */
  key: string;
  /** What the settings or folder listed. */
  source: string;
  /** The project files it loads (real paths), the entry first. */
  graph: ImportGraph;
}

/** A project's settings, discovered extensions and trust, kept current while watching. */
export interface ProjectExtensions {
  readonly settings: MergedSettings;
  readonly home: string;
  /** Re-reads settings after a change; a now-invalid settings file keeps the last good settings and returns why. */
  refresh(): string | undefined;
  /** The extensions to load, in load order, with trust applied (and the trust gate updated). */
  candidates(): ExtensionCandidate[];
  /** Where an extension's configuration comes from: every level's section, and whether managed is a floor. */
  configFor(name: string, enabledBy: ConfigEnablers): ConfigInput;
  /**
   * Why an extension the user enables must run although it failed: the project's files configure
   * it (their section may be what broke it), so its failure stops the host (see `ExtensionManagerOptions`).
   */
  requiredWhenFailed(name: string, candidate: ExtensionCandidate): string | undefined;
  /** The project extensions' code, as `gatehouse trust` records it. */
  projectCode(): ProjectCode[];
  /** The trust state of each project extension, by key. */
  trust(): Map<string, TrustStatus>;
  /** Every folder and file that can change the extension set or its trust (what `watch` watches). */
  watchRoots(): string[];
  /** Watches `watchRoots()`; after a reload, `setRoots(watchRoots())` follows newly imported files. */
  watch(onChange: () => void): ExtensionWatcher;
  /**
   * Files the agent may not change because they are policy from above: the managed settings file
   * and the code of the extensions it enables (Gatehouse's home is out of reach already).
   */
  reservedFiles(): { path: string; why: string }[];
  /** Ends this host's registration with the trust gate. */
  close(): void;
}

function isExtensionFolder(dir: string): boolean {
  return ["index.ts", "index.mts", "index.js", "index.mjs", "package.json"].some((f) => existsSync(join(dir, f)));
}

/**
 * Opens a project for extension loading.
 * Contract: invalid settings throw GH_SETTINGS_INVALID / GH_JSON_SYNTAX (naming file and field) and
 * an unusable Gatehouse home throws GH_STATE_DIR, on open; after that, a settings file broken while
 * watching is reported and the last good settings stay in force. Project code (whatever resolves
 * inside the project, its node_modules included) loads only when trusted, extension by extension:
 * its whole import graph is hashed, and the trust gate refuses any project file whose content trust
 * did not approve, however it is loaded.
 */
export function openProject(
  options: Pick<HostOptions, "cwd" | "env" | "trust" | "packageBases">,
  logger: Logger,
): ProjectExtensions {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const projectReal = realOr(cwd);
  const home = gatehouseHome(env);
  ensurePrivateDir(home);
  for (const base of options.packageBases ?? []) addHostInstall(base);
  const read = () => mergeSettings(loadSettings({ cwd, env, home }));
  let settings = read();
  let discovered: DiscoveredExtension[] = [];
  const filesOf = new Map<string, string[]>();
  const graphs = new Map<string, ImportGraph>();
  const gate: GateRegistration = registerProjectGate({
    root: projectReal,
    retrust: trustCommand(cwd),
    approval: options.trust ? "all" : new Map(),
  });

  const keyOf = (d: DiscoveredExtension) =>
    relative(projectReal, realOr(d.entry as string))
      .split(sep)
      .join("/");
  const rediscover = () => {
    discovered = discoverExtensions({
      projectDir: cwd,
      home,
      specs: settings.extensions,
      packageBases: options.packageBases ?? [import.meta.url],
    });
    filesOf.clear();
    graphs.clear();
    for (const d of discovered) {
      if (!d.entry) continue;
      if (d.projectCode) {
        // An entry the project links in from elsewhere (node_modules/pkg → /elsewhere/pkg) brings its folder.
        const entryLink = linkTarget(projectReal, d.entry) ?? linkTarget(cwd, d.entry);
        const graph = importGraph(d.entry, { projectReal, ...(entryLink ? { linkTargets: [entryLink] } : {}) });
        graphs.set(d.id, graph);
        filesOf.set(d.id, [...graph.files]);
        gate.link(graph.linkTargets);
      } else filesOf.set(d.id, extensionFiles(d, isExtensionFolder));
    }
  };
  rediscover();
  const strayDisabled = strayDisableEntries(settings.levels, discovered);
  if (strayDisabled.length > 0) {
    gate.close();
    throw new GatehouseError("GH_SETTINGS_INVALID", ["Invalid settings:", ...strayDisabled].join("\n  "));
  }

  const projectCode = (): ProjectCode[] => {
    const code = discovered.flatMap((d) => {
      const graph = graphs.get(d.id);
      return graph && !d.error ? [{ key: keyOf(d), source: d.source, graph }] : [];
    });
    // The project's command hooks are project code too: their settings and the scripts they name.
    const hooks = projectHooksCode(settings.hooks, cwd);
    if (hooks) code.push({ key: PROJECT_HOOKS_KEY, source: "command hooks in the project's settings", graph: hooks });
    return code;
  };
  const trust = () =>
    trustStatuses({
      home,
      projectDir: cwd,
      extensions: projectCode().map((c) => ({ key: c.key, files: c.graph.files })),
    });

  const configFor = (name: string, { managed, user }: ConfigEnablers): ConfigInput => {
    const levels = settings.configLevels(name);
    const floor = managed || levels.some((l) => l.level.level === "managed");
    return { kind: "settings", levels, floor, userFloor: user || userEnables(name), cwd };
  };
  /** Whether the user's own settings enable `name` (however the spec is spelt) or configure it. */
  const userEnables = (name: string): boolean => {
    const user = settings.levels.find((l) => l.level === "user");
    if (!user) return false;
    if (user.settings.config !== undefined && Object.hasOwn(user.settings.config, name)) return true;
    const wanted = name.toLowerCase();
    return (user.settings.extensions ?? []).some(
      (spec) => typeof spec === "string" && namesInSpec(spec).some((n) => n === wanted || n.endsWith(`/${wanted}`)),
    );
  };

  function candidates(): ExtensionCandidate[] {
    const statuses = options.trust || graphs.size === 0 ? undefined : trust();
    const approval: Approval = options.trust
      ? "all"
      : new Map([...(statuses?.values() ?? [])].flatMap((s) => [...s.approved]));
    gate.update(approval);
    return discovered.map((d): ExtensionCandidate => {
      const verdict = disableVerdict(d, settings.levels);
      const disabled = verdict.kind === "off";
      const base: ExtensionCandidate = {
        id: d.id,
        source: d.source,
        fallbackName: d.fallbackName,
        fingerprint: fingerprint(filesOf.get(d.id) ?? [], ""),
        managed: d.origin === "managed",
        // Listed in user settings (string or object entry) or dropped into the user's folder.
        user: d.enabledBy?.includes("user") === true,
        enabledAt: d.enabledAt,
        ...(d.required && !disabled ? { required: d.required, keepLastGood: true } : {}),
        // A refused entry stops the run, guard or not: the extension must neither be off nor look on.
        ...(verdict.kind === "refused" && !d.required
          ? {
              required: "your user settings or folder enable it, and the project's files cannot turn it off",
              keepLastGood: true,
            }
          : {}),
      };
      if (d.error) return { ...base, skip: { status: "failed", reason: d.error } };
      if (verdict.kind === "refused") return { ...base, skip: { status: "failed", reason: verdict.reason } };
      if (disabled)
        return { ...base, skip: { status: "skipped", reason: "disabled by disabledExtensions in settings" } };
      const status = d.projectCode ? statuses?.get(keyOf(d)) : undefined;
      if (status && !status.trusted) {
        const reason = `project code is not trusted (${status.reason}): review it and run ${trustCommand(cwd)}, or pass --trust for one run`;
        // Code that was trusted and changed since stops the run instead of going quietly: a file its
        // import graph reaches may lie where the agent may write (lib/, node_modules), and an edit
        // there must not switch a guard off (which extensions guard is known only once they run).
        if (status.grantedAt !== undefined) {
          const required = d.required ?? `it was trusted at ${status.grantedAt} and its code changed since`;
          return { ...base, required, keepLastGood: true, skip: { status: "failed", reason } };
        }
        return { ...base, skip: { status: "skipped", reason }, keepLastGood: true };
      }
      const entry = d.entry as string;
      const root = d.root;
      return { ...base, load: (fresh) => loadModule(entry, { home, fresh, ...(root ? { root } : {}) }) };
    });
  }

  function watchRoots(): string[] {
    const roots = [join(cwd, ".gatehouse"), join(home, "settings.json"), join(home, "extensions"), trustFilePath(home)];
    for (const loc of settingsFileLocations({ cwd, env, home })) roots.push(loc.file);
    for (const d of discovered) if (d.root && !d.root.includes("node_modules")) roots.push(d.root);
    for (const graph of graphs.values()) roots.push(...graph.files);
    return [...new Set(roots)];
  }

  function reservedFiles(): { path: string; why: string }[] {
    const files: { path: string; why: string }[] = [];
    for (const loc of settingsFileLocations({ cwd, env, home })) {
      if (loc.level !== "managed") continue;
      files.push({
        path: loc.file,
        why: "it is the managed settings file (GATEHOUSE_MANAGED_SETTINGS): the team's policy",
      });
    }
    for (const d of discovered) {
      if (d.origin !== "managed") continue;
      const why = `managed settings load it (extension ${JSON.stringify(d.fallbackName)}): the team's policy code`;
      for (const file of filesOf.get(d.id) ?? []) files.push({ path: file, why });
    }
    return files;
  }

  return {
    get settings() {
      return settings;
    },
    home,
    reservedFiles,
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
    requiredWhenFailed: (name, candidate) => {
      if (!candidate.user) return undefined;
      const project = (level: string) => level === "project" || level === "projectLocal";
      // What a project file sets that shapes how the extension loads: its section, or the time
      // limit of every setup (`hookTimeoutMs: 1` fails an async setup).
      const files = [
        ...settings
          .configLevels(name)
          .flatMap((l) => (project(l.level.level) ? [`${l.level.file} configures it`] : [])),
        ...settings.levels.flatMap((l) =>
          project(l.level) && l.settings.hookTimeoutMs !== undefined
            ? [`${l.file} sets hookTimeoutMs ${l.settings.hookTimeoutMs}`]
            : [],
        ),
      ];
      if (files.length === 0) return undefined;
      return `your user settings or folder enable it, and ${files.join(" and ")}: a project's settings must never switch off what you enabled`;
    },
    projectCode,
    trust,
    watchRoots,
    watch: (onChange) => watchExtensions(watchRoots(), onChange),
    close: () => gate.close(),
  };
}
