import type { ToolEffect } from "@gatehouse/sdk";
import { resolveRealPath } from "./real-path.ts";
import { resolveToolPath } from "./resolve-path.ts";

/**
 * The real file each read and write effect names right now, keyed by its absolute path as the
 * built-in tools resolve it: what the host pins when guards check a call, so the tool later opens
 * exactly what was checked (`ToolContext.pinnedTargets`), whether or not a guard pinned it too.
 * Contract: never throws; a path the tools would refuse (empty, NUL) is left out.
 */
export function pinEffectTargets(effects: readonly ToolEffect[], cwd: string): Map<string, string[]> {
  const pins = new Map<string, string[]>();
  for (const effect of effects) {
    if ((effect.kind !== "read" && effect.kind !== "write") || typeof effect.path !== "string") continue;
    let absolute: string;
    try {
      absolute = resolveToolPath(effect.path, cwd);
    } catch {
      continue;
    }
    const real = resolveRealPath(absolute);
    const list = pins.get(absolute) ?? [];
    if (!list.includes(real)) list.push(real);
    pins.set(absolute, list);
  }
  return pins;
}
