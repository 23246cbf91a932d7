import { dirname, join } from "node:path";
import { readRegularFile } from "../common/read-regular-file.ts";

/**
 * The `type` of the package.json nearest to `file`, read as jiti and Node read it (the first one
 * found decides; one that does not parse leaves the type unset).
 * Contract: never throws.
 */
export function packageTypeOf(file: string): unknown {
  for (let dir = dirname(file), last = ""; dir !== last; last = dir, dir = dirname(dir)) {
    let text: string;
    try {
      text = readRegularFile(join(dir, "package.json"), "utf8");
    } catch {
      continue;
    }
    try {
      return (JSON.parse(text) as { type?: unknown } | null)?.type;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
