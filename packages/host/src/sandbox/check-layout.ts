import path from "node:path";
import type { SandboxLayout } from "@gatehouse/sdk";

const OUTSIDE = new Set(["read-only", "hidden", "writable"]);

function checkPaths(value: unknown, field: string, owner: string): void {
  if (!Array.isArray(value)) throw new Error(`${owner}'s sandbox layout: ${field} is not a list of paths`);
  for (const p of value) {
    if (typeof p !== "string" || !path.isAbsolute(p) || p.includes("\0")) {
      throw new Error(`${owner}'s sandbox layout: ${field} holds ${JSON.stringify(p)}, which is not an absolute path`);
    }
  }
}

/**
 * Checks the shape of a layout an extension planned, before any of it reaches bwrap's command line.
 * Contract: throws an Error naming the owner and field when a path list is not a list of absolute
 * paths without NUL bytes, `outside` is not one of its three values or `network` is not a boolean.
 */
export function checkLayout(layout: SandboxLayout, owner: string): void {
  if (typeof layout !== "object" || layout === null) throw new Error(`${owner} planned no sandbox layout`);
  for (const field of ["writable", "readOnly", "masked", "pinned"] as const) checkPaths(layout[field], field, owner);
  if (!OUTSIDE.has(layout.outside)) {
    throw new Error(`${owner}'s sandbox layout: outside is ${JSON.stringify(layout.outside)}`);
  }
  if (typeof layout.network !== "boolean") throw new Error(`${owner}'s sandbox layout: network is not a boolean`);
}
