import { closest } from "./closest.ts";
import type { CommandSpec } from "./command-spec.ts";
import { UsageError } from "./usage-error.ts";

/** A subcommand picked from a group's spec, with the arguments after its name. */
export interface PickedSubcommand {
  name: string;
  spec: CommandSpec;
  args: string[];
}

/**
 * Picks the subcommand `args[0]` names in `group` (`audit tail ...`).
 * Contract: a missing or unknown name is a UsageError that lists the group's commands and names
 * the closest one.
 */
export function pickSubcommand(group: CommandSpec, args: readonly string[]): PickedSubcommand {
  const names = Object.keys(group.subcommands ?? {});
  const [name, ...rest] = args;
  const list = names.join(", ");
  if (name === undefined || name.startsWith("-")) {
    throw new UsageError(`gatehouse ${group.name} needs a command: ${list} (gatehouse ${group.name} --help)`);
  }
  const spec = group.subcommands?.[name];
  if (spec === undefined || !Object.hasOwn(group.subcommands ?? {}, name)) {
    const guess = closest(name, names);
    throw new UsageError(
      `unknown command "${group.name} ${name}"${guess ? `; did you mean "${group.name} ${guess}"?` : ""} (commands: ${list})`,
    );
  }
  return { name, spec, args: rest };
}
