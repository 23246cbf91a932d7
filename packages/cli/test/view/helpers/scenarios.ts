/**
 * Realistic runs for view tests, as steps: events, clock advances and named checkpoints.
 */
import type { GatehouseEvent } from "@gatehouse/sdk";
import type { LiveView } from "../../../src/view/index.ts";
import { assistant, call, end, message, resultMessage, start, text, thinking, update, user } from "./events.ts";

/** One step of a scripted run. */
export type Step = GatehouseEvent | { advance: number } | { checkpoint: string };

/** Replays `steps` into `view`, moving `clock`; stops before the checkpoint named `until`. */
export function play(options: {
  view: LiveView;
  clock: { advance: (ms: number) => void };
  steps: readonly Step[];
  until?: string;
}): void {
  for (const step of options.steps) {
    if ("advance" in step) options.clock.advance(step.advance);
    else if ("checkpoint" in step) {
      if (step.checkpoint === options.until) return;
    } else options.view.onEvent(step);
  }
  if (options.until !== undefined) throw new Error(`no checkpoint ${options.until}`);
}

const envWrite = { path: ".env", content: "X=1" };
const bash = { command: "sleep 0.2; exit 3" };
const fileWrite = { path: "playground/x.txt", content: "hello world\n" };

/**
 * A parallel batch (SPEC S4 + S8): A blocked in preflight, B runs, reports progress and fails,
 * C succeeds first; an observer fails meanwhile; a second turn answers with text. 0.8s in all.
 */
export function parallelBatchRun(): Step[] {
  const endA = end("A", "write", envWrite, {
    outcome: "blocked",
    text: "Blocked by protected-paths: writes to .env are denied",
    blockedBy: "protected-paths",
    reason: "writes to .env are denied",
  });
  const endB = end("B", "bash", bash, { outcome: "failed", text: "Command exited with code 3\nstep 2/2" });
  const endC = end("C", "write", fileWrite, { outcome: "executed", text: "Wrote 12 bytes to playground/x.txt" });
  const first = assistant([
    thinking("The user wants a file.\nCheck the policy first."),
    text("I'll write the files and run the check."),
    call("A", "write", envWrite),
    call("B", "bash", bash),
    call("C", "write", fileWrite),
  ]);
  const second = assistant([text("Done: x.txt written; .env is protected.")]);
  return [
    { type: "agent_start" },
    { type: "turn_start" },
    ...message(user("write the files")),
    ...message(first),
    start("A", "write", envWrite),
    endA,
    start("B", "bash", bash),
    start("C", "write", fileWrite),
    { advance: 100 },
    update("B", "bash", bash, "compiling\nstep 1/2"),
    { advance: 100 },
    update("B", "bash", bash, "step 2/2\n"),
    { checkpoint: "running" },
    { type: "extension_error", extension: "tool-audit", hook: "tool_result", error: "disk full\n    at write" },
    { checkpoint: "warned" },
    { advance: 300 },
    endC,
    { checkpoint: "one-left" },
    { advance: 200 },
    endB,
    ...message(resultMessage(endA)),
    ...message(resultMessage(endB)),
    ...message(resultMessage(endC)),
    { type: "turn_end", message: first, toolResults: [endA, endB, endC].map(resultMessage) },
    { type: "turn_start" },
    ...message(second),
    { advance: 100 },
    { type: "turn_end", message: second, toolResults: [] },
    { type: "agent_end", messages: [user("write the files"), first, second] },
  ];
}

/** The plain-mode output of `parallelBatchRun`, line by line (and what a terminal is left with). */
export const PARALLEL_BATCH_LINES: readonly string[] = [
  "› write the files",
  "",
  "✻ thinking: The user wants a file. Check the policy first.",
  "● I'll write the files and run the check.",
  "",
  "⊘ write .env · blocked by protected-paths",
  "  └ writes to .env are denied",
  "⚠ extension tool-audit failed in tool_result: disk full",
  "✓ write playground/x.txt",
  "  └ Wrote 12 bytes to playground/x.txt",
  "✗ bash sleep 0.2; exit 3 · failed",
  "  └ Command exited with code 3",
  "    step 2/2",
  "",
  "● Done: x.txt written; .env is protected.",
  "",
  "done · 2 turns · 3 tool calls: 1 ok, 1 failed, 1 blocked · 0.8s",
];

/** A run whose only model request fails with a provider error after some text. */
export function erroredRun(): Step[] {
  const failed = assistant([text("Let me check")], {
    stopReason: "error",
    errorMessage: "429 Too Many Requests: rate limited\nretry after 20s",
  });
  return [
    { type: "agent_start" },
    { type: "turn_start" },
    ...message(user("check")),
    ...message(failed),
    { advance: 50 },
    { type: "turn_end", message: failed, toolResults: [] },
    { type: "agent_end", messages: [user("check"), failed] },
  ];
}
