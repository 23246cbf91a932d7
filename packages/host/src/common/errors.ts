/** Stable error codes of Gatehouse; each names one kind of failure a caller can act on. */
export type GatehouseErrorCode =
  | "GH_USAGE"
  | "GH_SCRIPT_INVALID"
  | "GH_JSON_SYNTAX"
  | "GH_SETTINGS_INVALID"
  | "GH_EXTENSION_LOAD"
  | "GH_EXTENSION_CONFIG"
  | "GH_TOOL_CONFLICT"
  | "GH_AUDIT_WRITE"
  | "GH_SESSION"
  | "GH_STATE_DIR"
  | "GH_GUARD_FAILED"
  | "GH_UNTRUSTED_CODE"
  | "GH_INTERNAL";

/** The one error class of Gatehouse: a code, a message a person can act on, and the cause. */
export class GatehouseError extends Error {
  readonly code: GatehouseErrorCode;

  constructor(code: GatehouseErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GatehouseError";
    this.code = code;
  }
}

/** Turns anything thrown into an Error without losing its message. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === "string") return new Error(value);
  try {
    // JSON.stringify(undefined) is undefined: `throw undefined` must not become an empty message.
    return new Error(JSON.stringify(value) ?? String(value));
  } catch {
    return new Error(String(value));
  }
}

/** The message of anything thrown. */
export function errorMessage(value: unknown): string {
  return toError(value).message;
}
