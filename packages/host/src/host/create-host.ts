import type { GatehouseEvent, Message, UserMessage } from "@gatehouse/sdk";
import { type Logger, pino } from "pino";
import { GatehouseError } from "../common/errors.ts";
import { setupExtension } from "../extensions/setup-extension.ts";
import type { ExtensionRecord } from "../extensions/types.ts";
import { HandlerRegistry } from "../hooks/handler-registry.ts";
import type { HandlerFailure } from "../hooks/registrations.ts";
import { runAgentLoop } from "../loop/agent-loop.ts";
import type { TurnState } from "../loop/types.ts";
import { createBuiltinTools } from "../tools/index.ts";
import { ToolRegistry } from "../tools/tool-registry.ts";
import { EventHub } from "./event-hub.ts";
import type { Host, HostOptions, RunOptions, RunResult } from "./types.ts";
import { toUserMessage } from "./user-message.ts";

const DEFAULT_HOOK_TIMEOUT_MS = 5000;

function defaultLogger(): Logger {
  return pino({ level: process.env.GATEHOUSE_LOG_LEVEL ?? "warn" }, pino.destination({ fd: 2, sync: true }));
}

/**
 * Creates an embedded host: built-in tools, the given tools and in-code extensions, one hook bus.
 * Contract: extension failures never reject; they are in `extensions()` and emitted as
 * `extension_error`. Tool and handler changes take effect at the next turn boundary.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const logger = options.logger ?? defaultLogger();
  const timeoutMs = options.hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const hub = new EventHub(logger);
  if (options.onEvent) hub.subscribe(options.onEvent);

  const reportFailure = (failure: HandlerFailure) => {
    logger.error(
      { extension: failure.extension, hook: failure.hook, err: failure.error.message },
      "extension handler failed",
    );
    const event: GatehouseEvent = {
      type: "extension_error",
      extension: failure.extension,
      hook: failure.hook,
      error: failure.timedOut ? `timed out: ${failure.error.message}` : failure.error.message,
    };
    // An observer of extension_error that fails must not trigger another one.
    if (failure.hook === "extension_error") return;
    void hub.emit(event);
  };
  const tools = new ToolRegistry(createBuiltinTools());
  const handlers = new HandlerRegistry({ timeoutMs, onError: reportFailure });
  for (const def of options.tools ?? []) tools.register(def, { owner: "host" });

  let controller: AbortController | undefined;
  const stop: { by?: { extension: string; reason: string } } = {};
  const stoppedBy = () => stop.by;
  const abortRun = (extension: string, reason: string) => {
    logger.error({ extension, reason }, "extension stopped the run");
    if (!controller || controller.signal.aborted) return;
    stop.by = { extension, reason };
    void hub.emit({ type: "extension_error", extension, hook: "abortRun", error: reason });
    controller.abort();
  };

  const records: ExtensionRecord[] = [];
  const unloaders: (() => void)[] = [];
  for (const def of options.extensions ?? []) {
    const name = typeof def?.name === "string" && def.name ? def.name : `inline-${records.length + 1}`;
    const { record, unload } = await setupExtension(
      def,
      {
        name,
        source: "inline",
        cwd: options.cwd,
        logger: logger.child({ extension: name }),
        tools,
        handlers,
        configSection: options.config?.[name],
        configSource: "createHost({ config })",
        abortRun,
      },
      timeoutMs,
    );
    records.push(record);
    unloaders.push(unload);
    if (record.status === "loaded") {
      await hub.emit({ type: "extension_loaded", extension: name, source: record.source, tools: record.tools });
    } else {
      logger.error({ extension: name, err: record.errors[0] }, "extension failed to load");
      await hub.emit({
        type: "extension_error",
        extension: name,
        source: record.source,
        error: record.errors[0] ?? "",
      });
    }
  }

  const context: Message[] = options.messages ? [...options.messages] : [];
  const steering: UserMessage[] = [];
  const followUps: UserMessage[] = [];
  const drain = (queue: UserMessage[]) => queue.splice(0, queue.length);

  const prepareTurn = (): TurnState => {
    const bus = handlers.bus();
    hub.bus = bus;
    return { tools: tools.snapshot(), hooks: bus };
  };

  async function run(prompt: string | UserMessage, runOptions?: RunOptions): Promise<RunResult> {
    if (controller) throw new GatehouseError("GH_USAGE", "A run is already in progress on this host.");
    const own = new AbortController();
    controller = own;
    delete stop.by;
    const onAbort = () => own.abort();
    runOptions?.signal?.addEventListener("abort", onAbort, { once: true });
    if (runOptions?.signal?.aborted) own.abort();
    hub.bus = handlers.bus();
    hub.signal = own.signal;
    try {
      const added = await runAgentLoop([toUserMessage(prompt, Date.now())], {
        model: options.model,
        systemPrompt: options.systemPrompt,
        messages: context,
        prepareTurn,
        emit: hub.emit,
        toolExecution: options.toolExecution,
        signal: own.signal,
        getSteeringMessages: () => drain(steering),
        getFollowUpMessages: () => drain(followUps),
        cwd: options.cwd,
        logger,
      });
      const last = added.findLast((m) => m.role === "assistant");
      const result: RunResult = { messages: added, stopReason: last?.stopReason, aborted: own.signal.aborted };
      if (last?.errorMessage !== undefined) result.errorMessage = last.errorMessage;
      const by = stoppedBy();
      if (by) {
        result.stoppedBy = by;
        result.errorMessage = `Stopped by extension "${by.extension}": ${by.reason}`;
      }
      return result;
    } finally {
      runOptions?.signal?.removeEventListener("abort", onAbort);
      controller = undefined;
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
    tools: () => tools.describe(),
    extensions: () => records.map((r) => ({ ...r })),
    async close() {
      for (const unload of unloaders) unload();
      unloaders.length = 0;
    },
  };
}
