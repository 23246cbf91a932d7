import type { FlagSpec } from "../help/command-spec.ts";

/** `--cwd DIR`: every command that reads a project. */
export const CWD = {
  type: "string",
  value: "DIR",
  description: "the project directory (default: the current directory)",
} as const satisfies FlagSpec;

/** `--json`: machine-readable output on stdout. */
export const JSON_OUT = { type: "boolean", description: "print JSON instead of text" } as const satisfies FlagSpec;

/** `--trust`: run this project's own extension code for this one command. */
export const TRUST = {
  type: "boolean",
  description: "load this project's own extensions for this command without recording trust (see gatehouse trust)",
} as const satisfies FlagSpec;
