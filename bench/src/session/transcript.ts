import type { Message, ToolCall, ToolResultMessage, Usage } from "@gatehouse/sdk";
import {
  codeBlock,
  codeLine,
  FILES,
  PROMPTS,
  type Random,
  REMARKS,
  seededRandom,
  shellOutput,
} from "./transcript-text.ts";

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A provider-style tool call id (`toolu_` + 24 characters). */
function toolCallId(random: Random): string {
  let id = "toolu_01";
  for (let i = 0; i < 22; i++) id += ID_CHARS[random.int(0, ID_CHARS.length - 1)];
  return id;
}

/** One tool call with the arguments a coding model sends, and the text its tool answers. */
function toolExchange(random: Random): { call: ToolCall; output: string } {
  const path = random.pick(FILES);
  const id = toolCallId(random);
  switch (random.int(0, 4)) {
    case 0: {
      const offset = random.int(1, 400);
      const lines = Array.from({ length: random.int(6, 12) }, (_, i) => `${offset + i}\t${codeLine(random)}`);
      return {
        call: { type: "toolCall", id, name: "read", arguments: { path, offset, limit: 200 } },
        output: lines.join("\n"),
      };
    }
    case 1:
      return {
        call: {
          type: "toolCall",
          id,
          name: "bash",
          arguments: { command: `pnpm vitest run ${path.replace(/src\/.*$/, "test")} --reporter=dot`, timeout: 120 },
        },
        output: shellOutput(random),
      };
    case 2: {
      const oldText = codeBlock(random, random.int(2, 4));
      const newText = codeBlock(random, random.int(2, 5));
      const diff = newText
        .split("\n")
        .map((line) => `+${line}`)
        .join("\n");
      return {
        call: { type: "toolCall", id, name: "edit", arguments: { path, oldText, newText } },
        output: `Applied 1 edit to ${path}.\n@@ -${random.int(1, 300)},${oldText.split("\n").length} @@\n${diff}`,
      };
    }
    case 3: {
      const matches = Array.from(
        { length: random.int(3, 7) },
        () => `${random.pick(FILES)}:${random.int(1, 400)}:${codeLine(random)}`,
      );
      return {
        call: { type: "toolCall", id, name: "grep", arguments: { pattern: "appendMessage\\(", path: "packages" } },
        output: matches.join("\n"),
      };
    }
    default: {
      const content = codeBlock(random, random.int(8, 16));
      return {
        call: { type: "toolCall", id, name: "write", arguments: { path, content } },
        output: `Wrote ${Buffer.byteLength(content)} bytes to ${path}.\n${content.slice(0, 200)}`,
      };
    }
  }
}

function usage(random: Random): Usage {
  const input = random.int(2_000, 90_000);
  const output = random.int(40, 900);
  const cacheRead = Math.floor(input * 0.8);
  return { input, output, cacheRead, cacheWrite: random.int(0, 3_000), totalTokens: input + output };
}

/**
 * A realistic transcript of exactly `count` messages, the same on every call: user prompts, each
 * followed by assistant messages with text and 1–3 tool calls (read, bash, edit, grep, write with
 * real-looking arguments) and their results (a few hundred characters each), ending the exchange
 * with a text answer. Every tool call has its result, so rebuilding the context synthesizes nothing.
 */
export function realisticTranscript(count: number, seed = 42): Message[] {
  const random = seededRandom(seed);
  const out: Message[] = [];
  let timestamp = Date.UTC(2026, 0, 5, 9, 0, 0);
  const at = () => (timestamp += random.int(200, 20_000));
  let needPrompt = true;
  while (out.length < count) {
    const left = count - out.length;
    if (needPrompt) {
      out.push({ role: "user", content: random.pick(PROMPTS), timestamp: at() });
      needPrompt = false;
      continue;
    }
    const calls = Math.min(random.int(1, 3), Math.floor((left - 1) / 2));
    if (calls === 0 || random.next() < 0.1) {
      const text = `${random.pick(REMARKS)} ${random.pick(REMARKS)}`;
      out.push({
        role: "assistant",
        content: [{ type: "text", text }],
        stopReason: "stop",
        usage: usage(random),
        timestamp: at(),
      });
      needPrompt = true;
      continue;
    }
    const exchanges = Array.from({ length: calls }, () => toolExchange(random));
    out.push({
      role: "assistant",
      content: [{ type: "text", text: random.pick(REMARKS) }, ...exchanges.map((e) => e.call)],
      stopReason: "toolUse",
      usage: usage(random),
      timestamp: at(),
    });
    for (const { call, output } of exchanges) {
      const result: ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: output }],
        isError: false,
        timestamp: at(),
      };
      out.push(result);
    }
  }
  return out;
}
