import { rmSync } from "node:fs";
import { type AssistantMessage, defineTool } from "@gatehouse/sdk";
import { pino } from "pino";
import { z } from "zod";
import { createHost, type Host, type RunResult } from "../../../packages/host/src/index.ts";
import type { Model, ModelStreamEvent } from "../../../packages/host/src/model/types.ts";
import { type MessageEntry, Session } from "../../../packages/host/src/session/index.ts";
import type { Clock } from "../section.ts";
import { type Gate, SteppedRun } from "./stepped-run.ts";

/** No session; a session with fsync "off" (the CPU part of recording); the default fsync "turn". */
export type Persistence = "none" | "off" | "turn";

const noopTool = defineTool({
  name: "noop",
  description: "Does nothing.",
  parameters: z.object({ i: z.number() }),
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
});

const silent = pino({ level: "silent" });

/** N assistant messages of one no-op call each, then a text answer: N + 1 model requests. */
function script(turns: number): AssistantMessage[] {
  const messages: AssistantMessage[] = Array.from({ length: turns }, (_, i) => ({
    role: "assistant",
    content: [{ type: "toolCall", id: `call_${i}`, name: "noop", arguments: { i } }],
    stopReason: "toolUse",
    timestamp: 0,
  }));
  messages.push({ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 0 });
  return messages;
}

/** The bench's replay model (`start` then `end`), waiting at the gate before each answer. */
function gatedReplayModel(messages: readonly AssistantMessage[], gate: Gate): Model {
  let next = 0;
  return {
    id: "bench-scripted-gated",
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      await gate();
      const message = messages[next++];
      if (!message) throw new Error("bench script exhausted");
      yield { type: "start", partial: message };
      yield { type: "end", message };
    },
  };
}

/** Messages one run of `turns` turns adds: the prompt, a call and its result per turn, the answer. */
function messagesPerRun(turns: number): number {
  return 2 * turns + 2;
}

/** Throws unless the session file holds exactly the run's messages, every result successful. */
function checkSessionFile(file: string, turns: number): void {
  const reopened = Session.open(file, { readOnly: true });
  const entries = reopened.entries();
  const results = entries.filter((e) => {
    const message = e.type === "message" ? (e as MessageEntry).message : undefined;
    return message?.role === "toolResult" && !message.isError;
  });
  const expected = messagesPerRun(turns);
  if (entries.length !== expected || results.length !== turns || reopened.context().messages.length !== expected) {
    throw new Error(`session ${file}: ${entries.length} entries (${results.length} ok results), expected ${expected}`);
  }
}

/** One host run of N turns, stepped by a scheduler; built untimed, checked afterwards. */
export interface HostTurnsRun {
  readonly turns: number;
  readonly stepped: SteppedRun;
  /** Creates the session file and the host (untimed). */
  setup(): Promise<void>;
  /** Throws unless every call succeeded and, with a session, the file holds every message. */
  verify(): void;
  /** Closes the host and removes its session file. */
  dispose(): Promise<void>;
}

/**
 * One run of `turns` turns of one no-op call through `createHost`, with or without a session
 * (every message appended on `message_end`; with fsync "turn", an fsync at every turn end).
 */
export function hostTurnsRun(options: {
  turns: number;
  persistence: Persistence;
  file: string;
  clock: Clock;
}): HostTurnsRun {
  const { turns, persistence, file } = options;
  let host: Host | undefined;
  let result: RunResult | undefined;
  const stepped = new SteppedRun(async () => {
    result = await host!.run("go");
  }, options.clock);
  return {
    turns,
    stepped,
    async setup() {
      const session =
        persistence === "none" ? undefined : Session.create(file, { fsync: persistence === "turn" ? "turn" : "off" });
      host = await createHost({
        cwd: process.cwd(),
        model: gatedReplayModel(script(turns), stepped.gate),
        tools: [noopTool],
        toolExecution: "parallel",
        logger: silent,
        ...(session ? { session } : {}),
      });
    },
    verify() {
      const ok = result?.messages.filter((m) => m.role === "toolResult" && !m.isError).length;
      if (ok !== turns || result?.stoppedBy) throw new Error(`host ${turns} turns (${persistence}): ${ok} ok results`);
      if (persistence !== "none") checkSessionFile(file, turns);
    },
    async dispose() {
      await host?.close();
      rmSync(file, { force: true });
    },
  };
}
