// The `@gatehouse/tool-audit/external` entry: recording another agent's calls (agent hooks)
// without the schema library or the extension, so a hook process starts fast.
export type { ToolAuditConfig } from "./config.ts";
export {
  type ExternalCallEvent,
  type ExternalCallsOptions,
  type ExternalCallsResult,
  recordExternalCalls,
} from "./external-calls.ts";

/** This entry's own file URL: an agent hook's stored plan is invalidated when the recording code changes. */
export const EXTERNAL_MODULE_URL: string = import.meta.url;
