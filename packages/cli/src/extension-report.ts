import {
  type ConfigExplanation,
  type ConfigKeySource,
  describeEnabledAt,
  type ExtensionRecord,
  levelLabel,
} from "@gatehouse/host";

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
