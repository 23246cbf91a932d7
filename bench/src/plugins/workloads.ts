/** Which tool every call of a workload goes to. */
export type PluginTool = "read" | "noop";

/** The model script of one plugin-overhead workload: calls per turn, all to one tool. */
export interface PluginWorkload {
  name: string;
  /** Tool calls in each tool-calling assistant message, in order; a final text turn follows. */
  callsPerTurn: readonly number[];
  /** `read`: the built-in reading a small file; `noop`: a custom tool that declares a read effect. */
  tool: PluginTool;
  /** Trials run back to back in one timed sample. */
  repeat: number;
}

/** Total tool calls of a workload, the unit its time is divided by. */
export function totalCalls(workload: PluginWorkload): number {
  return workload.callsPerTurn.reduce((sum, n) => sum + n, 0);
}

const W1_CALLS = 200;
const W2_TURNS = 100;
/** W1 samples cover 1000 calls; W2 turns each end with an fsync of the audit (milliseconds), so 200 suffice. */
const W1_REPEAT = 5;
const W2_REPEAT = 2;
const oneCallTurns = Array.from({ length: W2_TURNS }, () => 1);

/** W1: one assistant message with many parallel calls; W2: many turns of one call. */
export const PLUGIN_WORKLOADS: readonly PluginWorkload[] = [
  { name: `W1 ${W1_CALLS} read calls, parallel`, callsPerTurn: [W1_CALLS], tool: "read", repeat: W1_REPEAT },
  {
    name: `W1 ${W1_CALLS} noop calls (read effect), parallel`,
    callsPerTurn: [W1_CALLS],
    tool: "noop",
    repeat: W1_REPEAT,
  },
  { name: `W2 ${W2_TURNS} turns of one read call`, callsPerTurn: oneCallTurns, tool: "read", repeat: W2_REPEAT },
  { name: `W2 ${W2_TURNS} turns of one noop call`, callsPerTurn: oneCallTurns, tool: "noop", repeat: W2_REPEAT },
];
