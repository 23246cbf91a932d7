import type { StopReason, TextContent, ThinkingContent, ToolCall, Usage } from "@gatehouse/sdk";
import { z } from "zod";
import { strictObject } from "../common/describe-zod-issues.ts";
import { lazy } from "../common/lazy.ts";

/** One content block of a scripted turn, exactly as it will appear in the assistant message. */
export type ScriptBlock = TextContent | ThinkingContent | ToolCall;

/** One scripted model answer (SPEC §8). */
export interface ScriptTurn {
  content: ScriptBlock[];
  /** Default: `toolUse` when the turn has tool calls, else `stop`. */
  stopReason?: StopReason;
  errorMessage?: string;
  /** How long the model waits before answering; the wait honours abort. */
  delayMs?: number;
  usage?: Usage;
}

/** A validated script for the scripted model; every tool call has an id. */
export interface Script {
  prompt?: string;
  turns: ScriptTurn[];
}

/** setTimeout's largest delay; anything longer would fire at once. */
const MAX_DELAY_MS = 2_147_483_647;
/** The schemas of a script's parts, built at the first script read (see `lazy`). */
function buildSchemas() {
  const tokenCount = z.number().int().min(0);
  const textBlock = strictObject({ type: z.literal("text"), text: z.string() });
  const thinkingBlock = strictObject({ type: z.literal("thinking"), thinking: z.string() });
  const toolCallBlock = strictObject({
    type: z.literal("toolCall"),
    // An empty id cannot pair a result with its call (providers refuse it); leave it out to get one.
    id: z.string().min(1).optional(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).default({}),
  });
  const usageSchema = strictObject({
    input: tokenCount,
    output: tokenCount,
    cacheRead: tokenCount.optional(),
    cacheWrite: tokenCount.optional(),
    totalTokens: tokenCount.optional(),
  });
  const turn = strictObject({
    content: z.array(z.discriminatedUnion("type", [textBlock, thinkingBlock, toolCallBlock])),
    stopReason: z.enum(["stop", "toolUse", "length", "error", "aborted"]).optional(),
    errorMessage: z.string().optional(),
    delayMs: z.number().min(0).max(MAX_DELAY_MS).optional(),
    usage: usageSchema.optional(),
  });
  return { turn };
}

type RawTurn = z.output<ReturnType<typeof buildSchemas>["turn"]>;

/**
 * The zod schema of a script file, built at its first use. Unknown keys are errors that name the
 * allowed keys.
 * Contract: the output is a `Script`; a tool call without an id gets `call_<turnIndex>_<blockIndex>`.
 */
export const scriptSchema = lazy(() =>
  strictObject({
    prompt: z.string().optional(),
    turns: z.array(buildSchemas().turn),
  }).transform((raw): Script => {
    const script: Script = { turns: raw.turns.map(toTurn) };
    if (raw.prompt !== undefined) script.prompt = raw.prompt;
    return script;
  }),
);

function toTurn(raw: RawTurn, turnIndex: number): ScriptTurn {
  const content = raw.content.map((block, blockIndex): ScriptBlock => {
    if (block.type !== "toolCall") return block;
    const id = block.id ?? `call_${turnIndex}_${blockIndex}`;
    return { type: "toolCall", id, name: block.name, arguments: block.arguments };
  });
  const turn: ScriptTurn = { content };
  if (raw.stopReason !== undefined) turn.stopReason = raw.stopReason;
  if (raw.errorMessage !== undefined) turn.errorMessage = raw.errorMessage;
  if (raw.delayMs !== undefined) turn.delayMs = raw.delayMs;
  if (raw.usage !== undefined) turn.usage = withoutUndefined(raw.usage);
  return turn;
}

function withoutUndefined(raw: RawTurn["usage"] & object): Usage {
  const usage: Usage = { input: raw.input, output: raw.output };
  if (raw.cacheRead !== undefined) usage.cacheRead = raw.cacheRead;
  if (raw.cacheWrite !== undefined) usage.cacheWrite = raw.cacheWrite;
  if (raw.totalTokens !== undefined) usage.totalTokens = raw.totalTokens;
  return usage;
}
