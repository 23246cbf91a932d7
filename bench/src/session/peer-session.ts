import { rmSync } from "node:fs";
import type { Message, Usage } from "@gatehouse/sdk";
import type { Message as PeerMessage, Usage as PeerUsage } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { Trial } from "../measure.ts";
import { countLines } from "./session-files.ts";

function peerUsage(usage: Usage | undefined): PeerUsage {
  const input = usage?.input ?? 0;
  const output = usage?.output ?? 0;
  const cacheRead = usage?.cacheRead ?? 0;
  const cacheWrite = usage?.cacheWrite ?? 0;
  const cost = { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: 0 };
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: usage?.totalTokens ?? input + output,
    cost: { ...cost, total: cost.input + cost.output + cost.cacheRead },
  };
}

/**
 * The same transcript in the peer's message shape: its assistant messages also carry the api,
 * provider, model and a usage with costs (~8% more bytes); the rest is identical.
 */
export function toPeerMessages(messages: readonly Message[]): PeerMessage[] {
  return messages.map((m): PeerMessage => {
    if (m.role !== "assistant") return m;
    const { usage, ...rest } = m;
    return {
      ...rest,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: peerUsage(usage),
    };
  });
}

/** Writes a peer session file holding `messages` through its own API; returns the file it chose. */
export function writePeerSession(dir: string, messages: readonly PeerMessage[], cwd: string): string {
  const manager = SessionManager.create(cwd, dir);
  for (const message of messages) manager.appendMessage(message);
  const file = manager.getSessionFile();
  if (!file) throw new Error("peer session manager did not persist");
  return file;
}

/**
 * One peer resume: `SessionManager.open(file)` + `buildSessionContext()`, what `pi --session FILE`
 * does before its first request. Checks the context holds every message.
 */
export function peerResumeTrial(file: string, expectedMessages: number): Trial {
  let messages = -1;
  return {
    async run() {
      messages = SessionManager.open(file).buildSessionContext().messages.length;
    },
    verify() {
      if (messages !== expectedMessages)
        throw new Error(`peer resume: ${messages} messages, expected ${expectedMessages}`);
    },
  };
}

/** `pi --continue`: picks the newest session of the folder (one file here), parsing it once. */
export function peerContinueTrial(cwd: string, dir: string, expectedMessages: number): Trial {
  let messages = -1;
  return {
    async run() {
      messages = SessionManager.continueRecent(cwd, dir).buildSessionContext().messages.length;
    },
    verify() {
      if (messages !== expectedMessages)
        throw new Error(`peer continue: ${messages} messages, expected ${expectedMessages}`);
    },
  };
}

/**
 * Appends `messages` to a fresh peer session (a new file in `dir`): each append is an
 * `appendFileSync` of one line once an assistant message exists (before that it buffers, so the
 * header and first prompt are written by the first assistant append, inside the timed part).
 */
export function peerAppendTrial(cwd: string, dir: string, messages: readonly PeerMessage[]): Trial {
  let manager: SessionManager | undefined;
  return {
    async setup() {
      manager = SessionManager.create(cwd, dir);
    },
    async run() {
      for (const message of messages) manager!.appendMessage(message);
    },
    verify() {
      const file = manager?.getSessionFile();
      const lines = file ? countLines(file) : 0;
      if (lines !== messages.length + 1)
        throw new Error(`peer append: ${lines} lines, expected ${messages.length + 1}`);
    },
    async dispose() {
      const file = manager?.getSessionFile();
      if (file) rmSync(file, { force: true });
    },
  };
}
