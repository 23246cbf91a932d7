import type { SettingsLocation } from "../config/extension-specs.ts";
import type { ConfigExplanation } from "./config-explanation.ts";

/** Where an extension was enabled: a settings entry, a drop-in folder, or code. */
export type EnabledAt =
  | ({ readonly kind: "settings" } & SettingsLocation)
  | { readonly kind: "folder"; readonly level: "project" | "user"; readonly dir: string }
  | { readonly kind: "code" };

/** The state of one extension as `gatehouse extensions` reports it. */
export interface ExtensionRecord {
  name: string;
  /** File path, package name, or "inline" for extensions given to createHost. */
  source: string;
  status: "loaded" | "failed" | "skipped";
  /** True for a guard that must load: its failure stops the host (see `createHost`). */
  required?: boolean;
  /** Where it was enabled. */
  enabledAt?: EnabledAt;
  tools: string[];
  handlers: string[];
  errors: string[];
  /** What `api.config` decided, key by key, when the extension read its configuration. */
  config?: ConfigExplanation;
}
