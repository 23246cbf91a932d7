import {
  type AnyToolDefinition,
  builtinToolParameters,
  defineTool,
  type SandboxRunResult,
  type ToolResult,
} from "@gatehouse/sdk";
import { CommandOutput, type CommandOutputSummary } from "./command-output.ts";
import { runShell, type ShellExit } from "./run-shell.ts";
import type { ShellGroups } from "./shell-groups.ts";
import { throttle } from "./throttle.ts";
import { failureResult, textResult } from "./tool-result.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes } from "./truncate.ts";

/** Seconds a command may run when the call names no timeout. */
export const BASH_DEFAULT_TIMEOUT_SECONDS = 120;
/** Progress updates are throttled to one per this many ms so fast output does not flood events. */
export const BASH_UPDATE_INTERVAL_MS = 100;

/** What a bash result tells the host. */
export interface BashDetails {
  exitCode: number | null;
  timedOut?: boolean;
  aborted?: boolean;
  truncated?: boolean;
  /** A temp file holding the whole output when the result shows only its tail. */
  fullOutputPath?: string;
  /** What the sandbox undid after the command (the call is then blocked). */
  violations?: { path: string; rule: string }[];
}

/** The output as the model sees it: the tail, with a marker on top saying what was cut and where the rest is. */
function body(summary: CommandOutputSummary): string {
  const { tail, totalLines, totalBytes, fullOutputPath } = summary;
  if (totalBytes === 0) return "(no output)";
  if (!tail.truncated) return tail.text;
  const shown = tail.partialLine
    ? `the last ${formatBytes(DEFAULT_MAX_BYTES)} of ${formatBytes(totalBytes)}`
    : `the last ${tail.keptLines} lines of ${totalLines} (${formatBytes(totalBytes)})`;
  const rest = fullOutputPath === undefined ? "the full output could not be saved" : `full output: ${fullOutputPath}`;
  return `[truncated: showing ${shown}; ${rest}]\n${tail.text}`;
}

function toResult(options: {
  exit: SandboxRunResult | ShellExit;
  summary: CommandOutputSummary;
  timeoutSeconds: number;
  cwd: string;
  confinedBy: string | undefined;
}): ToolResult<BashDetails> {
  const { exit, summary, timeoutSeconds, cwd, confinedBy } = options;
  const details: BashDetails = { exitCode: exit.exitCode };
  if (exit.timedOut) details.timedOut = true;
  if (exit.aborted) details.aborted = true;
  if (summary.tail.truncated) details.truncated = true;
  if (summary.fullOutputPath !== undefined) details.fullOutputPath = summary.fullOutputPath;
  const output = body(summary);
  // A status line follows the output after exactly one blank line, whatever the output ended with.
  let end = output.length;
  while (end > 0 && output[end - 1] === "\n") end--;
  const withStatus = (status: string): string => `${output.slice(0, end)}\n\n${status}`;
  if (exit.spawnError !== undefined) {
    const where = confinedBy === undefined ? "" : ` (confined by ${confinedBy})`;
    return failureResult(`Could not start bash in ${cwd}${where}: ${exit.spawnError.message}`, details);
  }
  const undone = "violations" in exit ? exit.violations : [];
  if (undone.length > 0) {
    details.violations = undone.map(({ path, rule }) => ({ path, rule }));
    const said = undone.map((v) => v.reason).join("\n");
    return failureResult(withStatus(`Blocked by ${confinedBy ?? "the sandbox"}:\n${said}`), details);
  }
  if (exit.timedOut) return failureResult(withStatus(`Command timed out after ${timeoutSeconds}s`), details);
  if (exit.aborted) return failureResult(withStatus("Command aborted"), details);
  if (exit.exitCode === null) {
    return failureResult(withStatus(`Command was killed by signal ${exit.exitSignal ?? "unknown"}`), details);
  }
  if (exit.exitCode !== 0) return failureResult(withStatus(`Command exited with code ${exit.exitCode}`), details);
  return textResult(output, details);
}

/** The `bash` built-in: runs a command line, streaming the tail of its output as progress. */
export function createBashTool(options: { groups?: ShellGroups } = {}): AnyToolDefinition {
  return defineTool({
    name: "bash",
    description: `Run a bash command in the working directory and return its combined stdout and stderr. A non-zero exit code makes the result an error that includes the code and the output. The command is killed, with every process it started, after timeout seconds (default ${BASH_DEFAULT_TIMEOUT_SECONDS}). Output over ${DEFAULT_MAX_LINES} lines or ${formatBytes(DEFAULT_MAX_BYTES)} is cut to its last part, and the whole output is saved to a temp file named in the result. Background jobs (cmd &) keep running after the command returns (redirect their output to a file) until the run ends, except in a sandbox, where every process the command started ends with it. Prefer read, grep, find and ls for looking at files.`,
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.bash;
    },
    effects: (args) => [{ kind: "exec", command: args.command }],
    honoursSandbox: true,
    execute: async (args, ctx) => {
      const timeoutSeconds = args.timeout ?? BASH_DEFAULT_TIMEOUT_SECONDS;
      if (ctx.signal.aborted) {
        return failureResult("Command aborted before it started", { exitCode: null, aborted: true });
      }
      const output = new CommandOutput();
      const progress = throttle(() => {
        ctx.onUpdate({ content: [{ type: "text", text: output.tail().text }] });
      }, BASH_UPDATE_INTERVAL_MS);
      const run = {
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs: timeoutSeconds * 1000,
        signal: ctx.signal,
        ...(options.groups ? { groups: options.groups } : {}),
        onData: (chunk: Uint8Array) => {
          output.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          progress.trigger();
        },
      };
      // Confined by a guard: the command runs in its sandbox or not at all.
      const exit = ctx.sandbox ? await ctx.sandbox.run(run) : await runShell(run);
      progress.cancel();
      const confinedBy = ctx.sandbox?.confinedBy;
      return toResult({ exit, summary: await output.finish(), timeoutSeconds, cwd: ctx.cwd, confinedBy });
    },
  });
}
