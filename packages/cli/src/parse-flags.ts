import { type ParseArgsConfig, parseArgs } from "node:util";
import { GatehouseError } from "@gatehouse/host";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses one command's flags strictly.
 * Contract: unknown flags, missing values and wrong types become a GH_USAGE error that names the
 * flag and the command's usage line.
 */
export function parseFlags<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message =
      error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, ".") : String(error);
    throw new GatehouseError("GH_USAGE", `${message}\nusage: ${usage}`);
  }
}
