import { randomUUID } from "node:crypto";
import type { Message, UserMessage } from "@gatehouse/sdk";
import type { Logger } from "pino";
import { strayHookMatchers } from "../command-hooks/stray-matchers.ts";
import { GatehouseError } from "../common/errors.ts";
import { tapable } from "../common/lazy-tapable.ts";
import { stderrLogger } from "../common/stderr-logger.ts";
import { gatehouseHome } from "../config/gatehouse-home.ts";
import type { MergedSettings } from "../config/merge-settings.ts";
import { strayConfigSections } from "../config/stray-config.ts";
import { ExtensionManager } from "../extensions/extension-manager.ts";
import { ReservedPaths } from "../extensions/reserved-paths.ts";
import { toolNameProblem } from "../extensions/tool-definition-check.ts";
import type { ExtensionRecord } from "../extensions/types.ts";
import type { ExtensionWatcher } from "../extensions/watcher.ts";
import { HandlerRegistry } from "../hooks/handler-registry.ts";
import type { HandlerFailure } from "../hooks/registrations.ts";
import { runAgentLoop } from "../loop/agent-loop.ts";
import type { ToolSet, TurnState } from "../loop/types.ts";
import { SandboxRuntime } from "../sandbox/sandbox-runtime.ts";
import { createBuiltinTools, ShellGroups } from "../tools/index.ts";
import { ToolRegistry } from "../tools/tool-registry.ts";
import { checkCall } from "./check-call.ts";
import { commandHookCandidates } from "./command-hook-candidates.ts";
import { compactContext } from "./compact-context.ts";
import { EventHub } from "./event-hub.ts";
import { guardFailureError } from "./guard-failures.ts";
import { inlineCandidates } from "./inline-extensions.ts";
import { openProject, type ProjectExtensions } from "./project-extensions.ts";
import { ReloadScheduler } from "./reload-scheduler.ts";
import { RunConfig } from "./run-config.ts";
import { bindSession } from "./session-binding.ts";
import { defaultSystemPrompt } from "./system-prompt.ts";
import type { Host, HostOptions, RunOptions, RunResult } from "./types.ts";
import { toUserMessage } from "./user-message.ts";

const DEFAULT_HOOK_TIMEOUT_MS = 5000;
const HOST_RANK = -1;

/** The tighter of the embedder's and the settings' argument limits (either may be absent). */
function argumentLimit(option: number | undefined, settings: number | undefined): number | undefined {
  if (option !== undefined && (!Number.isInteger(option) || option < 1)) {
    throw new GatehouseError("GH_USAGE", `maxArgumentBytes must be a positive whole number of bytes, got ${option}.`);
  }
  if (option === undefined) return settings;
  return settings === undefined ? option : Math.min(option, settings);
}

function defaultLogger(): Logger {
  return stderrLogger({ level: process.env.GATEHOUSE_LOG_LEVEL ?? "warn" });
}

/**
 * Creates an embedded host: built-in tools, the given tools and in-code extensions, and — with
 * `discover` — the project's settings and extensions (SPEC §5), all on one hook bus.
 * Contract: an optional extension's failure never rejects; it is in `extensions()` and emitted as
 * `extension_error`. A required guard (enabled by managed settings, marked `"required"`, or
 * `protected-paths` / `tool-audit` wherever enabled, in code too) that fails to resolve, load,
 * validate its configuration or set up rejects with GH_GUARD_FAILED naming the settings entry's
 * file, line, column and level (unless `inspect`); later, a required guard that is not running
 * stops the run at the next turn boundary, and `run()` refuses to start. Tool, handler and reload
 * changes take effect at the next turn boundary. Bad settings files reject with GH_SETTINGS_INVALID
 * naming the file and field; an unusable Gatehouse home with GH_STATE_DIR.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  // A host that will run loads tapable now, as it did at import before that was made lazy: its first
  // run then pays no loading. Only an inspecting host (`gatehouse tools`, `extensions`) never needs it.
  if (!options.inspect) tapable();
  const logger = options.logger ?? defaultLogger();
  const hub = new EventHub(logger);
  if (options.onEvent) hub.subscribe(options.onEvent);
  const project = options.discover || options.watch ? openProject(options, logger) : undefined;
  const timeoutMs = options.hookTimeoutMs ?? project?.settings.hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const toolExecution = options.toolExecution ?? project?.settings.toolExecution;
  const maxArgumentBytes = argumentLimit(options.maxArgumentBytes, project?.settings.maxArgumentBytes);

  const reportFailure = (failure: HandlerFailure) => {
    logger.error(
      { extension: failure.extension, hook: failure.hook, err: failure.error.message },
      "extension handler failed",
    );
    // An observer of extension_error that fails must not trigger another one.
    if (failure.hook === "extension_error") return;
    // run-handler's own deadline error already says "timed out after N ms": say it once.
    const message = failure.error.message;
    const error = failure.timedOut && !message.startsWith("timed out") ? `timed out: ${message}` : message;
    void hub.emit({ type: "extension_error", extension: failure.extension, hook: failure.hook, error });
  };
  // What bash commands leave running in the background is killed when the run ends (SPEC §6).
  const shellGroups = new ShellGroups();
  const tools = new ToolRegistry(createBuiltinTools({ shellGroups }));
  const env = options.env ?? process.env;
  const home = project?.home ?? gatehouseHome(env);
  const sandbox = new SandboxRuntime({ gatehouseHome: home, env });
  const handlers = new HandlerRegistry({ timeoutMs, onError: reportFailure, sandbox });
  for (const [i, def] of (options.tools ?? []).entries()) {
    // The same name rule as registerTool: a name providers refuse fails every real model request.
    const badName = typeof def?.name === "string" ? toolNameProblem(def.name) : undefined;
    if (badName) throw new GatehouseError("GH_USAGE", `createHost: tools[${i}]: ${badName}`);
    tools.register(def, { owner: "host" }, HOST_RANK);
  }

  let controller: AbortController | undefined;
  const stop: { by?: { extension: string; reason: string }; pending?: { extension: string; reason: string } } = {};
  const stoppedBy = () => stop.by;
  // Fail closed between runs too: a stop asked for while no run is in progress (in setup, say,
  // when an audit sink cannot be opened) stops the next run before its first model request.
  const abortRun = (extension: string, reason: string) => {
    logger.error({ extension, reason }, "extension stopped the run");
    if (controller?.signal.aborted) return;
    if (!controller && stop.pending) return;
    void hub.emit({ type: "extension_error", extension, hook: "abortRun", error: reason });
    if (!controller) {
      stop.pending = { extension, reason };
      return;
    }
    stop.by = { extension, reason };
    controller.abort();
  };

  // Gatehouse's own reservations (the managed policy and its code), renewed with every settings reload.
  const reserved = new ReservedPaths();
  const hostReservations = {};
  const reserveHostFiles = () => {
    reserved.removeOwner(hostReservations);
    for (const file of project?.reservedFiles() ?? []) {
      reserved.add(hostReservations, { ...file, cwd: options.cwd, hide: false, by: "gatehouse" });
    }
    // A session file is history a resumed run replays to the model: wherever it is (`--session`
    // inside the workspace too), the model's tools may read it but never rewrite it.
    const sessionFile = options.session?.file;
    if (typeof sessionFile === "string" && sessionFile !== "") {
      const why = "it is the run's session file, whose history a resumed run replays to the model";
      reserved.add(hostReservations, { path: sessionFile, why, cwd: options.cwd, hide: false, by: "gatehouse" });
    }
  };
  reserveHostFiles();
  const manager = new ExtensionManager({
    reserved,
    cwd: options.cwd,
    home,
    logger,
    timeoutMs,
    tools,
    handlers,
    emit: (event) => hub.emit(event),
    abortRun,
    requiredWhenFailed: (name, candidate) => project?.requiredWhenFailed(name, candidate),
    configFor: (name, enabledBy) =>
      options.config && Object.hasOwn(options.config, name)
        ? { kind: "inline", section: options.config[name], source: "createHost({ config })" }
        : (project?.configFor(name, enabledBy) ?? { kind: "settings", levels: [], floor: false, cwd: options.cwd }),
  });
  const inline = inlineCandidates(options.extensions ?? []);
  const hookHost = project && {
    project,
    tools,
    handlers,
    cwd: options.cwd,
    env,
    trust: options.trust === true,
    sessionId: options.session?.header.id ?? randomUUID(),
    transcriptPath: options.session?.file ?? "",
  };
  const candidates = () => [
    ...inline,
    ...(project?.candidates() ?? []),
    ...(hookHost ? commandHookCandidates(hookHost) : []),
  ];
  await manager.reconcile(candidates());
  const down = manager.guardFailures();
  if (down.length > 0 && !options.inspect) {
    await manager.unloadAll();
    project?.close();
    throw guardFailureError(down);
  }
  const stray = [
    ...(project ? strayConfigOf(project.settings, manager.records()) : []),
    ...(project ? strayMatchersOf(project.settings, manager.records(), tools) : []),
    ...inlineStrayConfig(options.config, manager.records()),
  ];
  if (stray.length > 0) {
    await manager.unloadAll();
    project?.close();
    throw new GatehouseError("GH_SETTINGS_INVALID", ["Invalid settings:", ...stray].join("\n  "));
  }

  let watcher: ExtensionWatcher | undefined;
  // Reloads wait for the turn boundary while a run is in flight, so no call sees half a reload.
  const reloads = new ReloadScheduler({
    running: () => controller !== undefined,
    reload: async () => {
      const problem = project?.refresh();
      if (problem) {
        const error = `${problem} (keeping the last good settings)`;
        await hub.emit({ type: "extension_error", extension: "settings", error });
      }
      reserveHostFiles();
      const summary = await manager.reconcile(candidates());
      const strays = project
        ? [
            ...strayConfigOf(project.settings, manager.records()),
            ...strayMatchersOf(project.settings, manager.records(), tools),
          ]
        : [];
      for (const error of strays) {
        await hub.emit({ type: "extension_error", extension: "settings", error });
      }
      if (project) watcher?.setRoots(project.watchRoots());
      if (summary.loaded.length + summary.failed.length + summary.removed.length > 0) {
        await hub.emit({ type: "extensions_reloaded", ...summary });
      }
    },
  });
  // Declared before the scheduler's first use: reloads run only after creation returns.
  watcher = options.watch && project ? project.watch(() => reloads.schedule()) : undefined;
  if (watcher) await watcher.ready;

  const session = options.session;
  const context: Message[] = session
    ? bindSession(session, hub, (reason) => abortRun("session", `the session file cannot be written: ${reason}`))
    : options.messages
      ? [...options.messages]
      : [];
  /** Set by close(): extensions (guards included) are unloaded, so nothing may run or be decided. */
  let closing: Promise<void> | undefined;
  /** The run in progress, for close() to wait on. */
  let running: Promise<unknown> | undefined;
  const open = (what: string) => {
    if (closing)
      throw new GatehouseError(
        "GH_USAGE",
        `${what} is not possible: this host is closed (its extensions and guards are unloaded); create a new host.`,
      );
  };
  const idle = (what: string) => {
    open(what);
    if (controller) throw new GatehouseError("GH_USAGE", `${what} is not possible while a run is in progress.`);
    if (!session) throw new GatehouseError("GH_USAGE", `${what} needs a session: createHost({ session }).`);
    return session;
  };
  const steering: UserMessage[] = [];
  const followUps: UserMessage[] = [];

  let prompted: { tools: ToolSet; prompt: string } | undefined;
  const systemPromptFor = (set: ToolSet): string => {
    if (options.systemPrompt !== undefined) return options.systemPrompt;
    if (prompted?.tools !== set) prompted = { tools: set, prompt: defaultSystemPrompt(options.cwd, set.list) };
    return prompted.prompt;
  };
  const prepareTurn = async (): Promise<TurnState> => {
    await reloads.atBoundary();
    const failures = manager.guardFailures();
    if (failures.length > 0) abortRun("gatehouse", guardFailureError(failures).message);
    const bus = handlers.bus();
    hub.bus = bus;
    const set = tools.snapshot();
    return { tools: set, hooks: bus, systemPrompt: systemPromptFor(set) };
  };

  function run(prompt: string | UserMessage, runOptions?: RunOptions): Promise<RunResult> {
    try {
      open("A run");
    } catch (error) {
      return Promise.reject(error);
    }
    const started = runOnce(prompt, runOptions);
    if (running) return started; // refused at once: a run is already in progress
    const tracked = started.finally(() => {
      if (running === tracked) running = undefined;
    });
    running = tracked;
    return tracked;
  }

  async function runOnce(prompt: string | UserMessage, runOptions?: RunOptions): Promise<RunResult> {
    if (controller) throw new GatehouseError("GH_USAGE", "A run is already in progress on this host.");
    const own = new AbortController();
    controller = own;
    delete stop.by;
    if (stop.pending) {
      stop.by = stop.pending;
      delete stop.pending;
      own.abort();
    }
    await reloads.settled();
    const failures = manager.guardFailures();
    if (failures.length > 0) {
      controller = undefined;
      throw guardFailureError(failures);
    }
    const onAbort = () => own.abort();
    runOptions?.signal?.addEventListener("abort", onAbort, { once: true });
    if (runOptions?.signal?.aborted) own.abort();
    hub.bus = handlers.bus();
    hub.signal = own.signal;
    try {
      const config = new RunConfig({
        model: options.model,
        messages: context,
        hub,
        prepareTurn,
        steering,
        followUps,
        maxTurns: options.maxTurns,
        toolExecution,
        signal: own.signal,
        maxArgumentBytes,
        cwd: options.cwd,
        logger,
      });
      const added = await runAgentLoop([toUserMessage(prompt, Date.now())], config);
      const last = added.findLast((m) => m.role === "assistant");
      const result: RunResult = { messages: added, stopReason: last?.stopReason, aborted: own.signal.aborted };
      if (last?.errorMessage !== undefined) result.errorMessage = last.errorMessage;
      if (config.limitReached) result.maxTurnsReached = true;
      if (config.halted) result.terminatedBy = config.halted;
      const by = stoppedBy();
      if (by) {
        result.stoppedBy = by;
        result.errorMessage = `Stopped by extension "${by.extension}": ${by.reason}`;
      }
      return result;
    } finally {
      shellGroups.killAll();
      runOptions?.signal?.removeEventListener("abort", onAbort);
      controller = undefined;
      reloads.afterRun();
    }
  }

  return {
    run,
    subscribe: (listener) => hub.subscribe(listener),
    steer: (message) => steering.push(toUserMessage(message, Date.now())),
    followUp: (message) => followUps.push(toUserMessage(message, Date.now())),
    abort: () => controller?.abort(),
    get messages() {
      return context;
    },
    check: async (toolName, args) => {
      open("A policy check");
      await reloads.settled();
      return checkCall({ tools: tools.snapshot(), hooks: handlers.bus() }, toolName, args);
    },
    tools: () => tools.describe(),
    get session() {
      return session;
    },
    branch(entryId) {
      const s = idle("Branching");
      s.branch(entryId);
      // Calls a crash left without a result on the new path are answered explicitly, in the file too.
      const built = s.context();
      for (const result of built.synthesized) s.appendMessage(result, { synthetic: true });
      context.splice(0, context.length, ...built.messages);
    },
    compact: ({ summary, keepLast }) =>
      compactContext({ session: idle("Compacting"), bus: handlers.bus(), context, summary, keepLast }),
    extensions: () => manager.records(),
    reservedPaths: () => reserved.list(),
    reload: () => {
      try {
        open("A reload");
      } catch (error) {
        return Promise.reject(error);
      }
      return reloads.request();
    },
    close() {
      closing ??= closeOnce();
      return closing;
    },
  };

  /** Stops a run in progress and waits for it (its calls end, audited, before any guard unloads), then unloads. */
  async function closeOnce(): Promise<void> {
    controller?.abort();
    await running?.catch(() => undefined);
    shellGroups.killAll();
    await watcher?.close();
    await reloads.settled();
    await manager.unloadAll();
    project?.close();
    session?.close();
  }
}

export type { ProjectExtensions };

/** Sections of the settings' `config` that configure none of the extensions (see `strayConfigSections`). */
function strayConfigOf(settings: MergedSettings, records: readonly ExtensionRecord[]): string[] {
  const known = new Set(records.map((r) => r.name));
  const failed = new Set(records.filter((r) => r.status !== "loaded").map((r) => r.name));
  return strayConfigSections(settings, known, failed.size > 0, failed);
}

/** Command-hook matchers of the settings that select none of the host's tools. */
function strayMatchersOf(settings: MergedSettings, records: readonly ExtensionRecord[], tools: ToolRegistry): string[] {
  const unsure = records.some((r) => r.status !== "loaded");
  return strayHookMatchers(
    settings,
    tools.snapshot().list.map((def) => def.name),
    unsure,
  );
}

/** Sections of `createHost({ config })` that configure none of the host's extensions. */
function inlineStrayConfig(config: HostOptions["config"], records: readonly ExtensionRecord[]): string[] {
  if (!config) return [];
  const known = new Set(records.map((r) => r.name));
  const list = [...known].sort().join(", ") || "none";
  return Object.keys(config)
    .filter((name) => !known.has(name))
    .map(
      (name) => `createHost({ config })[${JSON.stringify(name)}] configures none of the host's extensions (${list})`,
    );
}
