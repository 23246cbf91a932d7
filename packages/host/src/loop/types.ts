import type {
  AgentEvent,
  AnyToolDefinition,
  CheckedFileIdentity,
  ExecutionMode,
  Logger,
  Message,
  SandboxViolation,
  ToolCall,
  ToolEffect,
  ToolResult,
  ToolSandbox,
} from "@gatehouse/sdk";
import type { Model } from "../model/types.ts";

/** A sandbox handed to a tool that also reports what its runs undid (the call then ends blocked). */
export interface ConfinedSandbox extends ToolSandbox {
  violations(): readonly SandboxViolation[];
}

/** The tools one turn may use, looked up by name. */
export interface ToolSet {
  readonly list: readonly AnyToolDefinition[];
  get(name: string): AnyToolDefinition | undefined;
}

/** The outcome of validating arguments against a tool's schema. */
export type Validation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** What the loop asks the `tool_call` hooks about one validated call. */
export interface ToolCallRequest {
  toolCall: ToolCall;
  tool: AnyToolDefinition;
  /** A private, mutable copy of the validated arguments. */
  input: Record<string, unknown>;
  /** Validates a (possibly mutated) input against the tool's schema. */
  validate: (input: unknown) => Validation;
  signal: AbortSignal;
}

/** What a guard saw at a real path it pinned; "conflict" when guards saw different files there. */
export type PinIdentity = CheckedFileIdentity | "conflict";

/** The pins the guards made for one call (see `LoopConfig.pinEffects`). */
export interface GuardPins {
  pins?: ReadonlyMap<string, readonly string[]> | undefined;
  identities?: ReadonlyMap<string, PinIdentity> | undefined;
}

/**
 * The hooks' decision on one call; `input` is the final, frozen input the tool will run with
 * (or, for a block in the enforce stage, the input the guard refused).
 */
export type ToolCallVerdict =
  | {
      action: "allow";
      input: Readonly<Record<string, unknown>>;
      effects?: readonly ToolEffect[] | undefined;
      /** Real paths the guards checked, by absolute path (handed to the tool). */
      pins?: ReadonlyMap<string, readonly string[]> | undefined;
      /** What the guards saw at those real paths, by real path ("conflict": guards disagreed). */
      pinIdentities?: ReadonlyMap<string, PinIdentity> | undefined;
      /** The guards' read filter (handed to the tool as `ctx.canRead`). */
      canRead?: ((absolutePath: string) => boolean) | undefined;
      /** The sandbox a guard confined the call to (handed to the tool as `ctx.sandbox`). */
      sandbox?: ConfinedSandbox | undefined;
    }
  | {
      action: "block";
      blockedBy: string;
      reason: string;
      input?: Readonly<Record<string, unknown>>;
      effects?: readonly ToolEffect[] | undefined;
      /** The guard also ends the run once this batch is finished (`{ block, reason, terminate: true }`). */
      terminate?: boolean;
    }
  | { action: "invalid"; blockedBy: string; reason: string };

/** What the loop asks the `tool_result` hooks about one executed call. */
export interface ToolResultRequest {
  toolCall: ToolCall;
  input: Readonly<Record<string, unknown>>;
  result: ToolResult;
  isError: boolean;
  signal: AbortSignal;
}

/** The patched result after the `tool_result` hooks. */
export interface FinalResult {
  result: ToolResult;
  isError: boolean;
}

/** The interception points the loop calls; implemented by the hook bus. */
export interface LoopHooks {
  toolCall(request: ToolCallRequest): ToolCallVerdict | Promise<ToolCallVerdict>;
  toolResult(request: ToolResultRequest): FinalResult | Promise<FinalResult>;
}

/** The state fixed for one turn: tool set and hooks change only at turn boundaries. */
export interface TurnState {
  tools: ToolSet;
  hooks?: LoopHooks | undefined;
  /** The system prompt for this turn's request (e.g. listing this turn's tools); overrides the config's. */
  systemPrompt?: string | undefined;
}

/** Receives every event; a returned promise is awaited before the loop goes on. */
export type EmitFn = (event: AgentEvent) => void | Promise<void>;

/** Everything the pure loop needs, injected. The loop calls every callback as a method of this object (`config.emit(event)`), so a class instance works. */
export interface LoopConfig {
  model: Model;
  systemPrompt?: string | undefined;
  /** The context: read by the model, appended to by the loop (never copied). */
  messages: Message[];
  /** Called at every turn boundary, before the model request. */
  prepareTurn: () => TurnState | Promise<TurnState>;
  emit: EmitFn;
  toolExecution?: ExecutionMode | undefined;
  signal?: AbortSignal | undefined;
  /** Polled after each turn_end; messages are injected before the next model request. */
  getSteeringMessages?: (() => Message[] | Promise<Message[]>) | undefined;
  /** Polled only when the agent would otherwise stop. */
  getFollowUpMessages?: (() => Message[] | Promise<Message[]>) | undefined;
  /**
   * Called after every turn_end with the 1-based turn number and whether the loop would go on
   * (tool results to answer); returning true ends the run there, before steering or follow-ups
   * are polled — e.g. a maximum number of turns.
   */
  shouldStopAfterTurn?: ((turn: number, continuing: boolean) => boolean) | undefined;
  /**
   * A tool call whose arguments are larger than this many UTF-8 bytes is an invalid call, and its
   * argument text is not relayed or kept past this size (default 1 MiB, `DEFAULT_MAX_ARGUMENT_BYTES`).
   */
  maxArgumentBytes?: number | undefined;
  /**
   * The real file each read/write effect names now, by absolute path: called for a call the guards
   * just allowed, and merged into its pins (`ToolContext.pinnedTargets`) so the tool acts on exactly
   * what was checked, whether or not a guard pinned it too. `guards` holds the pins the guards just
   * made (absolute → real paths, and what they saw at each real path); a path they pinned may be
   * taken from there rather than resolved and looked at again. Injected because it touches the disk.
   */
  pinEffects?: ((effects: readonly ToolEffect[], guards?: GuardPins) => Map<string, readonly string[]>) | undefined;
  /**
   * Called when a guard blocked a call with `terminate: true`: the run ends after that batch (no
   * steering, follow-up or further turn). Lets the embedder say who ended it.
   */
  onHalt?: ((halt: { by: string; reason: string }) => void) | undefined;
  /** Working directory and logger handed to tools. */
  cwd: string;
  logger: Logger;
  /** Current time in ms; injectable for deterministic tests. */
  now?: (() => number) | undefined;
}
