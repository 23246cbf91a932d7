import type { ExecutionMode } from "@gatehouse/sdk";

/** The model script of one loop workload: tool calls per turn, then one final text turn. */
export interface LoopWorkload {
  name: string;
  /** Tool calls in each tool-calling assistant message, in order. */
  callsPerTurn: readonly number[];
  mode: ExecutionMode;
  /** Gatehouse hook handlers are `async` (the peer's always are); default: plain functions. */
  asyncHooks?: boolean;
}

/** Total tool calls of a workload, the unit its time is divided by. */
export function totalCalls(workload: LoopWorkload): number {
  return workload.callsPerTurn.reduce((sum, n) => sum + n, 0);
}

function turns(n: number): number[] {
  return Array.from({ length: n }, () => 1);
}

/** W1: one message with many calls; W2: many turns of one call, at three session lengths. */
export const W1_PARALLEL: LoopWorkload = { name: "W1 1000 calls, parallel", callsPerTurn: [1000], mode: "parallel" };
export const W1_SEQUENTIAL: LoopWorkload = {
  name: "W1 1000 calls, sequential",
  callsPerTurn: [1000],
  mode: "sequential",
};
export const W1_ASYNC_HOOKS: LoopWorkload = {
  name: "W1 1000 calls, parallel, async hooks",
  callsPerTurn: [1000],
  mode: "parallel",
  asyncHooks: true,
};
export const W2_SHORT: LoopWorkload = { name: "W2 250 turns", callsPerTurn: turns(250), mode: "parallel" };
export const W2_MEDIUM: LoopWorkload = { name: "W2 1000 turns", callsPerTurn: turns(1000), mode: "parallel" };
export const W2_LONG: LoopWorkload = { name: "W2 4000 turns", callsPerTurn: turns(4000), mode: "parallel" };

/** Every loop workload, in report order. */
export const LOOP_WORKLOADS: readonly LoopWorkload[] = [
  W1_PARALLEL,
  W1_SEQUENTIAL,
  W1_ASYNC_HOOKS,
  W2_SHORT,
  W2_MEDIUM,
  W2_LONG,
];

/** The tool both runtimes expose: it does nothing and answers "ok". */
export const NOOP_TOOL_NAME = "noop";

/** The id of the n-th tool call of a workload, unique across the run. */
export function callId(n: number): string {
  return `call_${n}`;
}
