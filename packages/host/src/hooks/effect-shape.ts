import type { ToolEffect } from "@gatehouse/sdk";

/** The field that names what an effect of a known kind touches. */
function targetField(kind: string): "path" | "command" | "url" | undefined {
  switch (kind) {
    case "read":
    case "write":
      return "path";
    case "exec":
      return "command";
    case "net":
      return "url";
    default:
      return undefined;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof (value as { then?: unknown } | undefined)?.then === "function") {
    return "a promise (effects are computed synchronously)";
  }
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/**
 * A tool's declared effects as fresh plain objects, each field read once, or why they cannot be
 * checked. What the guards, the pins and the audit see must be the same list, and one a guard can
 * read without failing: a `null` entry, a list returned from an `async` function, a path given as a
 * list of paths crashed the whole run (exit 1, a stack trace) when a guard such as tool-audit
 * computed them, or reached each guard in a shape it did not expect.
 * Contract: never throws for any value whose fields can be read; a list whose every entry is an
 * object with a string `kind` passes, and an entry of a known kind (read, write, exec, net) needs a
 * string `path`, `command` or `url`, which is all that is kept of it. Entries of another kind are
 * copied as they are (guards decide what they make of them; protected-paths refuses them).
 */
export function normaliseEffects(value: unknown): { effects: ToolEffect[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: `they are ${describe(value)}, not a list of effects` };
  const effects: ToolEffect[] = [];
  for (let i = 0; i < value.length; i++) {
    const effect: unknown = value[i];
    if (effect === null || typeof effect !== "object" || Array.isArray(effect)) {
      return { problem: `effects[${i}] is ${describe(effect)}, not an object like { kind: "read", path: "a.txt" }` };
    }
    const kind = (effect as { kind?: unknown }).kind;
    if (typeof kind !== "string") return { problem: `effects[${i}].kind is ${describe(kind)}, not a string` };
    const field = targetField(kind);
    if (field === undefined) {
      effects.push({ ...(effect as ToolEffect) });
      continue;
    }
    const target = (effect as Record<string, unknown>)[field];
    if (typeof target !== "string") {
      return {
        problem: `effects[${i}] (${kind}) has a ${field} that is ${describe(target)}, not a string (declare one effect per ${field})`,
      };
    }
    // One literal per kind: every copy of a kind has the same layout (a computed key would not say which).
    effects.push(
      field === "path"
        ? ({ kind, path: target } as ToolEffect)
        : field === "command"
          ? ({ kind, command: target } as ToolEffect)
          : ({ kind, url: target } as ToolEffect),
    );
  }
  return { effects };
}
