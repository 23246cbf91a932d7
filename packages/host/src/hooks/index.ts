export { HandlerRegistry } from "./handler-registry.ts";
export { type BusOptions, HookBus } from "./hook-bus.ts";
export type {
  EnforceHandler,
  HandlerFailure,
  Registration,
  ResultHandler,
  TransformHandler,
} from "./registrations.ts";
