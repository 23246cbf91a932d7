import type { ToolCall } from "@gatehouse/sdk";

/** The default `maxArgumentBytes`: a call whose arguments are larger is refused as invalid. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 1024 * 1024;

/** An exact byte count, with KiB or MiB (two decimals at most) beside it from 1 KiB on. */
function formatSize(bytes: number): string {
  const kib = bytes / 1024;
  if (kib < 1) return `${bytes} bytes`;
  const readable = kib < 1024 ? `${Number(kib.toFixed(2))} KiB` : `${Number((kib / 1024).toFixed(2))} MiB`;
  return `${bytes} bytes (${readable})`;
}

function tooLarge(toolCall: ToolCall, bytes: number, limit: number): string {
  return (
    `Invalid arguments for ${toolCall.name}: they are ${formatSize(bytes)}, over the maxArgumentBytes limit of ` +
    `${formatSize(limit)}; the call was not run. Make several smaller calls instead, e.g. write a large file in ` +
    "parts (write the first part, then add the rest with edit)."
  );
}

/**
 * Why a call's arguments are too large to run, or `undefined` when they are within `limit`.
 * Contract: the size is the UTF-8 length of the argument JSON: the larger of the text the model
 * streamed (`streamedBytes`, when known: a model may have dropped arguments past the limit) and
 * the serialised `arguments`. Arguments that cannot be serialised (nested too deeply) are refused
 * too, since no event or session could record them. Linear in the size of the arguments.
 */
export function argumentSizeProblem(
  toolCall: ToolCall,
  streamedBytes: number | undefined,
  limit: number,
): string | undefined {
  if (streamedBytes !== undefined && streamedBytes > limit) return tooLarge(toolCall, streamedBytes, limit);
  let json: string;
  try {
    json = JSON.stringify(toolCall.arguments) ?? "";
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `Invalid arguments for ${toolCall.name}: they cannot be serialised as JSON (${why}); the call was not run.`;
  }
  // A UTF-16 unit is 1 to 3 UTF-8 bytes: count exactly only when it matters.
  if (json.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(json, "utf8");
  return bytes > limit ? tooLarge(toolCall, bytes, limit) : undefined;
}
