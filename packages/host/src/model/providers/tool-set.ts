import type { AnyToolDefinition } from "@gatehouse/sdk";
import { type JSONSchema7, jsonSchema, type Tool, type ToolSet, tool } from "ai";
import { z } from "zod";

/** One SDK tool per definition object: the JSON schema is derived once, not per request. */
const cache = new WeakMap<AnyToolDefinition, Tool>();

/**
 * The JSON schema a model sees for a tool's parameters: the zod *input* shape (fields with defaults
 * stay optional), anything JSON Schema cannot express left open, and no `$schema` key.
 */
export function parametersSchema(def: AnyToolDefinition): JSONSchema7 {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(def.parameters, { io: "input", unrepresentable: "any" });
  return schema as JSONSchema7;
}

/**
 * The tool definitions as AI SDK tools, keyed by name.
 * Contract: the tools carry a description and an input schema and no `execute`, so the SDK never
 * runs a tool; the schema has no validator, so the SDK passes the model's arguments through and the
 * Gatehouse pipeline stays the only place that prepares, validates and executes them. The SDK tool
 * of a definition object is built once and reused (WeakMap), so a reloaded definition gets a new one.
 */
export function toToolSet(defs: readonly AnyToolDefinition[]): ToolSet {
  const tools: ToolSet = {};
  for (const def of defs) {
    let sdkTool = cache.get(def);
    if (sdkTool === undefined) {
      sdkTool = tool({ description: def.description, inputSchema: jsonSchema(parametersSchema(def)) });
      cache.set(def, sdkTool);
    }
    tools[def.name] = sdkTool;
  }
  return tools;
}
