import { join } from "node:path";

/** The file of seal number `ordinal` in `dir`. */
export function sealFile(dir: string, ordinal: number): string {
  return join(dir, `${String(ordinal).padStart(8, "0")}.seal`);
}
