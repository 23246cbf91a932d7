import type { ToolEffect, ToolExecutionEndEvent } from "@gatehouse/sdk";

/** One call as the audit sees it: the requested call, then how it ended. */
export interface AuditedCall {
  start: { toolCallId: string; toolName: string; args: Record<string, unknown> };
  end: ToolExecutionEndEvent;
}

const TEXT_1K = "x".repeat(1024);
const TEXT_2K = "line of source code, roughly as long as a real one\n".repeat(40);

type Shape = { toolName: string; args: Record<string, unknown>; text: string; effects: ToolEffect[] };

/** A coding session's mix: reads, greps, writes and shell commands, with result texts of real sizes. */
function shape(n: number, cwd: string): Shape {
  const file = `src/module-${n % 50}.ts`;
  switch (n % 4) {
    case 0:
      return {
        toolName: "read",
        args: { path: file, offset: 1, limit: 200 },
        text: TEXT_2K,
        effects: [{ kind: "read", path: file }],
      };
    case 1:
      return {
        toolName: "grep",
        args: { pattern: "createHost\\(", path: "src" },
        text: TEXT_1K.slice(0, 600),
        effects: [{ kind: "read", path: "src" }],
      };
    case 2:
      return {
        toolName: "write",
        args: { path: file, content: TEXT_1K },
        text: `Wrote 1024 bytes to ${file}`,
        effects: [{ kind: "write", path: file }],
      };
    default:
      return {
        toolName: "bash",
        args: { command: `cd ${cwd} && pnpm vitest run test/module-${n % 50}.test.ts`, timeout: 120 },
        text: TEXT_1K.slice(0, 400),
        effects: [{ kind: "exec", command: `pnpm vitest run test/module-${n % 50}.test.ts` }],
      };
  }
}

/**
 * `count` realistic calls for the audit to record; every 50th is blocked by the path policy.
 * Built before timing, so the timed part is only what the recorder and sink do.
 */
export function auditedCalls(count: number, cwd: string): AuditedCall[] {
  return Array.from({ length: count }, (_, n): AuditedCall => {
    const { toolName, args, text, effects } = shape(n, cwd);
    const toolCallId = `toolu_${n.toString(36).padStart(8, "0")}`;
    const blocked = n % 50 === 49;
    const end: ToolExecutionEndEvent = blocked
      ? {
          type: "tool_execution_end",
          toolCallId,
          toolName,
          args,
          result: { content: [{ type: "text", text: "Blocked: the path policy refuses this call." }] },
          isError: true,
          outcome: "blocked",
          blockedBy: "protected-paths",
          reason: `Write to "${String(args.path ?? "")}" refused: it matches the protected pattern .env.*`,
          effects,
        }
      : {
          type: "tool_execution_end",
          toolCallId,
          toolName,
          args,
          result: { content: [{ type: "text", text }] },
          isError: false,
          outcome: "executed",
          effects,
        };
    return { start: { toolCallId, toolName, args }, end };
  });
}
