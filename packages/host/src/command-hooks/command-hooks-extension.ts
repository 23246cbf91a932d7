import { defineExtension, type ExtensionDefinition, type TextContent } from "@gatehouse/sdk";
import type { LocatedHookGroup } from "../config/merge-settings.ts";
import type { CommandHookEvent } from "../config/settings-schema.ts";
import { claudeToolName, errorText, fromClaudeInput, toClaudeInput, toClaudeResponse } from "./claude-view.ts";
import { type CommandRun, type HookVerdict, readHookOutput } from "./hook-output.ts";
import { matchesTool } from "./matcher.ts";

/** Runs one hook command line (confined like a `bash` call) with `stdin`; never rejects. */
export type RunHookCommand = (options: {
  command: string;
  stdin: string;
  timeoutMs: number;
  signal: AbortSignal;
}) => Promise<CommandRun>;

/** Options of `commandHooksExtension`. */
export interface CommandHooksOptions {
  /** The extension's name in reports: "hooks" (managed and user settings) or "project-hooks". */
  name: string;
  groups: Readonly<Record<CommandHookEvent, readonly LocatedHookGroup[]>>;
  cwd: string;
  /** The id hooks see as `session_id`. */
  sessionId: string;
  transcriptPath: string;
  run: RunHookCommand;
}

/** Calls whose id starts with this are a hook's own command being checked: no hook runs on them. */
export const HOOK_COMMAND_ID = "hook-command:";

/** Claude Code's default time limit for a command hook, in seconds. */
const DEFAULT_TIMEOUT_S = 60;

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Names a hook in messages: its command, the file and the entry that configured it. */
function describe(group: LocatedHookGroup, event: CommandHookEvent, command: string): string {
  return `hook "${command}" (${group.file}, hooks.${event}[${group.index}])`;
}

interface Matched {
  group: LocatedHookGroup;
  hook: LocatedHookGroup["hooks"][number];
  line: string;
}

function matching(groups: readonly LocatedHookGroup[], toolName: string): Matched[] {
  return groups
    .filter((g) => matchesTool(g.matcher, claudeToolName(toolName)) || matchesTool(g.matcher, toolName))
    .flatMap((group) =>
      group.hooks.map((hook) => ({ group, hook, line: [hook.command, ...(hook.args ?? []).map(quote)].join(" ") })),
    );
}

/**
 * Claude-style command hooks as Gatehouse handlers. `PreToolUse` runs in the transform stage:
 * `updatedInput` becomes the call's input (re-validated by the host); a deny (JSON `deny`, exit 2,
 * `continue: false`, or `ask`, which nobody can answer here) is enforced in the enforce stage, so
 * it blocks like a guard. `PostToolUse` and `PostToolUseFailure` run as `tool_result` handlers:
 * `additionalContext` and a block's reason are appended to the result, `updatedToolOutput`
 * replaces it. Unlike Claude Code they fail closed: a hook that cannot start, times out, exits
 * with another code or answers unreadable JSON blocks the call (before) or replaces the result
 * with an error (after), naming the hook, its file and entry.
 * Contract: hooks of one event run one after another in settings order; a hook's own command is
 * checked and confined like a `bash` call by the caller's `run`.
 */
export function commandHooksExtension(options: CommandHooksOptions): ExtensionDefinition {
  const payload = (
    event: CommandHookEvent,
    toolCallId: string,
    toolName: string,
    input: Readonly<Record<string, unknown>>,
  ) => ({
    session_id: options.sessionId,
    transcript_path: options.transcriptPath,
    cwd: options.cwd,
    permission_mode: "default",
    hook_event_name: event,
    tool_name: claudeToolName(toolName),
    tool_input: toClaudeInput(toolName, input, options.cwd),
    tool_use_id: toolCallId,
  });
  const ask = async (m: Matched, event: CommandHookEvent, body: object, signal: AbortSignal): Promise<HookVerdict> => {
    const timeoutMs = (m.hook.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
    const run = await options.run({ command: m.line, stdin: JSON.stringify(body), timeoutMs, signal });
    return readHookOutput(event, run);
  };
  return defineExtension({
    name: options.name,
    setup(api) {
      const denied = new Map<string, string>();
      api.on("tool_call", async (event, ctx) => {
        if (event.toolCallId.startsWith(HOOK_COMMAND_ID)) return undefined;
        let input: Record<string, unknown> | undefined;
        for (const m of matching(options.groups.PreToolUse, event.toolName)) {
          const body = payload("PreToolUse", event.toolCallId, event.toolName, input ?? event.input);
          const verdict = await ask(m, "PreToolUse", body, ctx.signal);
          const name = describe(m.group, "PreToolUse", m.line);
          if (verdict.kind === "failed") {
            denied.set(event.toolCallId, `${name} failed (${verdict.reason}), so the call is refused`);
            return undefined;
          }
          if (verdict.kind === "block") {
            denied.set(event.toolCallId, `${name} denied the call: ${verdict.reason}`);
            return undefined;
          }
          if (verdict.kind === "update") input = fromClaudeInput(event.toolName, verdict.input);
        }
        return input ? { input } : undefined;
      });
      api.on(
        "tool_call",
        (event) => {
          const reason = denied.get(event.toolCallId);
          if (reason === undefined) return undefined;
          denied.delete(event.toolCallId);
          return { block: true, reason };
        },
        { stage: "enforce" },
      );
      api.on("tool_result", async (event, ctx) => {
        const kind: CommandHookEvent = event.isError ? "PostToolUseFailure" : "PostToolUse";
        let content = [...event.content];
        let isError = event.isError;
        let changed = false;
        for (const m of matching(options.groups[kind], event.toolName)) {
          const body = {
            ...payload(kind, event.toolCallId, event.toolName, event.input),
            ...(kind === "PostToolUse"
              ? { tool_response: toClaudeResponse(event.toolName, event.input, { content, isError }, options.cwd) }
              : { error: errorText(content) }),
          };
          const verdict = await ask(m, kind, body, ctx.signal);
          const name = describe(m.group, kind, m.line);
          if (verdict.kind === "none" || verdict.kind === "update") continue;
          changed = true;
          if (verdict.kind === "failed") {
            // Fail closed: what the tool returned is not handed on unreviewed.
            return {
              content: [{ type: "text", text: `${name} failed (${verdict.reason}); the result is withheld.` }],
              isError: true,
            };
          }
          if (verdict.kind === "block") {
            content.push({ type: "text", text: `${name}: ${verdict.reason}` });
            continue;
          }
          if (verdict.replaceOutput !== undefined) {
            const text =
              typeof verdict.replaceOutput === "string" ? verdict.replaceOutput : JSON.stringify(verdict.replaceOutput);
            content = [{ type: "text", text }];
            isError = false;
          }
          if (verdict.feedback) content.push({ type: "text", text: `${name}: ${verdict.feedback}` });
          if (verdict.additionalContext)
            content.push({ type: "text", text: verdict.additionalContext } satisfies TextContent);
        }
        return changed ? { content, isError } : undefined;
      });
    },
  });
}
