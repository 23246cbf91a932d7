import { isAbsolute } from "node:path";
import type { HostEvent, Logger } from "@gatehouse/sdk";
import type { HandlerRegistry } from "../hooks/handler-registry.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import type { ExtensionApiHandle } from "./api.ts";
import { disposeExtension } from "./dispose-extension.ts";
import { type LoadedModule, loadModule } from "./module-loader.ts";
import type { ConfigInput } from "./read-config.ts";
import type { ReservedPaths } from "./reserved-paths.ts";
import { declaredName, setupExtension } from "./setup-extension.ts";
import type { EnabledAt, ExtensionRecord } from "./types.ts";

/** One extension the manager should have loaded, with everything needed to (re)load it. */
export interface ExtensionCandidate {
  /** Stable identity across reloads (entry file, or "inline:<n>"). */
  id: string;
  source: string;
  fallbackName: string;
  /** Produces the module's default export; absent for candidates reported as skipped or failed. */
  load?: (fresh: boolean) => Promise<{ ok: true; exported: unknown } | { ok: false; error: string }>;
  /** Changes when the extension must be reloaded (file contents, config section, rank). */
  fingerprint: string;
  /** Set for extensions that must not run, with the reason (untrusted, unresolvable). */
  skip?: { status: "skipped" | "failed"; reason: string };
  /** When true and a last good version is loaded, keep it instead of applying `skip`. */
  keepLastGood?: boolean;
  /**
   * Set for a guard that must load (enabled by managed settings, marked `"required"`, or a
   * first-party guard): why it is required. A required extension that fails stops the host.
   */
  required?: string;
  /** Enabled by managed settings: managed settings are the floor of its configuration. */
  managed?: boolean;
  /**
   * Enabled by the user (user settings or `~/.gatehouse/extensions/`): the user's section, with its
   * defaults, is the floor of what the project's files configure.
   */
  user?: boolean;
  /** Where it was enabled, for reports. */
  enabledAt?: EnabledAt;
}

/** Which levels whose configuration is a floor enabled an extension (see `ExtensionCandidate`). */
export interface ConfigEnablers {
  managed: boolean;
  user: boolean;
}

function enablersOf(candidate: ExtensionCandidate): ConfigEnablers {
  return { managed: candidate.managed === true, user: candidate.user === true };
}

/** A required extension that is not running, and why. */
export interface GuardFailure {
  name: string;
  source: string;
  /** Why it is required. */
  required: string;
  enabledAt?: EnabledAt | undefined;
  /** Why it did not load. */
  reason: string;
}

/** What the manager needs from the host. */
export interface ExtensionManagerOptions {
  cwd: string;
  /** The per-user Gatehouse directory, given to every extension's API. */
  home: string;
  logger: Logger & { child(bindings: Record<string, unknown>): Logger };
  timeoutMs: number;
  tools: ToolRegistry;
  handlers: HandlerRegistry;
  emit: (event: HostEvent) => unknown;
  abortRun: (extension: string, reason: string) => void;
  /** Where an extension's settings section comes from, given which stronger levels enabled it. */
  configFor: (name: string, enabledBy: ConfigEnablers) => ConfigInput;
  /** The host's reserved paths, shared by every extension's API. */
  reserved: ReservedPaths;
  /**
   * Why an extension that is not `required` must run all the same, now that it did not load (by
   * the name it loaded under), or `undefined`: its failure then stops the host like a guard's.
   */
  requiredWhenFailed?: (name: string, candidate: ExtensionCandidate) => string | undefined;
}

interface Loaded {
  candidate: ExtensionCandidate;
  rank?: number;
  /** The settings section the loaded version was set up with. */
  configStamp?: string | undefined;
  record: ExtensionRecord;
  handle?: ExtensionApiHandle;
}

/** What one reconcile changed, as the `extensions_reloaded` event reports it. */
export interface ReloadSummary {
  loaded: string[];
  failed: string[];
  removed: string[];
}

/**
 * Loads, reloads and unloads extensions, keeping each one's last good version.
 * Contract: the candidates' order is the load order (rank). A candidate whose fingerprint is
 * unchanged is left alone; a changed one is set up again and, only if that succeeds, replaces
 * the old version in one step; if it fails, the old version stays active and the record says why.
 */
export class ExtensionManager {
  readonly #options: ExtensionManagerOptions;
  #current = new Map<string, Loaded>();
  #order: string[] = [];

  constructor(options: ExtensionManagerOptions) {
    this.#options = options;
  }

  /** Brings the loaded set in line with `candidates`; returns what changed. */
  async reconcile(candidates: readonly ExtensionCandidate[]): Promise<ReloadSummary> {
    const summary: ReloadSummary = { loaded: [], failed: [], removed: [] };
    const wanted = new Set(candidates.map((c) => c.id));
    for (const [id, loaded] of [...this.#current]) {
      if (wanted.has(id)) continue;
      await this.#unload(loaded);
      this.#current.delete(id);
      summary.removed.push(loaded.record.name);
    }
    for (const [rank, candidate] of candidates.entries()) {
      const previous = this.#current.get(candidate.id);
      const sameConfig = previous?.configStamp === this.#configStamp(previous?.record.name, candidate);
      const unchanged =
        previous?.candidate.fingerprint === candidate.fingerprint && !previous.candidate.skip && !candidate.skip;
      if (previous && unchanged && sameConfig) {
        if (previous.handle && previous.rank !== rank) {
          this.#options.tools.rerank(previous.record.name, rank);
          this.#options.handlers.rerank(previous.record.name, rank);
          previous.rank = rank;
        }
        continue;
      }
      const next = await this.#load(candidate, rank, previous);
      if (next !== previous) next.rank = rank;
      this.#current.set(candidate.id, next);
      // A failed reload keeps the previous version (next === previous) but is still reported.
      const failed = next === previous ? previous.record.errors.length > 0 : next.record.status === "failed";
      if (failed) summary.failed.push(next.record.name);
      else if (next.record.status === "loaded") summary.loaded.push(next.record.name);
    }
    this.#order = candidates.map((c) => c.id);
    return summary;
  }

  #configStamp(name: string | undefined, candidate: ExtensionCandidate): string | undefined {
    if (name === undefined) return undefined;
    const input = this.#options.configFor(name, enablersOf(candidate));
    if (input.kind === "inline") return JSON.stringify(input.section ?? null);
    return JSON.stringify([input.floor, input.levels.map((l) => [l.level.file, l.value])]);
  }

  /** The required extensions that are not running (never loaded, or unloaded), in load order. */
  guardFailures(): GuardFailure[] {
    const failures: GuardFailure[] = [];
    for (const id of this.#order) {
      const loaded = this.#current.get(id);
      if (!loaded || loaded.handle) continue;
      const required =
        loaded.candidate.required ??
        (loaded.candidate.skip?.status === "skipped"
          ? undefined
          : this.#options.requiredWhenFailed?.(loaded.record.name, loaded.candidate));
      if (!required) continue;
      failures.push({
        name: loaded.record.name,
        source: loaded.candidate.source,
        required,
        enabledAt: loaded.candidate.enabledAt,
        reason: loaded.record.errors[0] ?? "it did not load",
      });
    }
    return failures;
  }

  /** Every extension with its status, tools, handlers and errors, in load order. */
  records(): ExtensionRecord[] {
    const records: ExtensionRecord[] = [];
    for (const id of this.#order) {
      const loaded = this.#current.get(id);
      if (!loaded) continue;
      const r = loaded.record;
      const live = r.status === "loaded";
      records.push({
        ...r,
        required: loaded.candidate.required !== undefined,
        ...(loaded.candidate.enabledAt ? { enabledAt: loaded.candidate.enabledAt } : {}),
        tools: live ? this.#options.tools.namesOf(r.name) : [],
        handlers: live ? this.#options.handlers.describe(r.name) : [],
        errors: [...r.errors],
      });
    }
    return records;
  }

  /**
   * Unloads everything (host close), awaiting each extension's `onDispose` functions, in reverse
   * load order; the records stay readable.
   */
  async unloadAll(): Promise<void> {
    for (const loaded of [...this.#current.values()].reverse()) {
      await this.#unload(loaded);
      delete loaded.handle;
    }
  }

  /** Takes one loaded version out of the registries, then awaits its disposers. */
  async #unload(loaded: Loaded): Promise<void> {
    const { handle } = loaded;
    if (!handle) return;
    this.#options.tools.removeOwner(loaded.record.name);
    this.#options.handlers.removeOwner(loaded.record.name);
    await this.#dispose(handle, loaded.record.name, loaded.candidate.source);
  }

  /** Awaits one version's disposers; each failure is logged and emitted as `extension_error`, never thrown. */
  #dispose(handle: ExtensionApiHandle, name: string, source: string): Promise<void> {
    const o = this.#options;
    return disposeExtension(handle, {
      name,
      timeoutMs: o.timeoutMs,
      onError: (error) => {
        o.logger.error({ extension: name, source, err: error }, "extension onDispose failed");
        o.emit({ type: "extension_error", extension: name, source, hook: "onDispose", error });
      },
    });
  }

  #nameTaken(name: string, id: string): Loaded | undefined {
    for (const [otherId, loaded] of this.#current) {
      if (otherId !== id && loaded.handle && loaded.record.name === name) return loaded;
    }
    return undefined;
  }

  async #load(candidate: ExtensionCandidate, rank: number, previous: Loaded | undefined): Promise<Loaded> {
    const o = this.#options;
    const base = (name: string): ExtensionRecord => ({
      name,
      source: candidate.source,
      status: "failed",
      tools: [],
      handlers: [],
      errors: [],
    });
    const keep = (reason: string): Loaded => {
      if (!previous?.handle) {
        const record = base(candidate.fallbackName);
        record.errors.push(reason);
        return { candidate, record };
      }
      previous.record.errors = [`reload failed, keeping the last good version: ${reason}`];
      o.emit({ type: "extension_error", extension: previous.record.name, source: candidate.source, error: reason });
      return previous;
    };

    if (candidate.skip) {
      if (candidate.keepLastGood && previous?.handle) return keep(candidate.skip.reason);
      if (previous) await this.#unload(previous);
      const record = { ...base(candidate.fallbackName), status: candidate.skip.status };
      record.errors.push(candidate.skip.reason);
      if (candidate.skip.status === "failed") {
        o.emit({
          type: "extension_error",
          extension: record.name,
          source: candidate.source,
          error: candidate.skip.reason,
        });
      }
      return { candidate, record };
    }
    const module = candidate.load
      ? await withinLoadLimit(
          candidate.load(previous !== undefined),
          isAbsolute(candidate.id) ? candidate.id : candidate.source,
          o.timeoutMs,
        )
      : { ok: false as const, error: "nothing to load" };
    if (!module.ok) {
      o.logger.error(
        { extension: candidate.fallbackName, source: candidate.source, err: module.error },
        "extension failed to load",
      );
      if (previous?.handle) return keep(module.error);
      o.emit({
        type: "extension_error",
        extension: candidate.fallbackName,
        source: candidate.source,
        error: module.error,
      });
      const record = base(candidate.fallbackName);
      record.errors.push(module.error);
      return { candidate, record };
    }
    const name = declaredName(module.exported) ?? candidate.fallbackName;
    const clash = this.#nameTaken(name, candidate.id);
    if (clash) {
      const reason = `an extension named "${name}" is already loaded from ${clash.candidate.source}`;
      if (previous?.handle) return keep(reason);
      o.emit({ type: "extension_error", extension: name, source: candidate.source, error: reason });
      const record = base(name);
      record.errors.push(reason);
      return { candidate, record };
    }
    const configInput = o.configFor(name, enablersOf(candidate));
    const result = await setupExtension(
      module.exported,
      {
        name,
        source: candidate.source,
        cwd: o.cwd,
        home: o.home,
        logger: o.logger.child({ extension: name }),
        tools: o.tools,
        handlers: o.handlers,
        configInput,
        rank,
        abortRun: o.abortRun,
        reserved: o.reserved,
      },
      o.timeoutMs,
    );
    if (!result.ok) {
      // Whatever the failed attempt opened before it threw is released; the last good version stays.
      if (result.handle) await this.#dispose(result.handle, name, candidate.source);
      const reason = result.record.errors[0] ?? "setup failed";
      o.logger.error({ extension: name, source: candidate.source, err: reason }, "extension failed to load");
      if (previous?.handle) return keep(reason);
      o.emit({ type: "extension_error", extension: name, source: candidate.source, error: reason });
      return { candidate, record: result.record };
    }
    // The old version is disposed before the new one takes over (its registrations are published
    // only after): a file or socket the old version held is released before the new one can reach it.
    if (previous) await this.#unload(previous);
    result.handle.commit();
    const record = result.record;
    o.emit({ type: "extension_loaded", extension: name, source: candidate.source, tools: o.tools.namesOf(name) });
    return { candidate, record, handle: result.handle, configStamp: this.#configStamp(name, candidate) };
  }
}

/** The least time a module gets to load, whatever the handler limit (a cold transpile can take a while). */
const MIN_LOAD_LIMIT_MS = 5000;

/**
 * A module load that settles within the limit, or fails naming the file. A top-level `await` that
 * never settles left nothing for the event loop to wait on: the CLI ended at once, silently, with
 * exit 0 (no run, no output). The timer keeps the process alive until the load is reported as
 * failed like any other (so a guard's stops the run).
 */
function withinLoadLimit(load: Promise<LoadedModule>, source: string, timeoutMs: number): Promise<LoadedModule> {
  const ms = Math.max(timeoutMs, MIN_LOAD_LIMIT_MS);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<LoadedModule>((resolve) => {
    timer = setTimeout(() => {
      const error = `${source} did not finish loading within ${ms} ms (a top-level await that never settles?)`;
      resolve({ ok: false, error });
    }, ms);
  });
  return Promise.race([load, limit]).finally(() => clearTimeout(timer));
}

export { loadModule };
