import {
  type AgentContext,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentTool,
  runAgentLoop,
} from "@mariozechner/pi-agent-core";
import {
  type AssistantMessage,
  createAssistantMessageEventStream,
  type Message,
  type Model,
  type ToolCall,
} from "@mariozechner/pi-ai";
import { Type } from "typebox";
import type { Trial } from "../measure.ts";
import { callId, type LoopWorkload, NOOP_TOOL_NAME, totalCalls } from "./workloads.ts";

const noopTool: AgentTool = {
  name: NOOP_TOOL_NAME,
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ i: Type.Number() }),
  execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
};

const model: Model<"openai-completions"> = {
  id: "bench-scripted",
  name: "bench-scripted",
  api: "openai-completions",
  provider: "bench",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 1_000,
};

const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function assistant(content: AssistantMessage["content"], stopReason: "toolUse" | "stop"): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage,
    stopReason,
    timestamp: 0,
  };
}

function script(workload: LoopWorkload): AssistantMessage[] {
  let n = 0;
  const messages = workload.callsPerTurn.map((count) => {
    const content: ToolCall[] = [];
    for (let k = 0; k < count; k++, n++) {
      content.push({ type: "toolCall", id: callId(n), name: NOOP_TOOL_NAME, arguments: { i: n } });
    }
    return assistant(content, "toolUse");
  });
  messages.push(assistant([{ type: "text", text: "done" }], "stop"));
  return messages;
}

/** The peer's stream function, replaying prepared messages: `start` then `done` per request. */
function scriptedStream(messages: readonly AssistantMessage[]) {
  let next = 0;
  return () => {
    const message = messages[next++];
    if (!message) throw new Error("bench script exhausted");
    const stream = createAssistantMessageEventStream();
    stream.push({ type: "start", partial: message });
    stream.push({ type: "done", reason: message.stopReason === "stop" ? "stop" : "toolUse", message });
    return stream;
  };
}

/** Prepares one peer run of a workload; building the script and config is not timed. */
export function peerTrial(workload: LoopWorkload): Trial {
  const streamFn = scriptedStream(script(workload));
  const context: AgentContext = { systemPrompt: "", messages: [], tools: [noopTool] };
  const config: AgentLoopConfig = {
    model,
    // The transcript holds only standard messages, so the identity is the peer's cheapest conversion.
    convertToLlm: (messages) => messages as Message[],
    toolExecution: workload.mode,
    beforeToolCall: async () => undefined,
    afterToolCall: async () => undefined,
  };
  const prompt: AgentMessage = { role: "user", content: "go", timestamp: 0 };
  let added: AgentMessage[] = [];
  return {
    async run() {
      added = await runAgentLoop([prompt], context, config, () => undefined, undefined, streamFn);
    },
    verify() {
      const ok = added.filter((m) => m.role === "toolResult" && !m.isError).length;
      if (ok !== totalCalls(workload)) throw new Error(`peer ${workload.name}: ${ok} successful tool results`);
    },
  };
}
