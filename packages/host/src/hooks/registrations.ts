import type { GatehouseEventType, HookHandler } from "@gatehouse/sdk";
import type { ToolMatch } from "./tool-matcher.ts";

// Every handler type below comes from the SDK's handler map (`HookMap`), the same map
// `ExtensionAPI.on` is derived from: the host cannot drift from what extensions are told.

/** A transform-stage `tool_call` handler. */
export type TransformHandler = HookHandler<"tool_call:transform">;
/** An enforce-stage `tool_call` handler. */
export type EnforceHandler = HookHandler<"tool_call:enforce">;
/** A `tool_result` handler. */
export type ResultHandler = HookHandler<"tool_result">;
/** A `session_before_compact` handler. */
export type CompactHandler = HookHandler<"session_before_compact">;
/** A handler of an observed event. */
export type EventHandler = HookHandler<GatehouseEventType>;

/** What every registration carries besides its handler. */
interface RegistrationBase {
  extension: string;
  /** Only calls of the matched tools reach the handler (`{ tools }`); absent: every call. */
  match?: ToolMatch | undefined;
}

/** One handler an extension registered, in load order. */
export type Registration = RegistrationBase &
  (
    | { kind: "transform"; handler: TransformHandler }
    | { kind: "enforce"; handler: EnforceHandler }
    | { kind: "tool_result"; handler: ResultHandler }
    | { kind: "session_before_compact"; handler: CompactHandler }
    | { kind: "event"; event: GatehouseEventType; handler: EventHandler }
  );

/** A handler failure, reported as `extension_error` and logged by the host. */
export interface HandlerFailure {
  extension: string;
  hook: string;
  error: Error;
  timedOut: boolean;
}
