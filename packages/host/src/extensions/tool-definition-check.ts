import type { AnyToolDefinition } from "@gatehouse/sdk";

/** zod kinds that wrap one inner schema whose input a model's arguments must match. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** zod kinds that never accept a JSON object, so a model's arguments (always an object) never match. */
const NOT_OBJECTS = new Set([
  "string",
  "number",
  "int",
  "boolean",
  "bigint",
  "symbol",
  "null",
  "undefined",
  "void",
  "never",
  "literal",
  "enum",
  "array",
  "tuple",
  "date",
  "nan",
  "template_literal",
  "file",
  "set",
  "map",
  "function",
  "promise",
]);

interface ZodDef {
  type?: string;
  innerType?: unknown;
  in?: unknown;
  options?: unknown[];
}

function defOf(schema: unknown): ZodDef | undefined {
  return (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;
}

/**
 * The zod kind of `schema` when it can never accept an object (`"string"`, `"array"`, ...), or
 * undefined when it may. Wrappers and a pipe's input side are looked through; a union is refused
 * only when none of its options may accept an object; anything else (objects, intersections,
 * lazy and custom schemas) is accepted.
 */
function nonObjectKind(schema: unknown, depth = 0): string | undefined {
  const def = defOf(schema);
  if (!def || typeof def.type !== "string" || depth > 32) return undefined;
  if (NOT_OBJECTS.has(def.type)) return def.type;
  if (WRAPPERS.has(def.type)) return nonObjectKind(def.innerType, depth + 1);
  if (def.type === "pipe") return nonObjectKind(def.in, depth + 1);
  if (def.type === "union" && Array.isArray(def.options) && def.options.length > 0) {
    const kinds = def.options.map((option) => nonObjectKind(option, depth + 1));
    return kinds.every((kind) => kind !== undefined) ? `union of ${[...new Set(kinds)].join(", ")}` : undefined;
  }
  return undefined;
}

/**
 * The tool names every model provider accepts: Anthropic and OpenAI both require
 * `^[a-zA-Z0-9_-]{1,64}$` (Gemini's rule is wider), so a name outside it loads here but makes every
 * request to a real model fail, or is offered under another name.
 */
const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Why a tool name would not reach a model intact, or undefined when it would (registerTool and createHost's `tools`). */
export function toolNameProblem(name: string): string | undefined {
  if (PROVIDER_TOOL_NAME.test(name)) return undefined;
  const why = name.length > 64 ? `is ${name.length} characters long` : "holds other characters";
  return `tool ${JSON.stringify(name)} has a name model providers refuse: it ${why}; a tool name is 1 to 64 letters, digits, "_" or "-" (^[a-zA-Z0-9_-]{1,64}$).`;
}

/**
 * Why `def` cannot be registered as a tool, or undefined when it can.
 * Contract: checks only what makes a tool unusable or silently different from what its author
 * wrote — a missing name, execute or description; a name providers refuse (`PROVIDER_TOOL_NAME`); effects or prepareArguments that are not
 * functions; parameters that are not zod or can never accept the object of arguments a model
 * sends (`z.string()`: every call would be invalid); an executionMode other than "parallel" or
 * "sequential" (a typo such as "serial" would run the tool in parallel batches unnoticed).
 */
export function toolDefinitionProblem(def: AnyToolDefinition): string | undefined {
  if (!def || typeof def.name !== "string" || def.name.length === 0) return "registerTool needs a tool with a name.";
  const badName = toolNameProblem(def.name);
  if (badName) return badName;
  const tool = `tool "${def.name}"`;
  if (typeof def.execute !== "function") return `${tool} has no execute function.`;
  // The model chooses tools by their description: one without it cannot be offered (SPEC §2 defineTool).
  if (typeof def.description !== "string")
    return `${tool} needs a description (a string telling the model what it does).`;
  if (def.effects !== undefined && typeof def.effects !== "function")
    return `${tool} has effects that are not a function (args) => [...].`;
  if (def.prepareArguments !== undefined && typeof def.prepareArguments !== "function")
    return `${tool} has prepareArguments that is not a function (raw) => args.`;
  const mode: unknown = def.executionMode;
  if (mode !== undefined && mode !== "parallel" && mode !== "sequential")
    return `${tool} has executionMode ${JSON.stringify(mode) ?? String(mode)}; expected "parallel" or "sequential".`;
  if (!def.parameters || typeof (def.parameters as { safeParse?: unknown }).safeParse !== "function")
    return `${tool} needs zod parameters (z.object({...})).`;
  const kind = nonObjectKind(def.parameters);
  if (kind !== undefined)
    return `${tool} needs object parameters (z.object({...})): a model always sends its arguments as an object, and its ${kind} schema accepts none.`;
  return undefined;
}
