import { describeEnabledAt } from "@gatehouse/host";
import { describeConfig, loadVerdict } from "./extension-report.ts";
import { parseCommand } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";
import { extensionsSpec } from "./specs/index.ts";

/**
 * `gatehouse extensions`: every extension with its source, status, whether it is a required guard,
 * where it was enabled, the level that set each of its configuration keys, its tools, handlers and
 * errors.
 * Contract: exit 0 when every extension that should run runs; 1 when one failed to load (shown on
 * stderr with its error); 2 when a required guard is not running (the run would stop). Extensions
 * skipped because the project is not trusted do not fail it (they are listed, and run with --trust).
 */
export async function extensionsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(extensionsSpec, args);
  const host = await inspectionHost(io, projectDir(io, values.cwd), values.trust);
  try {
    const records = host.extensions();
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
    const verdict = loadVerdict(records);
    io.stderr.write(verdict.message);
    return verdict.code;
  } finally {
    await host.close();
  }
}
