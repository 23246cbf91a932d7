import { defineExtension, type ExtensionAPI, type ExtensionDefinition } from "@gatehouse/sdk";
import { auditLocation } from "./audit-location.ts";
import { locationProblem, prepareAudit } from "./audit-prepare.ts";
import { type AuditSession, openAuditSession } from "./audit-session.ts";
import { TOOL_AUDIT_USER_ONLY, type ToolAuditConfig, toolAuditConfigSchema, toolAuditMergeRules } from "./config.ts";
import { gatehouseVersion } from "./gatehouse-version.ts";
import { type ArgsRedactor, createRedactor, mergeVerbatim } from "./redact.ts";
import { resolveShipTarget } from "./ship-target.ts";
import type { AuditWriteFailure } from "./sink.ts";

/** Options of `createToolAudit` for library use (what settings JSON cannot hold). */
export interface ToolAuditOptions {
  /** Per-tool argument redactors, keyed by tool name; they replace the verbatim lists for that tool. */
  redactors?: Record<string, ArgsRedactor>;
}

function setupToolAudit(api: ExtensionAPI, options: ToolAuditOptions): void {
  const config: ToolAuditConfig = api.config(toolAuditConfigSchema, {
    merge: toolAuditMergeRules,
    userOnly: TOOL_AUDIT_USER_ONLY,
  });
  const location = auditLocation({ home: api.gatehouseHome, cwd: api.cwd, file: config.file, key: config.key });
  // A log or key the agent could reach is a load error: tool-audit is a required guard, so the host
  // stops before the first model request. Every run checks again (a host given this extension in
  // code with `inspect` keeps running), and refuses every call while it holds.
  const refused = locationProblem(location, config, api.cwd);
  if (refused) throw new Error(refused);
  const { file } = location;
  // Wherever the settings put them, the log and the key are out of the agent's reach: guards deny
  // writes to the log (and its rotation siblings' folder stays the sink's) and any access to the key.
  api.reservePath(file, { why: "it is the tool audit's log, which only the audit may write" });
  api.reservePath(location.keyFile, { why: "it is the key the tool audit signs its records with", hide: true });
  // The transport is code: resolved and checked once here, then pino loads exactly that file.
  const ship = config.ship && { ...config.ship, target: resolveShipTarget(config.ship.target, api.cwd) };
  const redact = createRedactor({
    verbatim: mergeVerbatim(config.verbatim),
    redactors: options.redactors,
    onRedactorError: (tool, error) =>
      api.logger.warn({ tool, err: error instanceof Error ? error.message : String(error) }, "audit redactor failed"),
  });
  let run: AuditSession | undefined;
  let failure: AuditWriteFailure | undefined;

  // A log taken away mid-run is tampering, not a disk error: it stops the run even with "warn".
  const stops = (f: AuditWriteFailure) => config.onWriteError === "stop" || f.op === "replaced";
  const onFailure = (f: AuditWriteFailure) => {
    failure = f;
    if (!stops(f)) {
      api.logger.warn({ file, op: f.op, err: f.message }, "audit log cannot be written; continuing unaudited");
      return;
    }
    api.abortRun(
      f.op === "replaced" || refused
        ? `audit stopped: ${f.message}`
        : `audit log ${file} cannot be written: ${f.message}`,
    );
  };

  const begin = (midRun: boolean): AuditSession | undefined => {
    failure = undefined;
    let prepared: ReturnType<typeof prepareAudit>;
    try {
      if (refused) throw new Error(refused);
      prepared = prepareAudit({ cwd: api.cwd, privateDir: api.privateDir }, location);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      onFailure({
        code: "GH_AUDIT_WRITE",
        file,
        op: "open",
        message: err instanceof Error ? err.message : String(error),
        ...(typeof err?.code === "string" ? { errno: err.code } : {}),
      });
      return undefined;
    }
    return openAuditSession({
      file,
      sealDir: prepared.sealDir,
      key: prepared.key,
      fsync: config.fsync,
      onFileReplaced: config.onFileReplaced,
      onError: onFailure,
      ...(ship ? { ship, onShipError: (message: string) => api.logger.warn({ file }, message) } : {}),
      cwd: api.cwd,
      config: { fsync: config.fsync, onWriteError: config.onWriteError },
      redact,
      gatehouse: gatehouseVersion(),
      midRun,
    });
  };
  // A reload mid-run sees tool events without agent_start: open a session then.
  const current = (): AuditSession | undefined => {
    run ??= failure ? undefined : begin(true);
    return run;
  };
  /** The last session's close: its fsyncs may still be under way after its run returned. */
  let closing: Promise<boolean> | undefined;
  const end = (): Promise<boolean> | undefined => {
    const ending = run;
    run = undefined;
    if (!ending) return closing;
    // `close` hands session_end and the closing seal to the kernel before it first awaits.
    const closed = ending.close().then((healthy) => {
      if (!healthy && failure) {
        api.logger.error({ file, op: failure.op, err: failure.message }, "audit log could not be closed");
      }
      return healthy;
    });
    closing = closed;
    return closed;
  };
  const finish = async () => {
    await end();
  };

  api.on("agent_start", async () => {
    await finish();
    // Opening writes and commits session_start: an unwritable log, seal or key is found before
    // any tool can run. The fsync waits for the end of the run (or the sink's interval).
    run = begin(false);
  });
  api.on("turn_start", () => current()?.recorder.turnStart());
  api.on("tool_execution_start", (event) => void current()?.recorder.callStart(event));
  api.on("tool_execution_end", (event) => void current()?.recorder.callEnd(event));
  // Each turn's records reach the kernel at its end, and the seal follows: a killed process
  // loses at most one turn, and verify knows how many records each session had.
  api.on("turn_end", () => void run?.commit());
  // With "batch", the run's result does not wait for the closing fsyncs: everything is in the
  // kernel (and sealed) when agent_end returns; the disk catches up meanwhile, and the next run's
  // start and the host's close wait for it. With "every", nothing is left to the disk after a run.
  api.on("agent_end", async () => {
    const closed = end();
    if (config.fsync === "every") await closed;
  });
  // Unloaded mid-run (a reload, a disable, host.close()): this version's session ends here, sealed
  // and closed, before the next version opens its own; nothing keeps the log open behind it.
  api.onDispose(finish);
  api.on(
    "tool_call",
    (event) => {
      if (refused) return { block: true, reason: `Blocked ${event.toolName}: ${refused}.` };
      if (!failure || !stops(failure)) return undefined;
      return {
        block: true,
        reason: `Blocked ${event.toolName}: the audit log ${file} cannot be written (${failure.message}), and tool-audit does not let tools run unaudited.`,
      };
    },
    { stage: "enforce" },
  );
}

/**
 * The audit extension (SPEC §7): one redacted JSONL record per call start and end, in a keyed
 * chain, sealed after every committed turn, in the per-user Gatehouse directory by default.
 * Contract: fails closed by default: when the log, its seal or its key cannot be written or read,
 * or the log is unlinked or replaced mid-run, the run is stopped with `api.abortRun` and every
 * further call is blocked; with `onWriteError: "warn"` it logs and goes on. Never records the raw
 * text of write contents, edit texts, bash commands or results, and scrubs well-known secret
 * shapes from everything it does record.
 */
export function createToolAudit(options: ToolAuditOptions = {}): ExtensionDefinition {
  return defineExtension({ name: "tool-audit", setup: (api) => setupToolAudit(api, options) });
}
