import type { AnyToolDefinition } from "@gatehouse/sdk";

function firstSentence(text: string): string {
  // A library caller's tool (createHost({ tools })) is not checked like an extension's: no crash here.
  if (typeof text !== "string") return "";
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}

/**
 * The default system prompt: where the agent works, how its calls are handled, and one line per
 * active tool. Built from the turn's tool set, so a tool added by an extension appears from the
 * next turn on, exactly when it becomes callable.
 */
export function defaultSystemPrompt(cwd: string, tools: readonly AnyToolDefinition[]): string {
  const lines = [
    `You are a coding agent working in the directory ${cwd}.`,
    "You act only through the tools below. Every call passes through Gatehouse, which validates the arguments, applies the project's path policy and records an audit before anything runs. A refused, invalid or failed call comes back as an error result: read it, adjust, and carry on.",
    "Paths are relative to the working directory unless absolute. Prefer edit for changes to existing files and read a file before editing it.",
    "",
    "Tools:",
    ...tools.map((t) => `- ${t.name}: ${firstSentence(t.description)}`),
  ];
  return lines.join("\n");
}
