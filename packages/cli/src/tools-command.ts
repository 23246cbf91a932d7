import { extensionNotices } from "./extension-notices.ts";
import type { CliIo } from "./io.ts";
import { parseFlags } from "./parse-flags.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";

const USAGE = "gatehouse tools [--cwd DIR] [--json] [--trust]";

/** `gatehouse tools`: every active tool, its source, and the built-in it overrides. */
export async function toolsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    args,
    { cwd: { type: "string" }, json: { type: "boolean", default: false }, trust: { type: "boolean", default: false } },
    USAGE,
  );
  const host = await inspectionHost(io, projectDir(io, values.cwd), values.trust);
  io.stderr.write(extensionNotices(host.extensions()));
  try {
    const tools = host.tools();
    if (values.json) {
      io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...tools.map((t) => t.name.length));
    for (const t of tools) {
      const from = t.source.file ? `${t.source.owner} (${t.source.file})` : t.source.owner;
      const note =
        (t.overrides ? `  overrides built-in ${t.overrides}` : "") +
        (t.shadowed ? `  (also registered by ${t.shadowed.map((s) => s.owner).join(", ")})` : "") +
        (t.declaresEffects ? "" : "  [no effects declared: a path policy cannot check it]");
      io.stdout.write(`${t.name.padEnd(width)}  ${from}${note}\n`);
    }
    return 0;
  } finally {
    await host.close();
  }
}
