import type { spawn as Spawn } from "node:child_process";
import { createRequire } from "node:module";

let loaded: typeof Spawn | undefined;

/**
 * `child_process.spawn`, with node:child_process (and the net, dgram and stream modules it pulls
 * in) loaded at the first command run instead of at every start of the host.
 */
export const spawn: typeof Spawn = ((...args: Parameters<typeof Spawn>) => {
  loaded ??= (createRequire(import.meta.url)("node:child_process") as { spawn: typeof Spawn }).spawn;
  return (loaded as (...a: unknown[]) => ReturnType<typeof Spawn>)(...args);
}) as typeof Spawn;
