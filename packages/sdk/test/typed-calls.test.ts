import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type BuiltinToolInputs,
  builtinToolParameters,
  defineExtension,
  defineTool,
  type GuardedToolCallEvent,
  type HookHandler,
  type HookMap,
  isToolCall,
  type OnHandler,
  type ToolCallEnforceResult,
  type ToolCallEvent,
  type ToolCallTransformResult,
  type ToolResultEvent,
  z,
} from "../src/index.ts";

const wordCount = defineTool({
  name: "word_count",
  description: "Counts the words of a file.",
  parameters: z.object({ path: z.string(), minLength: z.number().default(1) }),
  effects: (args) => [{ kind: "read", path: args.path }],
  execute: async () => ({ content: [{ type: "text", text: "42" }], details: { words: 42 } }),
});

describe("built-in inputs", () => {
  it("are inferred from the built-ins' own zod schemas", () => {
    expectTypeOf<BuiltinToolInputs["write"]>().toEqualTypeOf<{ path: string; content: string }>();
    expectTypeOf<BuiltinToolInputs["read"]>().toEqualTypeOf<{
      path: string;
      offset?: number | undefined;
      limit?: number | undefined;
    }>();
    expectTypeOf<BuiltinToolInputs["bash"]["command"]>().toEqualTypeOf<string>();
    expectTypeOf<BuiltinToolInputs["edit"]["edits"]>().toEqualTypeOf<
      { oldText: string; newText: string; replaceAll?: boolean | undefined }[] | undefined
    >();
    expectTypeOf<keyof BuiltinToolInputs>().toEqualTypeOf<
      "read" | "write" | "edit" | "ls" | "find" | "grep" | "bash"
    >();
    expect(Object.keys(builtinToolParameters).sort()).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
  });

  it("the edit schema says in words which fields are missing", () => {
    const parsed = builtinToolParameters.edit.safeParse({ path: "a.txt", oldText: "x" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["newText"]);
  });
});

describe("isToolCall", () => {
  it("narrows a transform-stage call to a built-in's input, still mutable", () => {
    const event = {} as ToolCallEvent;
    if (isToolCall(event, "write")) {
      expectTypeOf(event.input).toEqualTypeOf<{ path: string; content: string }>();
      expectTypeOf(event.toolName).toEqualTypeOf<"write">();
      event.input.content = "replaced";
    }
    if (isToolCall(event, "bash")) {
      // @ts-expect-error bash has no path
      void event.input.path;
    }
  });

  it("narrows an enforce-stage call to a read-only input and keeps the guard's tools", () => {
    const event = {} as GuardedToolCallEvent;
    if (isToolCall(event, "edit")) {
      expectTypeOf(event.input.path).toEqualTypeOf<string>();
      expectTypeOf(event.pin).toEqualTypeOf<GuardedToolCallEvent["pin"]>();
      // @ts-expect-error the enforce stage sees a read-only input
      event.input.path = "elsewhere";
    }
  });

  it("narrows to an author's tool by its handle: input from the schema, details from its results", () => {
    const call = {} as ToolCallEvent;
    if (isToolCall(call, wordCount)) {
      expectTypeOf(call.input).toEqualTypeOf<{ path: string; minLength: number }>();
      expectTypeOf(call.toolName).toEqualTypeOf<"word_count">();
    }
    const result = {} as ToolResultEvent;
    if (isToolCall(result, wordCount) && !result.isError) {
      expectTypeOf(result.details).toEqualTypeOf<{ words: number } | undefined>();
      expectTypeOf(result.input.minLength).toEqualTypeOf<number>();
    }
    if (isToolCall(result, wordCount) && result.isError) {
      // An error result may carry anything (the host's own error details, a patch).
      expectTypeOf(result.details).toEqualTypeOf<unknown>();
    }
  });

  it("compares names at run time, for names and handles alike", () => {
    const event: ToolCallEvent = { toolCallId: "1", toolName: "word_count", input: { path: "a" } };
    expect(isToolCall(event, wordCount)).toBe(true);
    expect(isToolCall(event, "word_count")).toBe(true);
    expect(isToolCall(event, "write")).toBe(false);
  });

  it("leaves an unknown name's input untyped, and refuses what is not an event of one call", () => {
    const event = {} as ToolCallEvent;
    if (isToolCall(event, "somebody_elses_tool")) {
      expectTypeOf(event.input).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(event.toolName).toEqualTypeOf<"somebody_elses_tool">();
    }
    // @ts-expect-error agent_start is not an event of one call
    isToolCall({ type: "agent_start" }, "write");
  });
});

describe("api.on, derived from the handler map", () => {
  it("types each handler from the map and narrows with a tools matcher", () => {
    defineExtension({
      name: "typed",
      setup(api) {
        api.on(
          "tool_call",
          (event) => {
            expectTypeOf(event).toEqualTypeOf<
              | ToolCallEvent<{ path: string; content: string }, "write">
              | ToolCallEvent<BuiltinToolInputs["edit"], "edit">
            >();
            if (event.toolName === "write") expectTypeOf(event.input.content).toEqualTypeOf<string>();
            return undefined;
          },
          { tools: ["write", "edit"] },
        );
        api.on(
          "tool_call",
          (event) => {
            expectTypeOf(event.input).toEqualTypeOf<Readonly<BuiltinToolInputs["bash"]>>();
            return { block: true, reason: "no shell today", terminate: true };
          },
          { stage: "enforce", tools: ["bash"] },
        );
        api.on(
          "tool_result",
          (event) => {
            if (!event.isError) expectTypeOf(event.details).toEqualTypeOf<{ words: number } | undefined>();
            return { details: { signed: true } };
          },
          { tools: [wordCount] },
        );
        api.on(
          "tool_call",
          (event) => {
            expectTypeOf(event).toEqualTypeOf<ToolCallEvent>();
          },
          { tools: /^(write|edit)$/ },
        );
        api.on("tool_execution_end", (event) => void event.outcome, { tools: ["write"] });
        api.onDispose(async () => {});
        expectTypeOf(api.hostVersion).toEqualTypeOf<string>();
      },
    });
  });

  it("the host's registrations and api.on share one map", () => {
    expectTypeOf<HookHandler<"tool_call:transform">>().toEqualTypeOf<OnHandler<"tool_call">>();
    expectTypeOf<HookHandler<"tool_call:enforce">>().toEqualTypeOf<OnHandler<"tool_call", { stage: "enforce" }>>();
    expectTypeOf<HookMap["tool_call:transform"]["result"]>().toEqualTypeOf<ToolCallTransformResult>();
    expectTypeOf<HookMap["tool_call:enforce"]["result"]>().toEqualTypeOf<ToolCallEnforceResult>();
    expectTypeOf<HookMap["turn_end"]["result"]>().toEqualTypeOf<void>();
  });

  it("rejects wrong handlers and options precisely", () => {
    defineExtension({
      name: "wrong",
      setup(api) {
        // @ts-expect-error block must be true, not a string
        api.on("tool_call", () => ({ block: "yes" }));
        // @ts-expect-error the enforce stage cannot replace the input
        api.on("tool_call", () => ({ input: {} }), { stage: "enforce" });
        // @ts-expect-error a tool_result patch has no "text" field
        api.on("tool_result", () => ({ text: "x" }));
        // @ts-expect-error stage applies to tool_call only
        api.on("tool_result", () => undefined, { stage: "enforce" });
        // @ts-expect-error agent_start has no tool to match
        api.on("agent_start", () => {}, { tools: ["write"] });
        // @ts-expect-error a matcher is a list or a RegExp, not a "Write|Edit" string
        api.on("tool_call", () => undefined, { tools: "Write|Edit" });
        // @ts-expect-error a disposer takes no arguments it could misuse
        api.onDispose((x: string) => void x);
      },
    });
  });
});

describe("the compiler's words for a wrong handler", () => {
  it("name the handler map's result type for that hook, not another overload's", async () => {
    const ts = (await import("typescript")).default;
    const here = fileURLToPath(new URL(".", import.meta.url));
    const file = join(here, "__wrong_handlers__.ts");
    const source = `import { defineExtension } from "../src/index.ts";
defineExtension({
  name: "wrong",
  setup(api) {
    api.on("tool_call", () => ({ input: {} }), { stage: "enforce" });
    api.on("tool_result", () => ({ text: "x" }));
    api.on("tool_call", () => undefined, { tools: "Write|Edit" });
  },
});
`;
    const options: import("typescript").CompilerOptions = {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ["@gatehouse/source"],
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => (name === file ? source : readFile(name));
    host.fileExists = (name) => name === file || ts.sys.fileExists(name);
    host.getSourceFile = (name, language) =>
      name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language);
    const program = ts.createProgram([file], options, host);
    const messages = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map(
        (d) =>
          `${ts.getLineAndCharacterOfPosition(d.file!, d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      );
    expect(messages).toEqual([
      "5: Type '{ input: {}; }' is not assignable to type 'Awaitable<ToolCallEnforceResult>'.",
      "6: Type '{ text: string; }' is not assignable to type 'Awaitable<void | ToolResultPatch | undefined>'.",
      "7: Type 'string' is not assignable to type 'ToolMatcher | undefined'.",
    ]);
  }, 60_000);
});
