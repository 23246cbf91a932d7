import type { z } from "zod";
import type { ConfigOptions } from "./config-merge.ts";
import type { GatehouseEventType } from "./events.ts";
import type { Awaitable, Handler, HookMap } from "./handler-map.ts";
import type { ReservedPath, ReservePathOptions } from "./reserved-path.ts";
import type { AnyToolDefinition, Logger } from "./tool.ts";
import type { MatchedEvent, ToolMatcher } from "./tool-match.ts";

/** Every event name `api.on` accepts: the observed events and the interception points. */
export type HandlerEventName = GatehouseEventType | "tool_call" | "tool_result" | "session_before_compact";

/** The events whose handlers may be limited to some tools with a `tools` matcher. */
export type ToolEventName =
  | "tool_call"
  | "tool_result"
  | "tool_execution_start"
  | "tool_execution_update"
  | "tool_execution_end";

/**
 * Options of `api.on(event, handler, options)`, by event: `stage` only for `tool_call`, `tools`
 * only for the events of one tool call.
 */
export type OnOptions<K extends HandlerEventName = HandlerEventName> = K extends "tool_call"
  ? {
      /** "transform" (default) may mutate or block; "enforce" sees the final, frozen input and may only block. */
      stage?: "transform" | "enforce";
      /** Only calls of these tools reach the handler (see `ToolMatcher`). */
      tools?: ToolMatcher;
    }
  : K extends ToolEventName
    ? {
        /** Only calls of these tools reach the handler (see `ToolMatcher`). */
        tools?: ToolMatcher;
        stage?: never;
      }
    : { stage?: never; tools?: never };

/** The hook of the handler map that `api.on(K, handler, options)` registers. */
export type HookOf<K extends HandlerEventName, O> = K extends "tool_call"
  ? O extends { stage: "enforce" }
    ? "tool_call:enforce"
    : "tool_call:transform"
  : K;

/** The handler `api.on(K, handler, options)` accepts: the handler map's, with the event narrowed by `options.tools`. */
export type OnHandler<K extends HandlerEventName, O = object> =
  HookOf<K, O> extends infer H extends keyof HookMap
    ? Handler<
        K extends "tool_call" | "tool_result"
          ? MatchedEvent<HookMap[H]["event"], O extends { tools: infer M } ? M : undefined>
          : HookMap[H]["event"],
        HookMap[H]["result"]
      >
    : never;

/** The API an extension's `setup` receives. */
export interface ExtensionAPI {
  /** Adds a tool; a name that matches a built-in overrides it. */
  registerTool(def: AnyToolDefinition): void;
  /**
   * Handles an event (the handler map, `HookMap`, says what each handler receives and may return):
   * `tool_call` intercepts a call before it runs (`{ stage: "enforce" }` runs after every
   * transform, on the final frozen input), `tool_result` patches an executed call's result,
   * `session_before_compact` supplies or vetoes a summary, and every event of the run can be
   * observed. `{ tools: ["write", "edit"] }` (names, `defineTool` handles or a RegExp) limits a
   * handler of one call's events to those tools, narrowing the event's type for names and handles.
   * Contract: an unknown event, a non-function handler, a bad stage or matcher, or an option the
   * event does not take throws here, so it fails this extension's load naming it.
   */
  on<K extends HandlerEventName, const O extends OnOptions<K> = OnOptions<K>>(
    event: K,
    handler: OnHandler<K, O>,
    options?: O,
  ): void;
  /**
   * Registers a function the host awaits when this version of the extension is unloaded: before a
   * reloaded version takes over, when it is disabled or removed, and on `host.close()`. Release
   * files, sockets and timers there. Disposers run in reverse order of registration, each within
   * the handler time limit; one that throws or times out is reported as `extension_error` and never
   * blocks the unload. The API no longer registers anything once disposers run.
   */
  onDispose(dispose: () => Awaitable<void>): void;
  /** The extension API version this host implements (semver, e.g. "1.0.0"); see `hostVersion`. */
  hostVersion: string;
  /**
   * Parses this extension's section of the settings (`config.<name>`) with a zod schema.
   * `options.merge` says how each key merges across settings levels, so managed settings are a
   * floor for a guard's security-relevant keys (see `ConfigMergeRule`).
   */
  config<S extends z.ZodType>(schema: S, options?: ConfigOptions): z.output<S>;
  /**
   * Stops the current run with an error (e.g. an audit that can no longer be written): no further
   * tool call starts, no new model turn begins, and the run reports `reason` naming this extension.
   * Called while no run is in progress (in `setup`), it stops the next run before any call runs.
   */
  abortRun(reason: string): void;
  /** A logger bound to this extension. */
  logger: Logger;
  /** The project's working directory. */
  cwd: string;
  /**
   * The per-user Gatehouse directory (`GATEHOUSE_HOME`, default `~/.gatehouse`): trust, caches,
   * audit logs and keys live there, out of the workspace. It may not exist yet; see `privateDir`.
   */
  gatehouseHome: string;
  /**
   * A directory under `gatehouseHome` for this extension's state (`privateDir("audit")`), created
   * on first use. Contract: every directory from the home down is mode 0700, owned by the current
   * user and not a symbolic link, or this throws naming the directory.
   */
  privateDir(...segments: string[]): string;
  /**
   * Reserves a file or folder this extension keeps for itself (its log, its key): guards such as
   * protected-paths deny the agent's writes to it, and its reads too with `hide`, wherever it lies.
   * Contract: relative paths resolve against `cwd`; links are resolved when the path exists; the
   * reservation applies at once and ends when this version of the extension unloads.
   */
  reservePath(path: string, options: ReservePathOptions): void;
  /**
   * Every path reserved in this host: by loaded extensions and by Gatehouse itself (the managed
   * settings file and the code it enables). Contract: the array is never mutated; a new one is
   * returned after any change, so a guard may cache what it derives from it by identity.
   */
  reservedPaths(): readonly ReservedPath[];
}

/** A named extension whose `setup` registers tools and handlers. */
export interface ExtensionDefinition {
  name: string;
  /**
   * The extension API versions this extension works with, as a semver range (`"^1"`,
   * `">=1.2 <3"`). A host whose `api.hostVersion` is outside it refuses to load the extension
   * with an error naming both, instead of failing at the first call.
   */
  hostVersion?: string;
  setup: (api: ExtensionAPI) => Awaitable<void>;
}

/** An extension module's default export: a definition, or a bare setup function. */
export type ExtensionExport = ExtensionDefinition | ((api: ExtensionAPI) => Awaitable<void>);

/**
 * Declares an extension.
 * Contract: returns the definition unchanged; the host calls `setup` once per load.
 */
export function defineExtension(def: ExtensionDefinition): ExtensionDefinition {
  return def;
}
