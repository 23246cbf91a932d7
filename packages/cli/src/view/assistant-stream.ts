/**
 * Follows one assistant message while the model streams it: text written as it arrives, wrapped
 * and marked, thinking as one shortened dim row, and the tool call being streamed (name and
 * arguments so far) kept for the live region. Remembers which blocks it wrote, so `message_end`
 * prints each block once.
 */
import type { AssistantMessage, GatehouseEventOf } from "@gatehouse/sdk";
import type { Palette } from "./ansi.ts";
import { formatArgs } from "./format-args.ts";
import { toolLabel } from "./styled-lines.ts";
import { createTextStream, type TextStream, textLayout } from "./text-stream.ts";
import { createThinkingStream, type ThinkingStream } from "./thinking-stream.ts";

type MessageUpdate = GatehouseEventOf<"message_update">;

/** The block being streamed now. */
type Open =
  | { kind: "text"; index: number; stream: TextStream; fresh: boolean }
  | { kind: "thinking"; index: number; stream: ThinkingStream; fresh: boolean }
  | { kind: "toolCall"; index: number; name: string };

/** One assistant message being streamed. */
export interface AssistantStream {
  /**
   * The text to write for one `message_update`; empty when it changes nothing on screen.
   * `rowOpen`: whether the cursor is after text on its row.
   */
  update(event: MessageUpdate, rowOpen: boolean): string;
  /** Ends the block still open, if any, at `message_end`: the text that closes its line. */
  finish(rowOpen: boolean): string;
  /** Indexes of the content blocks already written; `message_end` skips them. */
  readonly written: ReadonlySet<number>;
  /** What the model is producing now, for the live region: `thinking…`, or `write a.txt…`. */
  activity(): string | undefined;
}

const rowOpenAfter = (rowOpen: boolean, out: string): boolean => (out === "" ? rowOpen : !out.endsWith("\n"));

/** What an assistant stream needs from its view. */
export interface AssistantStreamOptions {
  palette: Palette;
  /** Columns a row may take. */
  width: number;
  /** Called once, before the message's first written text: what to put before it (a blank row). */
  beginBlock: () => string;
}

/**
 * Creates the stream of one assistant message.
 * Contract: blocks are written in the order their events come, each ended before the next starts
 * (an update for another block, or a start while one is open, ends the open one first); a block
 * whose only events are `*_end` is written whole. Tool calls are never written, only described by
 * `activity` between their start and end.
 */
export function createAssistantStream(options: AssistantStreamOptions): AssistantStream {
  const written = new Set<number>();
  let open: Open | undefined;
  let message: AssistantMessage | undefined;
  /** The first text an assistant message writes gets what the view puts before a new block. */
  let begun = false;
  const begin = (out: string): string => {
    if (out === "" || begun) return out;
    begun = true;
    return `${options.beginBlock()}${out}`;
  };

  function close(rowOpen: boolean): string {
    const block = open;
    open = undefined;
    if (block === undefined || block.kind === "toolCall") return "";
    return begin(block.stream.end(rowOpen));
  }

  /** Ends the open block unless it is `index` of `kind`, then opens that one; returns the text written. */
  function enter(index: number, kind: Open["kind"], rowOpen: boolean): string {
    if (open !== undefined && open.index === index && open.kind === kind) return "";
    const closing = close(rowOpen);
    // A row left open by anything else is ended before a new block begins.
    const ending = rowOpenAfter(rowOpen, closing) ? "\n" : "";
    const p = options.palette;
    if (kind === "text")
      open = { kind, index, stream: createTextStream(textLayout(options.width, p.bold)), fresh: true };
    else if (kind === "thinking") {
      const style = (text: string) => p.dim(p.italic(text));
      open = { kind, index, stream: createThinkingStream({ width: options.width, style }), fresh: true };
    } else {
      const block = message?.content[index];
      open = { kind, index, name: block?.type === "toolCall" ? block.name : "" };
    }
    if (kind !== "toolCall") written.add(index);
    return `${closing}${ending}`;
  }

  function push(delta: string, rowOpen: boolean): string {
    if (open === undefined || open.kind === "toolCall") return "";
    open.fresh = false;
    return begin(open.stream.push(delta, rowOpen));
  }

  function step(event: MessageUpdate, rowOpen: boolean): string {
    const e = event.assistantMessageEvent;
    switch (e.type) {
      case "text_start":
        return enter(e.contentIndex, "text", rowOpen);
      case "thinking_start":
        return enter(e.contentIndex, "thinking", rowOpen);
      case "toolcall_start": {
        const out = enter(e.contentIndex, "toolCall", rowOpen);
        if (open?.kind === "toolCall" && open.name === "") open.name = e.name;
        return out;
      }
      case "text_delta":
      case "thinking_delta": {
        const kind = e.type === "text_delta" ? "text" : "thinking";
        const before = enter(e.contentIndex, kind, rowOpen);
        return `${before}${push(e.delta, rowOpenAfter(rowOpen, before))}`;
      }
      case "toolcall_delta":
        return enter(e.contentIndex, "toolCall", rowOpen);
      case "text_end":
      case "thinking_end": {
        const before = enter(e.contentIndex, e.type === "text_end" ? "text" : "thinking", rowOpen);
        // A block that came with no delta is written whole from its end event.
        const whole = open?.kind !== "toolCall" && open?.fresh ? push(e.content, rowOpenAfter(rowOpen, before)) : "";
        const sofar = `${before}${whole}`;
        return `${sofar}${close(rowOpenAfter(rowOpen, sofar))}`;
      }
      case "toolcall_end":
        return `${enter(e.contentIndex, "toolCall", rowOpen)}${close(rowOpen)}`;
    }
  }

  return {
    update(event, rowOpen) {
      message = event.message;
      return step(event, rowOpen);
    },
    finish: (rowOpen) => close(rowOpen),
    written,
    activity() {
      if (open?.kind === "thinking") return "thinking…";
      if (open?.kind !== "toolCall") return undefined;
      const block = message?.content[open.index];
      const input = block?.type === "toolCall" ? block.arguments : {};
      const args = formatArgs({ toolName: open.name, args: input });
      // How much of a file the model has written so far: the one sign of progress a long write gives.
      const content = (input as { content?: unknown }).content;
      const size = typeof content === "string" ? ` (${content.length} ${content.length === 1 ? "char" : "chars"})` : "";
      return `${toolLabel(open.name)}${args === "" ? "" : ` ${args}`}${size}…`;
    },
  };
}
