import { defineTool, type ReservedPath, type ToolEffect, z } from "@gatehouse/sdk";
import type { Logger } from "pino";
import { GatehouseError } from "../common/errors.ts";
import type { ExtensionRecord } from "../extensions/types.ts";
import { createHost } from "../host/create-host.ts";
import { createScriptedModel } from "../model/scripted-model.ts";

/** Options of `evaluateToolCall`. */
export interface EvaluateCallOptions {
  /** The project directory (the agent's `cwd`): settings, extensions and relative paths resolve here. */
  cwd: string;
  /** The agent's name for the tool (`Write`, `mcp__fs__write_file`): what guards see as `toolName`. */
  toolName: string;
  /** The agent's arguments, as guards see them (`input`). */
  input: Record<string, unknown>;
  /** What the call touches, in Gatehouse's terms: the only thing path policy decides on. */
  effects: readonly ToolEffect[];
  env?: NodeJS.ProcessEnv;
  /** Where package names resolve besides the project (see `HostOptions.packageBases`). */
  packageBases?: string[];
  logger?: Logger;
}

/** The decision on one call of another agent, from the project's effective guards. */
export interface CallEvaluation {
  outcome: "allowed" | "blocked";
  reason?: string;
  /** The extension that blocked, or "gatehouse" when the guards themselves cannot run. */
  blockedBy?: string;
  /** The extension that would have run the call in its sandbox in a Gatehouse run (the agent will not). */
  confinedBy?: string;
  /** The project's extensions as loaded for the decision (status, effective configuration). */
  extensions: ExtensionRecord[];
  /** False when the project could not be loaded (bad settings, a required guard failing): nothing was asked. */
  guardsRunning: boolean;
  /** What Gatehouse and the extensions reserved (the audit log and key, the managed settings): never the agent's. */
  reserved: readonly ReservedPath[];
}

/**
 * A tool standing in for the agent's: it takes any arguments, declares the mapped effects, claims
 * to honour the sandbox (so a guard's confinement is reported rather than refused) and never runs.
 */
function standIn(name: string, effects: readonly ToolEffect[]) {
  return defineTool({
    name,
    description: "A tool call of another agent, checked by Gatehouse before that agent runs it.",
    parameters: z.record(z.string(), z.unknown()),
    effects: () => [...effects],
    honoursSandbox: true,
    execute: () => {
      throw new Error("a call of another agent is never executed by Gatehouse");
    },
  });
}

/**
 * Decides one tool call of another agent (Claude Code, Codex) against the project's effective
 * guards: the settings hierarchy with managed settings as a floor, protected-paths, tool-audit's
 * own checks, required extensions and every other loaded extension's `tool_call` handlers
 * (transform, then enforce) — what `gatehouse run` would decide for a tool with these effects.
 * Contract: never executes anything and emits no run events; a required guard that cannot run,
 * bad settings, or any other failure is a `blocked` evaluation naming the cause, never an allow.
 */
export async function evaluateToolCall(options: EvaluateCallOptions): Promise<CallEvaluation> {
  let host: Awaited<ReturnType<typeof createHost>>;
  try {
    host = await createHost({
      cwd: options.cwd,
      model: createScriptedModel({ turns: [] }),
      discover: true,
      tools: [standIn(options.toolName, options.effects)],
      ...(options.packageBases ? { packageBases: options.packageBases } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof GatehouseError ? ` (${error.code})` : "";
    return {
      outcome: "blocked",
      blockedBy: "gatehouse",
      reason: `Gatehouse cannot decide${code}: ${message}`,
      extensions: [],
      guardsRunning: false,
      reserved: [],
    };
  }
  try {
    const result = await host.check(options.toolName, options.input);
    const extensions = host.extensions();
    const reserved = host.reservedPaths();
    if (result.outcome === "allowed") {
      return {
        outcome: "allowed",
        extensions,
        guardsRunning: true,
        reserved,
        ...(result.confinedBy ? { confinedBy: result.confinedBy } : {}),
      };
    }
    return {
      outcome: "blocked",
      blockedBy: result.blockedBy ?? "gatehouse",
      reason: result.reason ?? `the call was ${result.outcome}`,
      extensions,
      guardsRunning: true,
      reserved,
    };
  } finally {
    await host.close();
  }
}
