import type { ScriptBlock, ScriptTurn } from "@gatehouse/host";
import type { ToolCall, ToolRef } from "@gatehouse/sdk";

/**
 * One tool call of a scripted model turn: `toolCall("A", "write", { path: ".env", content: "x" })`.
 * `tool` is a name or a `defineTool` handle. Arguments are sent as given, valid or not: the model
 * is the adversary, so a test may send anything.
 */
export function toolCall(id: string, tool: ToolRef, args: Record<string, unknown> = {}): ToolCall {
  return { type: "toolCall", id, name: typeof tool === "string" ? tool : tool.name, arguments: args };
}

/**
 * One scripted model answer from its blocks, in order: strings are text, the rest tool calls
 * (`turn(toolCall("A", "hello", { name: "Ada" }))`, then `turn("done")`). Its stop reason is
 * `toolUse` when it has calls, else `stop`; write the turn as an object for another (`"length"`).
 */
export function turn(...blocks: (string | ScriptBlock)[]): ScriptTurn {
  return { content: blocks.map((b) => (typeof b === "string" ? { type: "text", text: b } : b)) };
}
