import { GatehouseError } from "../common/errors.ts";
import { levelLabel } from "../extensions/config-explanation.ts";
import type { GuardFailure } from "../extensions/extension-manager.ts";
import type { EnabledAt } from "../extensions/types.ts";

/** Where an extension was enabled, as a person reads it: `file:line:column (project settings)`. */
export function describeEnabledAt(at: EnabledAt | undefined): string {
  if (at === undefined || at.kind === "code") return "createHost({ extensions })";
  if (at.kind === "folder") return `${at.dir} (${at.level} extensions folder)`;
  return `${at.file}:${at.line}:${at.column} (${levelLabel(at.level)})`;
}

/**
 * The error that stops a host whose required guards are not running.
 * Contract: names every failed guard, where it was enabled (file, line, column and level), why it
 * is required, and why it did not load (a configuration error names its own file and level).
 */
export function guardFailureError(failures: readonly GuardFailure[]): GatehouseError {
  const lines = failures.flatMap((f) => [
    `required guard "${f.name}" (${f.source}) is not running: ${f.required}, enabled at ${describeEnabledAt(f.enabledAt)}`,
    ...f.reason.split("\n").map((line) => `  ${line}`),
  ]);
  const subject = failures.length === 1 ? "A required guard failed" : `${failures.length} required guards failed`;
  return new GatehouseError(
    "GH_GUARD_FAILED",
    [`${subject}, so nothing runs (a guard that is off must never look like one that is on):`, ...lines].join("\n  "),
  );
}
