import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AgentEvent,
  type AssistantMessage,
  defineExtension,
  defineTool,
  type ExtensionAPI,
  type GatehouseEventOf,
  type GuardedToolCallEvent,
  type ToolCallEvent,
  type ToolContext,
  type ToolEffect,
  type ToolExecutionEndEvent,
  type ToolResult,
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
