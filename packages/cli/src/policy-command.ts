import { homedir } from "node:os";
import { type CheckResult, type ConfigExplanation, gatehouseHome } from "@gatehouse/host";
import { createPolicy } from "@gatehouse/protected-paths";
import type { ReservedPath, ToolEffect } from "@gatehouse/sdk";
import { ExitCode } from "./exit-codes.ts";
import { describeConfig, describeRequiredFailures, requiredFailures } from "./extension-report.ts";
import type { CommandSpec } from "./help/command-spec.ts";
import { parseCommand, usageError } from "./help/parse-command.ts";
import { pickSubcommand } from "./help/subcommand.ts";
import type { CliIo } from "./io.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";
import { policyCheckSpec, policySpec } from "./specs/index.ts";

/** Every resolved spelling of each effect's path, and the rule that decided it, per protected-paths. */
interface EffectExplanation {
  effect: ToolEffect;
  allowed: boolean;
  rule?: string;
  spellings: { form: string; path: string }[];
}

function parseArgsJson(spec: CommandSpec, text: string | undefined): Record<string, unknown> {
  if (text === undefined) throw usageError(spec, "--args JSON is required");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(spec, `--args is not valid JSON (${(error as Error).message})`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw usageError(spec, '--args must be a JSON object, e.g. --args \'{"path":".env"}\'');
  }
  return value as Record<string, unknown>;
}

function explain(
  cwd: string,
  config: unknown,
  effects: readonly ToolEffect[] | undefined,
  context: { gatehouseHome: string; reserved: readonly ReservedPath[] },
): EffectExplanation[] {
  // The same policy the guard runs: Gatehouse's own state and every reserved path included.
  const policy = createPolicy((config ?? {}) as never, { cwd, home: homedir(), ...context });
  return (effects ?? []).map((effect) => {
    const decision = policy.check(effect);
    const row: EffectExplanation = { effect, allowed: decision.allow, spellings: decision.spellings };
    if (!decision.allow) row.rule = decision.rule;
    return row;
  });
}

function describeEffect(effect: ToolEffect): string {
  if (effect.kind === "exec") return `exec ${JSON.stringify(effect.command)}`;
  if (effect.kind === "net") return `net ${effect.url}`;
  return `${effect.kind} ${effect.path}`;
}

function render(result: CheckResult, explained: EffectExplanation[] | undefined): string {
  const lines: string[] = [];
  if (result.outcome === "allowed") {
    const confined = result.confinedBy ? ` (runs in the sandbox of ${result.confinedBy})` : "";
    lines.push(`decision: allowed${confined}`);
  } else
    lines.push(
      `decision: ${result.outcome}${result.blockedBy ? ` by ${result.blockedBy}` : ""}`,
      `reason: ${result.reason}`,
    );
  const rule = explained?.find((e) => !e.allowed)?.rule;
  if (rule) lines.push(`rule: ${rule}`);
  else if (explained && result.outcome === "allowed") lines.push("rule: no deny rule matched (protected-paths)");
  if (result.effects === undefined && result.outcome !== "unknown") lines.push("effects: none declared by this tool");
  for (const effect of result.effects ?? []) {
    const row = explained?.find((e) => e.effect === effect);
    lines.push(
      `effect: ${describeEffect(effect)}${row ? (row.allowed ? "  (allowed)" : `  (denied: ${row.rule})`) : ""}`,
    );
    const width = Math.max(0, ...(row?.spellings ?? []).map((s) => s.form.length));
    for (const s of row?.spellings ?? []) lines.push(`  ${s.form.padEnd(width)}  ${s.path}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `gatehouse policy check`: what the pipeline would decide for one call, without running it —
 * the decision, the extension and rule that decided, and every resolved spelling of each path;
 * with `--explain`, each configuration key of the loaded extensions, its effective value and the
 * settings level (file, line, column) that set it.
 * Contract: exit 0 when the call would be allowed, 1 when it would be refused, 2 on bad usage or
 * when a required guard is not running (no decision is printed then: a policy that is off must
 * never answer "allowed").
 */
export async function policyCommand(args: string[], io: CliIo): Promise<number> {
  const { args: rest } = pickSubcommand(policySpec, args);
  const spec = policyCheckSpec;
  const { values } = parseCommand(spec, rest);
  if (!values.tool) throw usageError(spec, "--tool NAME is required");
  const callArgs = parseArgsJson(spec, values.args);
  const cwd = projectDir(io, values.cwd);
  const host = await inspectionHost(io, cwd, values.trust);
  try {
    const records = host.extensions();
    const failures = requiredFailures(records);
    if (failures.length > 0) {
      io.stderr.write(describeRequiredFailures(failures));
      return ExitCode.usage;
    }
    const result = await host.check(values.tool, callArgs);
    const guard = records.find((r) => r.name === "protected-paths" && r.status === "loaded");
    const explained = guard
      ? explain(cwd, guard.config?.value, result.effects, {
          gatehouseHome: gatehouseHome(io.env),
          reserved: host.reservedPaths(),
        })
      : undefined;
    const configs = values.explain ? records.filter((r) => r.status === "loaded" && r.config) : [];
    if (values.json) {
      const config = Object.fromEntries(configs.map((r) => [r.name, r.config]));
      io.stdout.write(
        `${JSON.stringify({ ...result, explanation: explained ?? null, ...(values.explain ? { config } : {}) }, null, 2)}\n`,
      );
    } else {
      io.stdout.write(render(result, explained));
      for (const r of configs) io.stdout.write(`${describeConfig(r.name, r.config as ConfigExplanation).join("\n")}\n`);
    }
    return result.outcome === "allowed" ? ExitCode.ok : ExitCode.runFailed;
  } finally {
    await host.close();
  }
}
