import { defineExtension, type ExtensionAPI, type ExtensionDefinition } from "@gatehouse/sdk";
import { AuditRecorder } from "./audit-recorder.ts";
import { resolveAuditFile, type ToolAuditConfig, toolAuditConfigSchema, toolAuditMergeRules } from "./config.ts";
import { gatehouseVersion } from "./gatehouse-version.ts";
import { type ArgsRedactor, createRedactor, mergeVerbatim } from "./redact.ts";
import { type AuditSink, type AuditWriteFailure, openAuditSink } from "./sink.ts";

/** Options of `createToolAudit` for library use (what settings JSON cannot hold). */
export interface ToolAuditOptions {
  /** Per-tool argument redactors, keyed by tool name; they replace the verbatim lists for that tool. */
  redactors?: Record<string, ArgsRedactor>;
}

/** One audited run: its file handle and its session. */
interface AuditedRun {
  sink: AuditSink;
  recorder: AuditRecorder;
}

function setupToolAudit(api: ExtensionAPI, options: ToolAuditOptions): void {
  const config: ToolAuditConfig = api.config(toolAuditConfigSchema, { merge: toolAuditMergeRules });
  const file = resolveAuditFile(config.file, api.cwd);
  const redact = createRedactor({
    verbatim: mergeVerbatim(config.verbatim),
    redactors: options.redactors,
    onRedactorError: (tool, error) =>
      api.logger.warn({ tool, err: error instanceof Error ? error.message : String(error) }, "audit redactor failed"),
  });
  let run: AuditedRun | undefined;
  let failure: AuditWriteFailure | undefined;

  const onFailure = (f: AuditWriteFailure) => {
    failure = f;
    if (config.onWriteError === "warn") {
      api.logger.warn({ file, op: f.op, err: f.message }, "audit log cannot be written; continuing unaudited");
      return;
    }
    api.abortRun(`audit log ${file} cannot be written: ${f.message}`);
  };

  const begin = (midRun: boolean): AuditedRun => {
    failure = undefined;
    const sink = openAuditSink({
      file,
      fsync: config.fsync,
      onError: onFailure,
      ...(config.ship
        ? { ship: config.ship, onShipError: (message: string) => api.logger.warn({ file }, message) }
        : {}),
    });
    const recorder = new AuditRecorder({
      sink,
      cwd: api.cwd,
      config: { fsync: config.fsync, onWriteError: config.onWriteError },
      redact,
      gatehouse: gatehouseVersion(),
    });
    recorder.start({ midRun });
    return { sink, recorder };
  };
  // A reload mid-run sees tool events without agent_start: open a session then.
  const current = (): AuditedRun => {
    run ??= begin(true);
    return run;
  };
  const finish = async () => {
    const ending = run;
    run = undefined;
    if (!ending) return;
    ending.recorder.end();
    await ending.sink.close();
  };

  api.on("agent_start", async () => {
    await finish();
    run = begin(false);
    // Prove the file is writable before any tool can run: the write fails if it is not. The fsync
    // waits for the end of the run (or the sink's interval), not for every run's first record.
    run.sink.commit();
  });
  api.on("turn_start", () => current().recorder.turnStart());
  api.on("tool_execution_start", (event) => void current().recorder.callStart(event));
  api.on("tool_execution_end", (event) => void current().recorder.callEnd(event));
  // Each turn's records reach the kernel at its end, so a killed process loses at most one turn.
  api.on("turn_end", () => void run?.sink.commit());
  api.on("agent_end", finish);
  api.on(
    "tool_call",
    (event) => {
      if (config.onWriteError !== "stop" || !failure) return undefined;
      return {
        block: true,
        reason: `Blocked ${event.toolName}: the audit log ${file} cannot be written (${failure.message}), and tool-audit does not let tools run unaudited.`,
      };
    },
    { stage: "enforce" },
  );
}

/**
 * The audit extension (SPEC §7): one redacted, hash-chained JSONL record per call start and end.
 * Contract: fails closed by default: when the file cannot be written the run is stopped with
 * `api.abortRun` and every further call is blocked; with `onWriteError: "warn"` it logs and goes on.
 * Never records the raw text of write contents, edit texts, bash commands or results.
 */
export function createToolAudit(options: ToolAuditOptions = {}): ExtensionDefinition {
  return defineExtension({ name: "tool-audit", setup: (api) => setupToolAudit(api, options) });
}
