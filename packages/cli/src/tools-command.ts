import { ExitCode } from "./exit-codes.ts";
import { extensionNotices } from "./extension-notices.ts";
import { loadVerdict } from "./extension-report.ts";
import { parseCommand } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { inspectionHost, projectDir } from "./run-command-support.ts";
import { toolsSpec } from "./specs/index.ts";

/**
 * `gatehouse tools`: every active tool, its source, and the built-in it overrides.
 * Contract: exit codes as `gatehouse extensions`: 1 when an extension failed to load (its tools
 * are missing from the list), 2 when a required guard is not running.
 */
export async function toolsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(toolsSpec, args);
  const host = await inspectionHost(io, projectDir(io, values.cwd), values.trust);
  io.stderr.write(extensionNotices(host.extensions()));
  try {
    const tools = host.tools();
    const verdict = loadVerdict(host.extensions());
    // Failed extensions are already named above; a guard that is not running needs its explanation.
    const code = () => {
      if (verdict.code === ExitCode.usage) io.stderr.write(verdict.message);
      return verdict.code;
    };
    if (values.json) {
      io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
      return code();
    }
    const width = Math.max(...tools.map((t) => t.name.length));
    // One write for the whole list: each write to a pipe or file is a system call.
    const lines = tools.map((t) => {
      const from = t.source.file ? `${t.source.owner} (${t.source.file})` : t.source.owner;
      const note =
        (t.overrides ? `  overrides built-in ${t.overrides}` : "") +
        (t.shadowed ? `  (also registered by ${t.shadowed.map((s) => s.owner).join(", ")})` : "") +
        (t.declaresEffects ? "" : "  [no effects declared: a path policy cannot check it]");
      return `${t.name.padEnd(width)}  ${from}${note}\n`;
    });
    io.stdout.write(lines.join(""));
    return code();
  } finally {
    await host.close();
  }
}
