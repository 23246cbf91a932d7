import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AgentEvent,
  type AssistantMessage,
  defineExtension,
  defineTool,
  type ExtensionAPI,
  type GatehouseEventOf,
  type GuardedToolCallEvent,
  type SandboxLayout,
  type SandboxProfile,
  type SandboxRunResult,
  type SandboxViolation,
  type ToolCallEvent,
  type ToolContext,
  type ToolEffect,
  type ToolExecutionEndEvent,
  type ToolResult,
  type ToolSandbox,
  z,
} from "../src/index.ts";

describe("defineTool", () => {
  it("types execute and effects from the zod parameters, defaults applied", () => {
    const tool = defineTool({
      name: "write",
      description: "writes",
      parameters: z.object({ path: z.string(), mode: z.enum(["a", "w"]).default("w"), size: z.number().optional() }),
      effects: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ path: string; mode: "a" | "w"; size?: number | undefined }>();
        return [{ kind: "write", path: args.path }];
      },
      execute: async (args, ctx) => {
        expectTypeOf(args.mode).toEqualTypeOf<"a" | "w">();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return { content: [{ type: "text", text: args.path }], details: { bytes: 1 } };
      },
    });
    expectTypeOf(tool.execute).returns.resolves.toMatchTypeOf<ToolResult<{ bytes: number }>>();
    expect(tool.name).toBe("write");
  });

  it("rejects results and effects of the wrong shape", () => {
    defineTool({
      name: "bad",
      description: "bad",
      parameters: z.object({}),
      // @ts-expect-error an effect needs a known kind
      effects: () => [{ kind: "delete", path: "x" }],
      // @ts-expect-error content blocks must be text or image
      execute: () => ({ content: [{ type: "video" }] }),
    });
    expectTypeOf<ToolEffect>().toEqualTypeOf<
      | { kind: "read"; path: string }
      | { kind: "write"; path: string }
      | { kind: "exec"; command: string }
      | { kind: "net"; url: string }
    >();
  });
});

describe("defineExtension and the API", () => {
  it("types the two tool_call stages differently: enforce input is read-only and carries effects", () => {
    const ext = defineExtension({
      name: "x",
      setup(api) {
        expectTypeOf(api).toEqualTypeOf<ExtensionAPI>();
        api.on("tool_call", (event) => {
          expectTypeOf(event).toEqualTypeOf<ToolCallEvent>();
          event.input.path = "changed";
          return { input: { path: "replaced" } };
        });
        api.on(
          "tool_call",
          (event) => {
            expectTypeOf(event).toEqualTypeOf<GuardedToolCallEvent>();
            expectTypeOf(event.effects).toEqualTypeOf<readonly ToolEffect[] | undefined>();
            // @ts-expect-error the enforce stage sees a read-only input
            event.input.path = "nope";
            return { block: true, reason: "no" };
          },
          { stage: "enforce" },
        );
        api.on("tool_result", (event) => ({ content: event.content, isError: !event.isError }));
        api.on("tool_execution_end", (event) => {
          expectTypeOf(event).toEqualTypeOf<ToolExecutionEndEvent>();
        });
        // @ts-expect-error unknown event names do not type-check
        api.on("tool_cal", () => {});
      },
    });
    expect(ext.name).toBe("x");
  });

  it("maps every event name to its event type", () => {
    expectTypeOf<GatehouseEventOf<"turn_end">>().toEqualTypeOf<Extract<AgentEvent, { type: "turn_end" }>>();
    expectTypeOf<GatehouseEventOf<"message_update">["message"]>().toEqualTypeOf<AssistantMessage>();
    expectTypeOf<ToolExecutionEndEvent["outcome"]>().toEqualTypeOf<
      "executed" | "blocked" | "invalid" | "unknown" | "aborted" | "failed"
    >();
  });

  it("re-exports zod 4", () => {
    expect(z.toJSONSchema(z.object({ a: z.string() }))).toMatchObject({ type: "object", required: ["a"] });
  });
});

describe("the confinement contract", () => {
  it("a tool that honours the sandbox runs its commands through ctx.sandbox; walks ask ctx.canRead", () => {
    const tool = defineTool({
      name: "run",
      description: "runs a command",
      parameters: z.object({ command: z.string() }),
      effects: (args) => [{ kind: "exec", command: args.command }],
      honoursSandbox: true,
      execute: async (args, ctx) => {
        expectTypeOf(ctx.sandbox).toEqualTypeOf<ToolSandbox | undefined>();
        expectTypeOf(ctx.canRead).toEqualTypeOf<((absolutePath: string) => boolean) | undefined>();
        if (!ctx.sandbox) return { content: [{ type: "text", text: "not confined" }] };
        const ran = await ctx.sandbox.run({
          command: args.command,
          cwd: ctx.cwd,
          timeoutMs: 1000,
          signal: ctx.signal,
          onData: () => {},
        });
        expectTypeOf(ran).toEqualTypeOf<SandboxRunResult>();
        expectTypeOf(ran.violations).toEqualTypeOf<readonly SandboxViolation[]>();
        return { content: [{ type: "text", text: String(ran.exitCode) }] };
      },
    });
    expect(tool.honoursSandbox).toBe(true);
  });

  it("an enforce-stage guard confines a call with a profile and restricts reads", () => {
    defineExtension({
      name: "jail",
      setup(api) {
        api.on(
          "tool_call",
          (event) => {
            const layout: SandboxLayout = {
              writable: ["/ws"],
              outside: "read-only",
              readOnly: [],
              masked: [],
              pinned: [],
              network: false,
            };
            const profile: SandboxProfile = { prepare: () => ({ layout, review: () => [] }) };
            event.confine(profile);
            event.restrictReads((p) => !p.endsWith(".env"));
            // @ts-expect-error a layout needs every field
            event.confine({ prepare: () => ({ layout: { writable: [] } }) });
          },
          { stage: "enforce" },
        );
      },
    });
    expectTypeOf<GuardedToolCallEvent["confine"]>().parameter(0).toEqualTypeOf<SandboxProfile>();
  });
});
