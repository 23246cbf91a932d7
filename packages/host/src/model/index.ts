export type {
  AssistantStreamBuilderOptions,
  DeltaEvent,
  EndEvent,
  FinishDetails,
  StartEvent,
  ToolArgumentsError,
} from "./assistant-stream-builder.ts";
export { AssistantStreamBuilder } from "./assistant-stream-builder.ts";
export { loadScript, parseScript } from "./load-script.ts";
export { parsePartialJson } from "./partial-json.ts";
export type { Script, ScriptBlock, ScriptTurn } from "./script-schema.ts";
export { scriptSchema } from "./script-schema.ts";
export type { ScriptedModel, ScriptedModelOptions, ScriptedRequest } from "./scripted-model.ts";
export { createScriptedModel } from "./scripted-model.ts";
export type { Model, ModelRequest, ModelStreamEvent } from "./types.ts";
