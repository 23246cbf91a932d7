import { describeEnabledAt } from "@gatehouse/host";
import { ExitCode } from "./exit-codes.ts";
import { describeConfig, describeRequiredFailures, requiredFailures } from "./extension-report.ts";
import type { CliIo } from "./io.ts";
import { parseFlags } from "./parse-flags.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";

const USAGE = "gatehouse extensions [--cwd DIR] [--json] [--trust]";

/**
 * `gatehouse extensions`: every extension with its source, status, whether it is a required guard,
 * where it was enabled, the level that set each of its configuration keys, its tools, handlers and
 * errors.
 * Contract: exit 0, or 2 when a required guard is not running (the run would stop), shown on stderr.
 */
export async function extensionsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    args,
    { cwd: { type: "string" }, json: { type: "boolean", default: false }, trust: { type: "boolean", default: false } },
    USAGE,
  );
  const host = await inspectionHost(io, projectDir(io, values.cwd), values.trust);
  try {
    const records = host.extensions();
    const failures = requiredFailures(records);
    if (values.json) io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    else if (records.length === 0) {
      io.stdout.write(
        "No extensions. Add files to .gatehouse/extensions/ or list packages in .gatehouse/settings.json.\n",
      );
    } else {
      for (const r of records) {
        io.stdout.write(`${r.name}  ${r.status}${r.required ? "  required" : ""}  ${r.source}\n`);
        if (r.enabledAt) io.stdout.write(`  enabled at ${describeEnabledAt(r.enabledAt)}\n`);
        if (r.config && r.config.keys.length > 0)
          io.stdout.write(`${describeConfig(r.name, r.config, "  ").join("\n")}\n`);
        if (r.tools.length > 0) io.stdout.write(`  tools: ${r.tools.join(", ")}\n`);
        if (r.handlers.length > 0) io.stdout.write(`  handlers: ${r.handlers.join(", ")}\n`);
        for (const e of r.errors) io.stdout.write(`  ! ${e.split("\n").join("\n    ")}\n`);
      }
    }
    if (failures.length === 0) return ExitCode.ok;
    io.stderr.write(describeRequiredFailures(failures));
    return ExitCode.usage;
  } finally {
    await host.close();
  }
}
