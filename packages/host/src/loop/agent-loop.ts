import type { AgentEvent, Message, ToolResultMessage } from "@gatehouse/sdk";
import { abortFlag } from "../common/abort-flag.ts";
import { deepFreeze } from "../common/deep-freeze.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import { streamAssistant } from "./assistant-turn.ts";
import { runToolBatch } from "./tool-batch.ts";
import type { LoopConfig } from "./types.ts";

const NEVER_ABORTED = new AbortController().signal;

async function emit(config: LoopConfig, event: AgentEvent): Promise<void> {
  const r = config.emit(event);
  if (isPromiseLike(r)) await r;
}

async function inject(config: LoopConfig, added: Message[], messages: readonly Message[]): Promise<void> {
  for (const message of messages) {
    deepFreeze(message); // final: observers read it, the next request sends it (see endMessage)
    await emit(config, { type: "message_start", message });
    await emit(config, { type: "message_end", message });
    config.messages.push(message);
    added.push(message);
  }
}

/** Polls one message source, as a method of the config (its callbacks may be methods). */
async function poll(config: LoopConfig, source: "getSteeringMessages" | "getFollowUpMessages"): Promise<Message[]> {
  return (await config[source]?.()) ?? [];
}

/**
 * Runs the agent loop from new prompt messages until the model stops, the batch terminates or
 * the run is aborted (SPEC §4). Pure: model, tools, hooks and the event sink are injected.
 * Contract: `config.messages` is appended to in place (never copied); the returned array holds
 * every message the run added, prompts included. Steering is injected only at turn boundaries,
 * follow-ups only when the agent would otherwise stop; after abort no new turn begins.
 */
export async function runAgentLoop(prompts: readonly Message[], config: LoopConfig): Promise<Message[]> {
  const signal = config.signal ?? NEVER_ABORTED;
  // Taken before anything else listens to the signal: see abortFlag.
  abortFlag(signal);
  const added: Message[] = [];
  await emit(config, { type: "agent_start" });
  await emit(config, { type: "turn_start" });
  await inject(config, added, prompts);

  let pending = signal.aborted ? [] : await poll(config, "getSteeringMessages");
  let firstTurn = true;
  let turns = 0;
  for (;;) {
    let moreToolCalls = true;
    while (moreToolCalls || pending.length > 0) {
      if (!firstTurn) await emit(config, { type: "turn_start" });
      firstTurn = false;
      await inject(config, added, pending);
      pending = [];

      const turn = await config.prepareTurn();
      const streamed = await streamAssistant(config, turn, signal);
      const assistant = streamed.message;
      config.messages.push(assistant);
      added.push(assistant);
      if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
        await emit(config, { type: "turn_end", message: assistant, toolResults: [] });
        await emit(config, { type: "agent_end", messages: added });
        return added;
      }

      moreToolCalls = false;
      let halted = false;
      let toolResults: ToolResultMessage[] = [];
      if (assistant.content.some((block) => block.type === "toolCall")) {
        const batch = await runToolBatch(streamed, config, turn, signal);
        toolResults = batch.results;
        for (const result of toolResults) {
          config.messages.push(result);
          added.push(result);
        }
        moreToolCalls = !batch.terminate;
        if (batch.halt) config.onHalt?.(batch.halt);
        halted = batch.halt !== undefined;
      }
      await emit(config, { type: "turn_end", message: assistant, toolResults });
      turns++;
      // A guard's terminate ends the run here: no steering, no follow-up, no further turn.
      if (halted || signal.aborted || config.shouldStopAfterTurn?.(turns, moreToolCalls)) {
        await emit(config, { type: "agent_end", messages: added });
        return added;
      }
      pending = await poll(config, "getSteeringMessages");
    }
    const followUps = await poll(config, "getFollowUpMessages");
    if (followUps.length === 0) break;
    pending = followUps;
  }
  await emit(config, { type: "agent_end", messages: added });
  return added;
}
