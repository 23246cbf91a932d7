import type { CliIo } from "./io.ts";
import { parseFlags } from "./parse-flags.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";

const USAGE = "gatehouse extensions [--cwd DIR] [--json] [--trust]";

/** `gatehouse extensions`: every extension with its source, status, tools, handlers and errors. */
export async function extensionsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    args,
    { cwd: { type: "string" }, json: { type: "boolean", default: false }, trust: { type: "boolean", default: false } },
    USAGE,
  );
  const host = await inspectionHost(io, projectDir(io, values.cwd), values.trust);
  try {
    const records = host.extensions();
    if (values.json) {
      io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      return 0;
    }
    if (records.length === 0) {
      io.stdout.write(
        "No extensions. Add files to .gatehouse/extensions/ or list packages in .gatehouse/settings.json.\n",
      );
      return 0;
    }
    for (const r of records) {
      io.stdout.write(`${r.name}  ${r.status}  ${r.source}\n`);
      if (r.tools.length > 0) io.stdout.write(`  tools: ${r.tools.join(", ")}\n`);
      if (r.handlers.length > 0) io.stdout.write(`  handlers: ${r.handlers.join(", ")}\n`);
      for (const e of r.errors) io.stdout.write(`  ! ${e}\n`);
    }
    return 0;
  } finally {
    await host.close();
  }
}
