import type { ToolEffect, ToolResult } from "@gatehouse/sdk";
import { MAX_REASON_CHARS, type RecordedEffect, type ResultSize } from "./record.ts";
import { scrubSecrets } from "./secret-scrub.ts";

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * The size of a tool result: content blocks, text characters, decoded image bytes.
 * Contract: reads only lengths; never copies any text of the result.
 */
export function resultSize(result: ToolResult | undefined): ResultSize {
  const size: ResultSize = { blocks: 0, textChars: 0, imageBytes: 0 };
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const block of content) {
    size.blocks++;
    if (block?.type === "text" && typeof block.text === "string") size.textChars += block.text.length;
    else if (block?.type === "image" && typeof block.data === "string") size.imageBytes += base64Bytes(block.data);
  }
  return size;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/**
 * What a call touches, as the audit records it: read/write paths verbatim, commands and URLs
 * reduced to their length (plus the URL's host).
 * Contract: never copies a command or a full URL, which may carry secrets.
 */
export function recordedEffects(effects: readonly ToolEffect[]): RecordedEffect[] {
  const out: RecordedEffect[] = [];
  for (const effect of effects) {
    if (effect.kind === "read" || effect.kind === "write") out.push({ kind: effect.kind, path: String(effect.path) });
    else if (effect.kind === "exec") out.push({ kind: "exec", commandLength: String(effect.command ?? "").length });
    else if (effect.kind === "net") {
      const url = String(effect.url ?? "");
      out.push({ kind: "net", host: hostOf(url), urlLength: url.length });
    }
  }
  return out;
}

/**
 * A block reason scrubbed of secrets, then capped at `MAX_REASON_CHARS` characters.
 * Contract: scrubbing comes first, so the cap can never cut a secret into a piece no rule knows.
 */
export function capReason(reason: string): string {
  const scrubbed = scrubSecrets(reason);
  return scrubbed.length <= MAX_REASON_CHARS ? scrubbed : `${scrubbed.slice(0, MAX_REASON_CHARS - 1)}…`;
}
