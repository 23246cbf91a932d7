import { rmSync } from "node:fs";
import type { Message } from "@gatehouse/sdk";
import { Session } from "../../../packages/host/src/session/index.ts";
import type { Trial } from "../measure.ts";
import { countLines } from "./session-files.ts";

/**
 * Writes a Gatehouse session file holding `messages`, through the real Session API (what the host
 * does on every `message_end`); fsync "off" because only the resulting file matters here.
 */
export function writeGatehouseSession(file: string, messages: readonly Message[], cwd: string): void {
  const session = Session.create(file, { cwd, fsync: "off" });
  for (const message of messages) session.appendMessage(message);
  session.close();
}

/**
 * One resume: `Session.open(file)` + `context()`, what `gatehouse run --continue` does before the
 * first model request. Checks the context holds every message and nothing was synthesized.
 */
export function gatehouseResumeTrial(file: string, expectedMessages: number): Trial {
  let session: Session | undefined;
  let messages = -1;
  let synthesized = -1;
  return {
    async run() {
      session = Session.open(file);
      const context = session.context();
      messages = context.messages.length;
      synthesized = context.synthesized.length;
    },
    verify() {
      if (messages !== expectedMessages || synthesized !== 0 || session?.warnings.length !== 0) {
        throw new Error(
          `gatehouse resume: ${messages} messages (${synthesized} synthesized), expected ${expectedMessages}`,
        );
      }
    },
    async dispose() {
      session?.close();
    },
  };
}

/**
 * Appends `messages` one by one to a fresh session (created untimed) with fsync "off": one
 * `write` of one line per message, as the peer's `appendFileSync` does. Checks the line count.
 */
export function gatehouseAppendTrial(file: string, messages: readonly Message[]): Trial {
  let session: Session | undefined;
  return {
    async setup() {
      session = Session.create(file, { fsync: "off" });
    },
    async run() {
      for (const message of messages) session!.appendMessage(message);
    },
    verify() {
      session!.close();
      const lines = countLines(file);
      if (lines !== messages.length + 1)
        throw new Error(`gatehouse append: ${lines} lines, expected ${messages.length + 1}`);
    },
    async dispose() {
      rmSync(file, { force: true });
    },
  };
}
