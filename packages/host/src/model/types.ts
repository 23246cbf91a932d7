import type { AnyToolDefinition, AssistantMessage, AssistantMessageEvent, Message } from "@gatehouse/sdk";

/** What one model request receives: the transcript as it will be persisted, and the active tools. */
export interface ModelRequest {
  systemPrompt?: string;
  /** The live context array; a model must read it and never keep or mutate it. */
  messages: readonly Message[];
  tools: readonly AnyToolDefinition[];
  /**
   * The loop refuses a tool call whose arguments are larger than this many UTF-8 bytes; a model
   * should stop keeping and parsing argument text past it (see `AssistantStreamBuilder`).
   */
  maxArgumentBytes?: number;
}

/**
 * One step of a model's answer. `partial` is the message being built, updated in place;
 * `end` carries the finalized message (stopReason `error`/`aborted` for failures).
 */
export type ModelStreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "delta"; event: AssistantMessageEvent; partial: AssistantMessage }
  | { type: "end"; message: AssistantMessage };

/**
 * The provider-neutral seam between the loop and any model (scripted or real).
 * Contract: `stream` never throws for request or model failures; it ends with an `end` event whose
 * message has stopReason `error` or `aborted` and an `errorMessage`. It honours `signal`.
 */
export interface Model {
  readonly id: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}
