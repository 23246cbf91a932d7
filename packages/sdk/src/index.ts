/** zod 4, re-exported so extensions need nothing installed next to them. */
export { z } from "zod";
export { type BuiltinToolInputs, type BuiltinToolName, builtinToolParameters } from "./builtin-tools.ts";
export type { ConfigMergeRule, ConfigMergeRules, ConfigOptions } from "./config-merge.ts";
export type {
  AgentEvent,
  AssistantMessageEvent,
  GatehouseEvent,
  GatehouseEventOf,
  GatehouseEventType,
  HostEvent,
  ToolExecutionEndEvent,
  ToolOutcome,
} from "./events.ts";
export type {
  ExtensionAPI,
  ExtensionDefinition,
  ExtensionExport,
  HandlerEventName,
  HookOf,
  OnHandler,
  OnOptions,
  ToolEventName,
} from "./extension.ts";
export { defineExtension } from "./extension.ts";
export type {
  Awaitable,
  Handler,
  HookHandler,
  HookMap,
  HookName,
  InterceptionHooks,
  ObserverHandler,
} from "./handler-map.ts";
export type {
  CheckedFileIdentity,
  GuardedToolCallEvent,
  HandlerContext,
  SessionBeforeCompactEvent,
  SessionBeforeCompactResult,
  ToolCallBlock,
  ToolCallEnforceResult,
  ToolCallEvent,
  ToolCallTransformResult,
  ToolResultEvent,
  ToolResultPatch,
} from "./hook-events.ts";
export type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "./messages.ts";
export type { ReservedPath, ReservePathOptions } from "./reserved-path.ts";
export type {
  SandboxLayout,
  SandboxPlan,
  SandboxProfile,
  SandboxRunOptions,
  SandboxRunResult,
  SandboxViolation,
  ToolSandbox,
} from "./sandbox.ts";
export type {
  AnyToolDefinition,
  ExecutionMode,
  Logger,
  ToolContext,
  ToolDefinition,
  ToolEffect,
  ToolParameters,
  ToolProgress,
  ToolResult,
} from "./tool.ts";
export { defineTool } from "./tool.ts";
export type {
  MatchedEvent,
  ToolDetailsOf,
  ToolEventFor,
  ToolInputOf,
  ToolMatcher,
  ToolNameOf,
  ToolRef,
} from "./tool-match.ts";
export { isToolCall } from "./tool-match.ts";
