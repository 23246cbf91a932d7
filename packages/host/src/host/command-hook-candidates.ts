import { randomUUID } from "node:crypto";
import {
  commandHooksExtension,
  HOOK_COMMAND_ID,
  type RunHookCommand,
} from "../command-hooks/command-hooks-extension.ts";
import { groupsAt, hasHooks, PROJECT_HOOKS_KEY } from "../command-hooks/hook-code.ts";
import type { CommandRun } from "../command-hooks/hook-output.ts";
import { trustCommand } from "../config/trust-store.ts";
import type { ExtensionCandidate } from "../extensions/extension-manager.ts";
import type { HandlerRegistry } from "../hooks/handler-registry.ts";
import { preflight } from "../loop/tool-preflight.ts";
import { runShell } from "../tools/run-shell.ts";
import type { ToolRegistry } from "../tools/tool-registry.ts";
import type { ProjectExtensions } from "./project-extensions.ts";

/** What the command hooks need from the host they run in. */
export interface CommandHookHost {
  project: ProjectExtensions;
  tools: ToolRegistry;
  handlers: HandlerRegistry;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--trust` for one run: the project's hooks run without a trust record. */
  trust: boolean;
  sessionId: string;
  transcriptPath: string;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs a hook's command line exactly as a `bash` call with that command would run: the guards
 * check it first (the static pre-check; a refusal means the hook cannot run), and a guard's
 * sandbox confines it (protected-paths' bubblewrap layout: the workspace writable, protections
 * read-only, Gatehouse's state hidden, no network); without a confining guard it runs as `bash`
 * would. The payload goes to stdin; stdout (the answer) and stderr are kept apart.
 */
function hookRunner(host: CommandHookHost): RunHookCommand {
  return async ({ command, stdin, timeoutMs, signal }) => {
    const dir = quote(host.cwd);
    const line = `export CLAUDE_PROJECT_DIR=${dir} GATEHOUSE_PROJECT_DIR=${dir}\n${command}`;
    const call = {
      type: "toolCall" as const,
      id: `${HOOK_COMMAND_ID}${randomUUID()}`,
      name: "bash",
      arguments: { command: line },
    };
    const pre = await preflight(call, { tools: host.tools.snapshot(), hooks: host.handlers.bus() }, signal);
    const empty = { exitCode: null, stdout: "", stderr: "", timedOut: false };
    if (pre.kind !== "prepared") {
      const why =
        pre.call.reason ?? (pre.call.result.content[0] as { text?: string } | undefined)?.text ?? pre.call.outcome;
      return { ...empty, failure: `its command is refused as a bash call would be: ${why}` };
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const io = {
      command: line,
      cwd: host.cwd,
      timeoutMs,
      signal,
      stdin,
      onData: (chunk: Uint8Array) => out.push(Buffer.from(chunk)),
      onStderr: (chunk: Uint8Array) => err.push(Buffer.from(chunk)),
    };
    const sandbox = pre.call.sandbox;
    const exit = sandbox ? await sandbox.run(io) : await runShell({ ...io, env: host.env });
    const run: CommandRun = {
      exitCode: exit.exitCode,
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      timedOut: exit.timedOut,
    };
    if (exit.spawnError) run.failure = `it could not start: ${exit.spawnError.message}`;
    const violations = "violations" in exit ? exit.violations : [];
    if (violations.length > 0)
      run.failure = `it changed what the policy protects: ${violations.map((v) => v.reason).join("; ")}`;
    if (exit.aborted) run.failure = "the run was aborted";
    return run;
  };
}

/**
 * Runs a project hook only while its settings and the scripts it names are still what `gatehouse
 * trust` recorded, checked right before each run: trust is granted when the hooks load, but a hook
 * runs the script as it is at that moment, and a script the agent rewrote mid-run (`exit 0` in place
 * of a guard's refusal) would otherwise answer for the trusted one. A changed file fails the hook
 * (so the call is refused, or its result replaced), naming the file and the command that trusts it
 * again. With `--trust` the project's code runs as it is, as for extensions.
 */
function trustedRunner(host: CommandHookHost, run: RunHookCommand): RunHookCommand {
  if (host.trust) return run;
  return async (options) => {
    let why: string | undefined;
    try {
      const status = host.project.trust().get(PROJECT_HOOKS_KEY);
      if (!status?.trusted) why = status?.reason ?? "the project's hooks are no longer trusted";
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
    if (why === undefined) return run(options);
    const failure = `its code is not what was trusted (${why}): review it and run ${trustCommand(host.cwd)}`;
    return { exitCode: null, stdout: "", stderr: "", timedOut: false, failure };
  };
}

/**
 * The extension candidates for the settings' command hooks: `hooks` (managed and user settings:
 * required when managed settings define any) and `project-hooks` (the project's files: project
 * code, loaded only when `gatehouse trust` recorded them as they are, or with `--trust`).
 * Contract: no candidate when no level defines a hook; the candidates are rebuilt on every
 * reload, so a settings change takes effect at the next turn boundary.
 */
export function commandHookCandidates(host: CommandHookHost): ExtensionCandidate[] {
  const hooks = host.project.settings.hooks;
  const run = hookRunner(host);
  const common = { cwd: host.cwd, sessionId: host.sessionId, transcriptPath: host.transcriptPath, run };
  const candidates: ExtensionCandidate[] = [];
  const own = groupsAt(hooks, false);
  if (hasHooks(own)) {
    const managed = Object.values(own).some((groups) => groups.some((g) => g.level === "managed"));
    candidates.push({
      id: "settings:hooks",
      source: "command hooks in managed and user settings",
      fallbackName: "hooks",
      fingerprint: JSON.stringify(own),
      ...(managed ? { required: "managed settings define command hooks", managed: true } : {}),
      load: async () => ({
        ok: true as const,
        exported: commandHooksExtension({ name: "hooks", groups: own, ...common }),
      }),
    });
  }
  const project = groupsAt(hooks, true);
  if (hasHooks(project)) {
    const status = host.trust ? undefined : host.project.trust().get(PROJECT_HOOKS_KEY);
    const base = {
      id: "settings:project-hooks",
      source: "command hooks in the project's settings",
      fallbackName: "project-hooks",
      fingerprint: `${JSON.stringify(project)}:${status?.trusted ?? host.trust}`,
    };
    if (!host.trust && !status?.trusted) {
      const why = status?.reason ?? "the project has not been trusted";
      const reason = `project code is not trusted (${why}): review the hooks and run ${trustCommand(host.cwd)}, or pass --trust for one run`;
      // Hooks that were trusted and whose scripts changed since stop the run: an edit of a script the
      // agent may write (scripts/guard.sh) must not switch the validators off at the next start.
      const edited = status?.grantedAt !== undefined;
      const required = `they were trusted at ${status?.grantedAt} and their code changed since`;
      candidates.push({
        ...base,
        ...(edited ? { required } : {}),
        skip: { status: edited ? "failed" : "skipped", reason },
      });
    } else {
      const checked = trustedRunner(host, run);
      candidates.push({
        ...base,
        load: async () => ({
          ok: true as const,
          exported: commandHooksExtension({ name: "project-hooks", groups: project, ...common, run: checked }),
        }),
      });
    }
  }
  return candidates;
}
