import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyToolDefinition, defineTool, type ExtensionDefinition, type GatehouseEvent } from "@gatehouse/sdk";
import { pino } from "pino";
import { z } from "zod";
import { createHost } from "../../src/host/create-host.ts";
import type { Host, HostOptions } from "../../src/host/types.ts";
import { createScriptedModel } from "../../src/model/index.ts";

/** A promise the test opens by hand: ordering without sleeps. */
export interface Latch {
  promise: Promise<void>;
  open(): void;
}

/** Creates a latch. */
export function latch(): Latch {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Reduces an event to the compact notation of SPEC §4.2 (message_update dropped), as conformance does. */
export function compact(ev: GatehouseEvent): string | null {
  switch (ev.type) {
    case "message_start":
    case "message_end": {
      const m = ev.message;
      return m.role === "toolResult" ? `${ev.type}(toolResult:${m.toolCallId})` : `${ev.type}(${m.role})`;
    }
    case "tool_execution_start":
    case "tool_execution_update":
      return `${ev.type}(${ev.toolCallId})`;
    case "tool_execution_end":
      return `${ev.type}(${ev.toolCallId}${ev.isError ? ",err" : ""})`;
    case "turn_end":
      return `turn_end([${ev.toolResults.map((r) => r.toolCallId).join(",")}])`;
    case "agent_end":
      return `agent_end(${ev.messages.length})`;
    case "agent_start":
    case "turn_start":
      return ev.type;
    default:
      return null;
  }
}

/** A tool call block for scripts. */
export const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});

/** A text-only turn. */
export const say = (text: string) => ({ content: [{ type: "text" as const, text }] });

/** Latches by name, created on first use. */
export class Latches {
  readonly #map = new Map<string, Latch>();
  get(name: string): Latch {
    let l = this.#map.get(name);
    if (!l) {
      l = latch();
      this.#map.set(name, l);
    }
    return l;
  }
}

/**
 * The `step` test tool: waits for a named latch, reports progress, may fail or ask to terminate.
 * Ordering in tests comes from latches opened on events, never from timers.
 */
export function stepTool(latches: Latches): AnyToolDefinition {
  return defineTool({
    name: "step",
    description: "test step",
    parameters: z.object({
      label: z.string(),
      waitFor: z.string().optional(),
      updates: z.number().default(0),
      terminate: z.boolean().default(false),
      fail: z.boolean().default(false),
    }),
    effects: (args) => [{ kind: "read", path: args.label }],
    async execute(args, ctx) {
      for (let i = 0; i < args.updates; i++) ctx.onUpdate({ content: [{ type: "text", text: `progress ${i}` }] });
      if (args.waitFor) await latches.get(args.waitFor).promise;
      if (args.fail) throw new Error(`${args.label} failed`);
      return { content: [{ type: "text", text: `${args.label} ok` }], terminate: args.terminate };
    },
  });
}

/** Options of a scenario run. */
export interface ScenarioOptions extends Partial<Omit<HostOptions, "model" | "onEvent">> {
  turns: unknown[];
  prompt?: string;
  /** Called for every event, e.g. to open latches. */
  onEvent?: (event: GatehouseEvent, host: Host) => void;
}

/** What a scenario produced. */
export interface Scenario {
  host: Host;
  model: ReturnType<typeof createScriptedModel>;
  events: GatehouseEvent[];
  seq: string[];
  result: Awaited<ReturnType<Host["run"]>>;
}

/** A silent logger so expected extension failures do not clutter test output. */
export const quietLogger = pino({ level: "silent" });

/** A fresh temp directory. */
export function tempDir(prefix = "gh-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs a scripted scenario through the real host and collects its events. */
export async function runScenario(options: ScenarioOptions): Promise<Scenario> {
  const { turns, prompt, onEvent, ...hostOptions } = options;
  const events: GatehouseEvent[] = [];
  let host: Host | undefined;
  const model = createScriptedModel({ turns } as never);
  host = await createHost({
    cwd: hostOptions.cwd ?? tempDir(),
    logger: quietLogger,
    ...hostOptions,
    model,
    onEvent: (event) => {
      events.push(event);
      if (host) onEvent?.(event, host);
    },
  });
  const result = await host.run(prompt ?? "go");
  const seq = events.map(compact).filter((s): s is string => s !== null);
  return { host, model, events, seq, result };
}

/** The fixed opening of every run with one tool turn (SPEC §4.2). */
export const OPENING = [
  "agent_start",
  "turn_start",
  "message_start(user)",
  "message_end(user)",
  "message_start(assistant)",
  "message_end(assistant)",
];

/** The fixed close after a tool turn answered by one text turn. */
export const closing = (ids: string, added: number) => [
  `turn_end([${ids}])`,
  "turn_start",
  "message_start(assistant)",
  "message_end(assistant)",
  "turn_end([])",
  `agent_end(${added})`,
];

/** message_start/end of one tool result. */
export const msg = (id: string) => [`message_start(toolResult:${id})`, `message_end(toolResult:${id})`];
/** tool_execution_start of one call. */
export const start = (id: string) => `tool_execution_start(${id})`;
/** tool_execution_end of one call. */
export const end = (id: string, err = false) => `tool_execution_end(${id}${err ? ",err" : ""})`;

export type { ExtensionDefinition };
