export { runAgentLoop } from "./agent-loop.ts";
export { DEFAULT_MAX_ARGUMENT_BYTES } from "./argument-size.ts";
export type {
  EmitFn,
  FinalResult,
  GuardPins,
  LoopConfig,
  LoopHooks,
  PinIdentity,
  ToolCallRequest,
  ToolCallVerdict,
  ToolResultRequest,
  ToolSet,
  TurnState,
  Validation,
} from "./types.ts";
export { describeIssues, validateArguments } from "./validate-arguments.ts";
