/** The state of one extension as `gatehouse extensions` reports it. */
export interface ExtensionRecord {
  name: string;
  /** File path, package name, or "inline" for extensions given to createHost. */
  source: string;
  status: "loaded" | "failed" | "skipped";
  tools: string[];
  handlers: string[];
  errors: string[];
}
