import type { ExtensionDefinition } from "@gatehouse/sdk";
import type { ExtensionCandidate } from "../extensions/extension-manager.ts";

/** Extensions given to createHost in code: loaded first, in the order given, never reloaded from disk. */
export function inlineCandidates(defs: readonly ExtensionDefinition[]): ExtensionCandidate[] {
  return defs.map((def, index) => {
    const name = typeof def?.name === "string" && def.name ? def.name : `inline-${index + 1}`;
    return {
      id: `inline:${index}`,
      source: "inline",
      fallbackName: name,
      fingerprint: "inline",
      load: async () => ({ ok: true as const, exported: def }),
    };
  });
}
