export { HandlerRegistry } from "./handler-registry.ts";
export { HookBus } from "./hook-bus.ts";
export type {
  EnforceHandler,
  HandlerFailure,
  Registration,
  ResultHandler,
  TransformHandler,
} from "./registrations.ts";
export type { StageOptions } from "./tool-call-stages.ts";
