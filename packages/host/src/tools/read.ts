import path from "node:path";
import {
  type AnyToolDefinition,
  type BuiltinToolInputs,
  builtinToolParameters,
  defineTool,
  type ToolContext,
  type ToolResult,
} from "@gatehouse/sdk";
import { refuseUncheckedFile } from "./effect-pins.ts";
import { resolveFilePath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, type Truncation, truncateHead } from "./truncate.ts";
import { closeFile, MAX_WHOLE_FILE_BYTES, openVerified, readWhole } from "./verified-open.ts";
import { checkedTarget } from "./verify-target.ts";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** How much of a file is sniffed for NUL bytes to tell binary from text (what git and grep do). */
const BINARY_SNIFF_BYTES = 8192;

/** The largest file `read` loads: it reads a file whole to cut its view. */
const MAX_READ_FILE_BYTES = MAX_WHOLE_FILE_BYTES;

/** What a read result tells the host about the view it returned. */
export interface ReadDetails {
  path: string;
  /** Lines in the whole file. */
  lines: number;
  startLine: number;
  endLine: number;
  truncated: boolean;
  mimeType?: string;
}

/** The marker under a partial view; it always says which offset to pass next. */
function continuation(options: { from: number; to: number; total: number; view: Truncation }): string {
  const { from, to, total, view } = options;
  const prefix = view.truncated ? "truncated: " : "";
  const reason = view.truncatedBy === "bytes" ? ` (${formatBytes(DEFAULT_MAX_BYTES)} limit)` : "";
  return `[${prefix}showing lines ${from}-${to} of ${total}${reason}; call read with offset=${to + 1} to continue]`;
}

function readText(displayPath: string, absPath: string, buffer: Buffer, args: BuiltinToolInputs["read"]) {
  const text = buffer.toString("utf8");
  const all = text.length === 0 ? [] : text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  const total = all.length;
  const details: ReadDetails = { path: absPath, lines: total, startLine: 0, endLine: 0, truncated: false };
  if (total === 0) return textResult(`(${displayPath} is empty)`, details);
  const start = args.offset ?? 1;
  if (start > total) {
    return failureResult(`offset ${start} is beyond the end of ${displayPath}, which has ${total} lines.`, details);
  }
  const wanted = all.slice(start - 1, args.limit === undefined ? undefined : start - 1 + args.limit);
  const view = truncateHead(wanted.join("\n"));
  const end = start + view.keptLines - 1;
  details.startLine = start;
  details.endLine = end;
  details.truncated = view.truncated;
  if (view.partialLine) {
    const note = `[truncated: line ${start} is ${formatBytes(view.totalBytes)}, longer than the ${formatBytes(DEFAULT_MAX_BYTES)} limit; showing its start. Use bash (e.g. cut or head -c) to see the rest, or call read with offset=${start + 1} to continue after it]`;
    return textResult(`${view.text}\n\n${note}`, details);
  }
  if (end >= total) return textResult(view.text, details);
  const marker = continuation({ from: start, to: end, total, view });
  return textResult(`${view.text}\n\n${marker}`, details);
}

/**
 * Reads exactly the file the guards checked: the path is re-resolved and compared with their pins,
 * and the descriptor read from is proven to be that file (`openVerified`).
 */
async function readPath(options: {
  displayPath: string;
  absPath: string;
  args: BuiltinToolInputs["read"];
  ctx: ToolContext;
}): Promise<ToolResult> {
  const { displayPath, absPath, ctx } = options;
  const target = checkedTarget({ absPath, displayPath, ctx, access: "read" });
  const file = openVerified({ target, intent: "read", displayPath });
  try {
    if (file.stats.isDirectory()) {
      return failureResult(`${displayPath} is a directory, not a file; use ls to list it.`, { path: absPath });
    }
    // Devices and FIFOs never end (/dev/zero) or block (a pipe with no writer); only regular files are read.
    if (!file.stats.isFile()) {
      return failureResult(`${displayPath} is not a regular file; read only reads files.`, { path: absPath });
    }
    refuseUncheckedFile({ pins: ctx.pinnedTargets, target, stats: file.stats, displayPath, access: "read" });
    if (file.stats.size > MAX_READ_FILE_BYTES) {
      const text = `${displayPath} is ${formatBytes(file.stats.size)}, larger than read loads (${formatBytes(MAX_READ_FILE_BYTES)}); use grep to find lines in it, or bash (head, tail, sed -n '100,200p') to show part of it.`;
      return failureResult(text, { path: absPath });
    }
    return viewOf(displayPath, absPath, await readWhole(file), options.args);
  } finally {
    await closeFile(file);
  }
}

/** The result for a file's bytes: an image block, a refusal for binary data, or a text view. */
function viewOf(displayPath: string, absPath: string, buffer: Buffer, args: BuiltinToolInputs["read"]): ToolResult {
  const mimeType = IMAGE_TYPES[path.extname(absPath).toLowerCase()];
  if (mimeType !== undefined) {
    return {
      content: [
        { type: "text", text: `Read image ${displayPath} (${mimeType}, ${formatBytes(buffer.length)})` },
        { type: "image", data: buffer.toString("base64"), mimeType },
      ],
      details: { path: absPath, lines: 0, startLine: 0, endLine: 0, truncated: false, mimeType },
    };
  }
  if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    const text = `${displayPath} is a binary file (${formatBytes(buffer.length)}); read shows text files and png/jpg/gif/webp images only.`;
    return failureResult(text, { path: absPath });
  }
  return readText(displayPath, absPath, buffer, args);
}

/** The `read` built-in: a text file as lines (capped, with a marker saying how to continue) or an image. */
export function createReadTool(): AnyToolDefinition {
  return defineTool({
    name: "read",
    description: `Read a text file or an image. Paths are relative to the working directory unless absolute; ~ is the home directory. Text is shown as-is (no line numbers), at most ${DEFAULT_MAX_LINES} lines or ${formatBytes(DEFAULT_MAX_BYTES)} per call; when the view is cut, a marker at the end says which offset to pass next. Use offset (1-based first line) and limit (number of lines) to read part of a large file. PNG, JPEG, GIF and WebP files are returned as images. For a directory, use ls.`,
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.read;
    },
    effects: (args) => [{ kind: "read", path: args.path }],
    execute: async (args, ctx) => {
      let absPath: string | undefined;
      try {
        absPath = resolveFilePath(args.path, ctx.cwd, "read");
        return await readPath({ displayPath: args.path, absPath, args, ctx });
      } catch (error) {
        return failureResult(describeFailure({ action: "read", displayPath: args.path, absPath, error }), {
          path: absPath ?? args.path,
        });
      }
    },
  });
}
