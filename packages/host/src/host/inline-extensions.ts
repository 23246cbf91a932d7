import type { ExtensionDefinition } from "@gatehouse/sdk";
import type { ExtensionCandidate } from "../extensions/extension-manager.ts";

/** The names of the first-party guards: required wherever they are enabled, in code too. */
const GUARD_NAMES = new Set(["protected-paths", "tool-audit"]);

/**
 * Extensions given to createHost in code: loaded first, in the order given, never reloaded from disk.
 * Contract: one named `protected-paths` or `tool-audit` is a required guard (its failure rejects
 * createHost).
 */
export function inlineCandidates(defs: readonly ExtensionDefinition[]): ExtensionCandidate[] {
  return defs.map((def, index) => {
    const name = typeof def?.name === "string" && def.name ? def.name : `inline-${index + 1}`;
    return {
      id: `inline:${index}`,
      source: "inline",
      fallbackName: name,
      fingerprint: "inline",
      enabledAt: { kind: "code" },
      ...(GUARD_NAMES.has(name) ? { required: `${name} is a first-party guard` } : {}),
      load: async () => ({ ok: true as const, exported: def }),
    };
  });
}
