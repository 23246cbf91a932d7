// The `@gatehouse/host/hook-plan` entry: what an agent hook needs on its fast path — the stored
// decision plan and the private state folders — without the schema library or the host itself.
export type { HookPlan, HookPlanOptions } from "./agent-hooks/hook-plan.ts";
export { planFingerprint, planOf, readHookPlan, writeHookPlan } from "./agent-hooks/hook-plan.ts";
export { gatehouseHome } from "./config/gatehouse-home.ts";
export { ensurePrivateDir } from "./config/private-dir.ts";
export type { AgentHookSettings } from "./config/settings-schema.ts";

/** This entry's own file URL: an agent hook's stored plan is invalidated when the plan code changes. */
export const HOOK_PLAN_MODULE_URL: string = import.meta.url;
