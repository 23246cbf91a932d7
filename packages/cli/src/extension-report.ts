import {
  type ConfigExplanation,
  type ConfigKeySource,
  describeEnabledAt,
  type ExtensionRecord,
  levelLabel,
} from "@gatehouse/host";
import { ExitCode } from "./exit-codes.ts";

const MAX_VALUE = 80;

function showValue(value: unknown): string {
  if (value === undefined) return "(unset)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 3)}...` : text;
}

function showSource(from: ConfigKeySource): string {
  const place = from.line === undefined ? from.file : `${from.file}:${from.line}:${from.column}`;
  return from.level === "code" ? place : `${levelLabel(from.level)} ${place}`;
}

/**
 * One line per configuration key: `key = value  ← where it was set` (`default` when no level set
 * it), with a heading that says whether managed settings were the floor.
 */
export function describeConfig(name: string, config: ConfigExplanation, indent = ""): string[] {
  const floor = config.floor ? " (managed settings are the floor: lower levels may only tighten)" : "";
  const lines = [`${indent}config of ${name}${floor}:`];
  for (const key of config.keys) {
    const from = key.from.length === 0 ? "default" : key.from.map(showSource).join(", ");
    lines.push(`${indent}  ${key.key} = ${showValue(key.value)}  ← ${from}`);
  }
  return lines;
}

/** The required extensions that are not running, as `gatehouse extensions` and `policy check` report them. */
export function requiredFailures(records: readonly ExtensionRecord[]): ExtensionRecord[] {
  return records.filter((r) => r.required === true && r.status !== "loaded");
}

/**
 * The lines that explain why a command refuses to go on: each required guard that is not running,
 * where it was enabled, and why (a configuration error names its own file, line and level).
 */
export function describeRequiredFailures(failures: readonly ExtensionRecord[]): string {
  const lines = failures.flatMap((r) => [
    `gatehouse: required guard "${r.name}" (${r.source}) is not running, so "gatehouse run" stops before the first model request (exit 2); enabled at ${describeEnabledAt(r.enabledAt)}`,
    ...(r.errors[0] ?? "it did not load").split("\n").map((line) => `  ${line}`),
  ]);
  return `${lines.join("\n")}\n`;
}

/**
 * The exit code of a command that loaded the project's extensions (`extensions`, `tools`) and the
 * line(s) for stderr that say why.
 * Contract: 2 when a required guard is not running, else 1 when any extension failed to load,
 * else 0 with no message; extensions skipped for want of trust are not failures (they run with
 * --trust, and the listing says so).
 */
export function loadVerdict(records: readonly ExtensionRecord[]): { code: number; message: string } {
  const required = requiredFailures(records);
  if (required.length > 0) return { code: ExitCode.usage, message: describeRequiredFailures(required) };
  const failed = records.filter((r) => r.status === "failed");
  if (failed.length === 0) return { code: ExitCode.ok, message: "" };
  const names = failed.map((r) => r.name).join(", ");
  const what = failed.length === 1 ? "1 extension" : `${failed.length} extensions`;
  return { code: ExitCode.runFailed, message: `gatehouse: ${what} failed to load: ${names}\n` };
}
