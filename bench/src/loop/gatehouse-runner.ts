import type { AnyToolDefinition, AssistantMessage, Logger, Message, ToolCall } from "@gatehouse/sdk";
import { z } from "zod";
import { HookBus } from "../../../packages/host/src/hooks/index.ts";
import { type LoopConfig, runAgentLoop, type TurnState } from "../../../packages/host/src/loop/index.ts";
import type { Trial } from "../measure.ts";
import { replayModel } from "../replay-model.ts";
import { callId, type LoopWorkload, NOOP_TOOL_NAME, totalCalls } from "./workloads.ts";

const noopTool: AnyToolDefinition = {
  name: NOOP_TOOL_NAME,
  description: "Does nothing.",
  parameters: z.object({ i: z.number() }),
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
};

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function script(workload: LoopWorkload): AssistantMessage[] {
  let n = 0;
  const messages: AssistantMessage[] = workload.callsPerTurn.map((count) => {
    const content: ToolCall[] = [];
    for (let k = 0; k < count; k++, n++) {
      content.push({ type: "toolCall", id: callId(n), name: NOOP_TOOL_NAME, arguments: { i: n } });
    }
    return { role: "assistant", content, stopReason: "toolUse", timestamp: 0 };
  });
  messages.push({ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 0 });
  return messages;
}

const tools: TurnState["tools"] = {
  list: [noopTool],
  get: (name) => (name === NOOP_TOOL_NAME ? noopTool : undefined),
};

function noopBus(handler: () => undefined | Promise<undefined>): HookBus {
  return new HookBus(
    [
      { kind: "transform", extension: "bench-noop", handler },
      { kind: "tool_result", extension: "bench-noop", handler },
    ],
    { timeoutMs: 30_000, onError: () => undefined },
  );
}

/** Built once and shared, as the host shares one immutable bus until registrations change. */
const syncTurn: TurnState = { tools, hooks: noopBus(() => undefined) };
const asyncTurn: TurnState = { tools, hooks: noopBus(async () => undefined) };

/** Prepares one Gatehouse run of a workload; building the script and config is not timed. */
export function gatehouseTrial(workload: LoopWorkload): Trial {
  const turn = workload.asyncHooks ? asyncTurn : syncTurn;
  const config: LoopConfig = {
    model: replayModel(script(workload)),
    messages: [],
    prepareTurn: () => turn,
    emit: () => undefined,
    toolExecution: workload.mode,
    cwd: process.cwd(),
    logger: silentLogger,
  };
  const prompt: Message = { role: "user", content: "go", timestamp: 0 };
  let added: Message[] = [];
  return {
    async run() {
      added = await runAgentLoop([prompt], config);
    },
    verify() {
      const ok = added.filter((m) => m.role === "toolResult" && !m.isError).length;
      if (ok !== totalCalls(workload)) throw new Error(`gatehouse ${workload.name}: ${ok} successful tool results`);
    },
  };
}
