import { hash } from "node:crypto";
import { lstatSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ReservedPath } from "@gatehouse/sdk";
import { realOr } from "../common/real-or.ts";
import { gatehouseHome } from "../config/gatehouse-home.ts";
import { ensurePrivateDir } from "../config/private-dir.ts";
import { MANAGED_VARIABLE, settingsFileLocations } from "../config/settings-locations.ts";
import type { AgentHookSettings } from "../config/settings-schema.ts";
import type { ExtensionRecord } from "../extensions/types.ts";

/** The guards a plan can stand for: their decisions are reproduced from their effective configuration alone. */
const PLANNED = { "protected-paths": "@gatehouse/protected-paths", "tool-audit": "@gatehouse/tool-audit" } as const;

const PLAN_VERSION = 2;

/**
 * What a full evaluation of a project found, kept to decide the next calls without loading the
 * project again: the effective configuration of the first-party guards and the agent hooks'
 * settings, valid while none of the files that decided them changed.
 */
export interface HookPlan {
  /** `config.protected-paths` as the extension parsed and merged it; null when it is not enabled. */
  protectedPaths: unknown;
  /** `config.tool-audit` likewise; null when it is not enabled. */
  toolAudit: unknown;
  agentHooks: AgentHookSettings;
  /** The paths the full evaluation's host reserved (audit log and key, managed settings): denied in every plan. */
  reserved: readonly ReservedPath[];
}

/** Where a project's plan is looked up. */
export interface HookPlanOptions {
  /** The project directory. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Files whose change must invalidate every plan: the deciding code itself (the CLI and plugin
   * entries), so an upgrade is never decided by the last version's reading of the settings.
   */
  code: readonly string[];
}

/** Every path whose existence or content can change which guards run and how they are configured. */
function planInputs(options: HookPlanOptions, home: string): string[] {
  const project = realOr(resolve(options.cwd));
  const inputs = settingsFileLocations({ cwd: options.cwd, env: options.env, home }).map((l) => l.file);
  inputs.push(
    join(options.cwd, ".gatehouse", "extensions"),
    join(home, "extensions"),
    join(home, "trust.json"),
    ...options.code,
  );
  // A project (or a folder above it) that installs its own copy of a guard package resolves it first.
  for (let dir = project; ; dir = dirname(dir)) {
    for (const name of Object.values(PLANNED)) inputs.push(join(dir, "node_modules", name));
    if (dirname(dir) === dir) break;
  }
  return inputs;
}

function statSignature(path: string, stat: typeof statSync): string {
  try {
    const s = stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;
  } catch (error) {
    return `-${(error as NodeJS.ErrnoException).code ?? "?"}`;
  }
}

/**
 * The input as it is followed and as it is itself: a symbolic link put where a file was missing
 * (one that leads nowhere is an error to the full evaluation, not an absent file), or one pointed
 * elsewhere, changes the fingerprint even when what it leads to does not.
 */
function signature(path: string): string {
  return `${statSignature(path, statSync)}|${statSignature(path, lstatSync)}`;
}

function fingerprint(options: HookPlanOptions, home: string): string {
  const inputs = planInputs(options, home);
  const parts = [String(PLAN_VERSION), options.env[MANAGED_VARIABLE] ?? "", realOr(resolve(options.cwd)), home];
  for (const input of inputs) parts.push(`${input}\u0000${signature(input)}`);
  return hash("sha256", parts.join("\n"), "hex");
}

function planFile(options: HookPlanOptions, home: string): string {
  const key = hash("sha256", `${realOr(resolve(options.cwd))}\u0000${options.env[MANAGED_VARIABLE] ?? ""}`, "hex");
  return join(ensurePrivateDir(home, "hooks", "plans"), `${key.slice(0, 40)}.json`);
}

/**
 * The plan for a project when one was written and none of its inputs changed since: the settings
 * files of every level (managed included), the extension folders, the trust store, the guard
 * packages a project could install for itself, and the deciding code.
 * Contract: never throws; `undefined` means "evaluate fully" (no plan, a stale one, or anything
 * unreadable). The plan lives in GATEHOUSE_HOME (private, out of the workspace).
 */
export function readHookPlan(options: HookPlanOptions): HookPlan | undefined {
  try {
    const home = gatehouseHome(options.env);
    const stored = JSON.parse(readFileSync(planFile(options, home), "utf8")) as {
      fingerprint?: unknown;
      plan?: HookPlan;
    };
    if (stored.fingerprint !== fingerprint(options, home) || !stored.plan) return undefined;
    return stored.plan;
  } catch {
    return undefined;
  }
}

/**
 * The plan a full evaluation allows, if any: only when every loaded extension is a first-party
 * guard from Gatehouse's own installation, so its decision can be reproduced from its effective
 * configuration. Any other extension (its code could change without a settings file changing), a
 * failed required guard (the evaluation then has no records) or a project copy of a guard means
 * every call is evaluated fully.
 */
export function planOf(
  extensions: readonly ExtensionRecord[],
  agentHooks: AgentHookSettings,
  reserved: readonly ReservedPath[],
): HookPlan | undefined {
  const plan: HookPlan = { protectedPaths: null, toolAudit: null, agentHooks, reserved };
  for (const record of extensions) {
    // A failed extension may work after an edit no plan input sees; an untrusted (skipped) one needs trust.json.
    if (record.status === "failed") return undefined;
    if (record.status !== "loaded") continue;
    const planned = Object.hasOwn(PLANNED, record.name) ? PLANNED[record.name as keyof typeof PLANNED] : undefined;
    if (!planned || record.source !== planned || record.config === undefined) return undefined;
    if (record.name === "protected-paths") plan.protectedPaths = record.config.value;
    else plan.toolAudit = record.config.value;
  }
  return plan;
}

/**
 * Stores a project's plan with the fingerprint of its inputs as they are now.
 * Contract: the fingerprint is taken before the evaluation's results are trusted by the caller's
 * next run only; a write that fails is ignored (the next call evaluates fully again).
 */
export function writeHookPlan(options: HookPlanOptions, plan: HookPlan, takenBefore: string | undefined): void {
  try {
    const home = gatehouseHome(options.env);
    const now = fingerprint(options, home);
    // An input that changed while the evaluation ran may not be reflected in it: keep no plan then.
    if (takenBefore !== undefined && takenBefore !== now) return;
    const file = planFile(options, home);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ fingerprint: now, plan }), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A plan is an optimisation: without it the next call is evaluated fully.
  }
}

/** The fingerprint of a project's plan inputs now (taken before a full evaluation; see `writeHookPlan`). */
export function planFingerprint(options: HookPlanOptions): string | undefined {
  try {
    return fingerprint(options, gatehouseHome(options.env));
  } catch {
    return undefined;
  }
}
