import type { z } from "zod";

type Path = (string | number)[];

/** Wrappers that hold the schema a value is really checked against. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The definition a value is checked against; `undefined` for anything that is not a zod schema as we know it. */
function defOf(schema: unknown): Def | undefined {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const def = (current as { def?: unknown } | null | undefined)?.def;
    if (!isObject(def) || typeof def.type !== "string") return undefined;
    const typed = def as unknown as Def;
    const inner = WRAPPERS.has(typed.type) ? typed.innerType : typed.type === "pipe" ? typed.in : undefined;
    if (inner === undefined) return typed;
    current = inner;
  }
  return undefined;
}

/**
 * The keys of a settings section that an extension's schema would drop without a word: keys a
 * `z.object` in its default mode (neither strict nor loose) does not know, at any depth the value
 * and the schema share (objects, arrays, records), as `unrecognized_keys` issues.
 * Why: a guard whose schema is a plain `z.object` would run on its defaults with `blockd` written
 * for `blocked`, the typo SPEC §5 says must never look like a policy that is on. Strict objects
 * report such keys themselves; loose ones (`z.looseObject`, `.passthrough()`) keep them on purpose.
 */
export function droppedKeyIssues(schema: z.ZodType, value: unknown, path: Path = []): z.core.$ZodIssue[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  if (def.type === "object" && def.shape && isObject(value)) {
    const issues: z.core.$ZodIssue[] = [];
    for (const [key, inner] of Object.entries(value)) {
      const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
      if (field) issues.push(...droppedKeyIssues(field, inner, [...path, key]));
      else if (def.catchall === undefined) {
        const allowed = Object.keys(def.shape).join(", ");
        const message = `unknown key (allowed keys: ${allowed}); the extension's schema would drop it without a word`;
        issues.push({ code: "unrecognized_keys", keys: [key], path, message, input: value } as z.core.$ZodIssue);
      }
    }
    return issues;
  }
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.flatMap((item, index) => droppedKeyIssues(element, item, [...path, index]));
  }
  if (def.type === "record" && def.valueType && isObject(value)) {
    const inner = def.valueType;
    return Object.entries(value).flatMap(([key, item]) => droppedKeyIssues(inner, item, [...path, key]));
  }
  return [];
}
