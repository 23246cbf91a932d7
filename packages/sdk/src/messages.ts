/** Plain text produced by a user, the model or a tool. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image, base64-encoded, as a tool result or user attachment. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** The model's visible reasoning, kept in the transcript but never executed. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
}

/** A structured request from the model to run one tool. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Why the model stopped producing the assistant message. */
export type StopReason = "stop" | "toolUse" | "length" | "error" | "aborted";

/** Token accounting reported by a provider for one assistant message. */
export interface Usage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  totalTokens?: number;
}

/** A message typed by a person (or injected as steering / follow-up). */
export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** One finalized (or, while streaming, partial) answer of the model. */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  stopReason: StopReason;
  errorMessage?: string;
  usage?: Usage;
  timestamp: number;
}

/** The outcome of one tool call, persisted and sent back to the model. */
export interface ToolResultMessage<TDetails = unknown> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError: boolean;
  timestamp: number;
}

/** Any message of a transcript. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;
