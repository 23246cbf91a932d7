/**
 * The README's exit-code table, from the same specs `--help` reads: a test compares the README
 * with it, so the documented codes cannot drift from what each command's help says.
 */
import type { CommandSpec } from "./command-spec.ts";
import { exitCodesOf } from "./render-help.ts";

/** Every runnable command of `specs`: commands without subcommands, and each subcommand. */
function leaves(specs: readonly CommandSpec[]): CommandSpec[] {
  return specs.flatMap((spec) =>
    spec.subcommands ? Object.values(spec.subcommands) : [spec, ...Object.values(spec.variants ?? {})],
  );
}

const cell = (text: string): string => text.replaceAll("|", "\\|");

/**
 * A Markdown table with one row per command: every exit code it returns (the common ones
 * included) with its meaning.
 * Contract: one row per runnable command in the order given; codes ascending within a row.
 */
export function exitCodeTable(specs: readonly CommandSpec[]): string {
  const rows = leaves(specs).map((spec) => {
    const codes = exitCodesOf(spec)
      .map((e) => `**${e.code}** ${cell(e.meaning)}`)
      .join("<br>");
    return `| \`gatehouse ${spec.name}\` | ${codes} |`;
  });
  return ["| command | exit codes |", "| --- | --- |", ...rows].join("\n");
}
