import type {
  AnyToolDefinition,
  Awaitable,
  ConfigOptions,
  ExtensionAPI,
  Logger,
  ReservePathOptions,
} from "@gatehouse/sdk";
import type { z } from "zod";
import { GatehouseError } from "../common/errors.ts";
import { ensurePrivateDir } from "../config/private-dir.ts";
import type { HandlerRegistry } from "../hooks/handler-registry.ts";
import type { Registration } from "../hooks/registrations.ts";
import { compileToolMatcher, nearMissNames, type ToolMatch } from "../hooks/tool-matcher.ts";
import type { ToolConflict, ToolRegistry } from "../tools/tool-registry.ts";
import { HOST_API_VERSION } from "./api-version.ts";
import type { ConfigExplanation } from "./config-explanation.ts";
import { HANDLER_EVENTS, isObservableEvent, isToolEvent } from "./event-names.ts";
import { type ConfigInput, readConfig } from "./read-config.ts";
import type { ReservedPaths } from "./reserved-paths.ts";
import { toolDefinitionProblem } from "./tool-definition-check.ts";

/** What the host gives one extension's API. */
export interface ExtensionApiContext {
  name: string;
  /** The file or package the extension came from ("inline" for createHost extensions). */
  source: string;
  cwd: string;
  /** The per-user Gatehouse directory. */
  home: string;
  logger: Logger;
  tools: ToolRegistry;
  handlers: HandlerRegistry;
  /** The extension's load order: decides handler order and contested tool names. */
  rank: number;
  /** Where this extension's settings section (`config.<name>`) comes from. */
  configInput: ConfigInput;
  /** Receives what `api.config` decided, key by key (for `gatehouse policy check --explain`). */
  onConfig?: (explanation: ConfigExplanation) => void;
  onConflict: (conflict: ToolConflict) => void;
  /** Stops the current run on behalf of this extension. */
  abortRun: (extension: string, reason: string) => void;
  /** The host's reserved paths: this extension's reservations are added there and dropped on revoke. */
  reserved: ReservedPaths;
}

/** An extension's API, the switch that publishes what setup registered, and the one that turns it off. */
export interface ExtensionApiHandle {
  api: ExtensionAPI;
  /**
   * Replaces everything this extension had registered with what its setup registered, in one
   * step; later API calls apply directly. Until then nothing it registered is visible.
   */
  commit(): void;
  /** After this, every API call throws: an unloaded extension cannot register anything. */
  revoke(): void;
  /** Takes the functions `api.onDispose` registered, latest first (the order they run in); each is handed out once. */
  disposers(): (() => Awaitable<void>)[];
  /**
   * Why a handler setup staged can never run, or undefined: its `tools` list names a tool only by a
   * near miss (`"wrte"`), counting the tools registered so far and the extension's own.
   */
  strayToolNames(): string | undefined;
}

function usage(name: string, message: string): GatehouseError {
  return new GatehouseError("GH_EXTENSION_LOAD", `Extension "${name}": ${message}`);
}

/**
 * Builds the API of SPEC §5 for one extension.
 * Contract: programmer errors (unknown event, non-function handler, bad stage, tool without a
 * name, execute or description, parameters that can never match, a misspelt executionMode; see
 * tool-definition-check.ts) throw at the call site, so they surface as a load error of that extension.
 */
export function createExtensionApi(ctx: ExtensionApiContext): ExtensionApiHandle {
  let revoked = false;
  let staged: { tools: AnyToolDefinition[]; handlers: Registration[] } | undefined = { tools: [], handlers: [] };
  const applyTool = (def: AnyToolDefinition) => {
    const conflict = ctx.tools.register(def, { owner: ctx.name, file: ctx.source }, ctx.rank);
    if (conflict) ctx.onConflict(conflict);
  };
  const live = (what: string) => {
    if (revoked) throw usage(ctx.name, `${what} was called after the extension was unloaded.`);
  };

  function registerTool(def: AnyToolDefinition): void {
    live("registerTool");
    const problem = toolDefinitionProblem(def);
    if (problem) throw usage(ctx.name, problem);
    if (staged) staged.tools.push(def);
    else applyTool(def);
  }

  /** The `tools` option compiled, or undefined when absent; throws for an event without tools or a bad matcher. */
  function matcherOf(event: string, options: { tools?: unknown } | undefined): ToolMatch | undefined {
    if (options?.tools === undefined) return undefined;
    if (!isToolEvent(event))
      throw usage(ctx.name, `"${event}" is not an event of one tool call, so it takes no tools matcher.`);
    const match = compileToolMatcher(options.tools);
    if (typeof match === "string")
      throw usage(ctx.name, `the tools matcher of its "${event}" handler is wrong: ${match}.`);
    return match;
  }

  function on(event: string, handler: unknown, options?: unknown): void {
    live("on");
    if (typeof handler !== "function") throw usage(ctx.name, `the handler for "${event}" is not a function.`);
    if (options !== undefined && (options === null || typeof options !== "object")) {
      throw usage(ctx.name, `the options of its "${event}" handler must be an object, like { stage: "enforce" }.`);
    }
    const opts = options as { stage?: unknown; tools?: unknown } | undefined;
    const fn = handler as never;
    const base = { extension: ctx.name, match: matcherOf(event, opts) };
    if (event !== "tool_call" && opts?.stage !== undefined) {
      throw usage(ctx.name, `stage applies to "tool_call" handlers only, not to "${event}".`);
    }
    let registration: Registration;
    if (event === "tool_call") {
      const stage = opts?.stage ?? "transform";
      if (stage !== "transform" && stage !== "enforce") {
        throw usage(ctx.name, `tool_call stage must be "transform" or "enforce", not ${JSON.stringify(stage)}.`);
      }
      registration = { ...base, kind: stage, handler: fn };
    } else if (event === "tool_result") {
      registration = { ...base, kind: "tool_result", handler: fn };
    } else if (event === "session_before_compact") {
      registration = { ...base, kind: "session_before_compact", handler: fn };
    } else if (isObservableEvent(event)) {
      registration = { ...base, kind: "event", event, handler: fn };
    } else {
      throw usage(ctx.name, `unknown event "${event}"; expected one of: ${HANDLER_EVENTS.join(", ")}.`);
    }
    if (staged) staged.handlers.push(registration);
    else ctx.handlers.add(registration, ctx.rank);
  }

  const disposers: (() => Awaitable<void>)[] = [];
  function onDispose(dispose: unknown): void {
    live("onDispose");
    if (typeof dispose !== "function") throw usage(ctx.name, "onDispose needs a function.");
    disposers.push(dispose as () => Awaitable<void>);
  }

  function config<S extends z.ZodType>(schema: S, options?: ConfigOptions): z.output<S> {
    live("config");
    if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== "function") {
      throw usage(ctx.name, "config needs a zod schema.");
    }
    const { value, explanation } = readConfig({
      name: ctx.name,
      schema,
      input: ctx.configInput,
      merge: options?.merge,
      userOnly: options?.userOnly,
    });
    ctx.onConfig?.(explanation);
    return value;
  }

  function abortRun(reason: string): void {
    live("abortRun");
    ctx.abortRun(ctx.name, typeof reason === "string" && reason ? reason : "no reason given");
  }

  function privateDir(...segments: string[]): string {
    live("privateDir");
    return ensurePrivateDir(ctx.home, ...segments);
  }

  // This API instance owns its reservations, so a reload's new version never loses them with the old one's.
  const owner = {};
  function reservePath(target: string, options: ReservePathOptions): void {
    live("reservePath");
    const why = typeof options?.why === "string" && options.why.trim() ? options.why.trim() : `${ctx.name} keeps it`;
    ctx.reserved.add(owner, { path: target, cwd: ctx.cwd, why, hide: options?.hide === true, by: ctx.name });
  }

  const api = {
    registerTool,
    reservePath,
    reservedPaths: () => ctx.reserved.list(),
    on,
    onDispose,
    hostVersion: HOST_API_VERSION,
    config,
    abortRun,
    privateDir,
    logger: ctx.logger,
    cwd: ctx.cwd,
    gatehouseHome: ctx.home,
  } as ExtensionAPI;
  return {
    api,
    commit() {
      if (!staged || revoked) return;
      const { tools, handlers } = staged;
      staged = undefined;
      ctx.tools.removeOwner(ctx.name);
      ctx.handlers.removeOwner(ctx.name);
      for (const def of tools) applyTool(def);
      for (const registration of handlers) ctx.handlers.add(registration, ctx.rank);
    },
    revoke() {
      revoked = true;
      ctx.reserved.removeOwner(owner);
    },
    disposers: () => disposers.splice(0).reverse(),
    strayToolNames() {
      if (!staged) return undefined;
      const known = new Set([...ctx.tools.snapshot().list.map((d) => d.name), ...staged.tools.map((d) => d.name)]);
      for (const r of staged.handlers) {
        const missed = nearMissNames(r.match?.names ?? [], known);
        if (missed.length === 0) continue;
        const hook = r.kind === "event" ? r.event : r.kind === "tool_result" ? "tool_result" : `tool_call ${r.kind}`;
        const what = missed.map((m) => `"${m.name}" (did you mean "${m.near}"?)`).join(", ");
        return usage(
          ctx.name,
          `its ${hook} handler's tools list names no tool by ${what}, so the handler would never run for it.`,
        ).message;
      }
      return undefined;
    },
  };
}
