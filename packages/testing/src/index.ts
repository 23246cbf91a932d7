export type { AuditEntry } from "./call-records.ts";
export { createTestHost, type TestHost, type TestHostOptions } from "./create-test-host.ts";
export type { BlockedExpectation } from "./expectations.ts";
export { toolCall, turn } from "./script-turns.ts";
