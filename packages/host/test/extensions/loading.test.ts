import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, say } from "../helpers/scenario.ts";
import { firstResultText, makeProject, openHost, toolExtension } from "./project.ts";

const guardExt = `import { defineExtension } from "@gatehouse/sdk";
export default defineExtension({ name: "spy", setup(api) {
  api.on("tool_call", (e) => { ((globalThis as any).__ghEffects ??= []).push(e.effects); }, { stage: "enforce" });
} });`;

describe("loading extension files", () => {
  it("a tool named like a built-in overrides it; the override inherits read's effects", async () => {
    const p = makeProject({
      ".gatehouse/extensions/a-read.ts": `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "my-read", setup(api) {
  api.registerTool(defineTool({ name: "read", description: "cached read", parameters: z.object({ path: z.string() }),
    execute: ({ path }) => ({ content: [{ type: "text", text: "cached " + path }] }) }));
} });`,
      ".gatehouse/extensions/b-spy.ts": guardExt,
    });
    (globalThis as { __ghEffects?: unknown[] }).__ghEffects = [];
    const { host } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "read", { path: "x.txt" })] }, say("ok")],
    });
    expect(host.tools().find((t) => t.name === "read")).toMatchObject({
      overrides: "read",
      source: { owner: "my-read", file: join(p.dir, ".gatehouse/extensions/a-read.ts") },
    });
    const result = await host.run("go");
    expect(firstResultText(result.messages)).toBe("cached x.txt");
    expect((globalThis as { __ghEffects?: unknown[] }).__ghEffects).toEqual([[{ kind: "read", path: "x.txt" }]]);
  });

  it("two extensions registering one name: the first in load order wins; the loser's record names both files", async () => {
    const p = makeProject({
      ".gatehouse/extensions/first.ts": toolExtension("first", "same", "from first"),
      ".gatehouse/extensions/second.ts": toolExtension("second", "same", "from second"),
    });
    const { host } = await openHost(p, { trust: true, turns: [{ content: [call("A", "same")] }, say("ok")] });
    const second = host.extensions().find((e) => e.name === "second");
    const error = second?.errors[0] ?? "";
    expect(error).toContain(join(p.dir, ".gatehouse/extensions/first.ts"));
    expect(error).toContain(join(p.dir, ".gatehouse/extensions/second.ts"));
    expect(host.tools().find((t) => t.name === "same")).toMatchObject({
      source: { owner: "first" },
      shadowed: [{ owner: "second" }],
    });
    expect(firstResultText((await host.run("go")).messages)).toBe("from first");
  });

  it("a syntax error, a throwing setup, a bad default export and a bad config each fail alone, with file and cause", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ config: { configured: { level: "high" } } }, null, 2),
      ".gatehouse/extensions/a-syntax.ts": "export default defineExtension({ name: 'x', setup( { ",
      ".gatehouse/extensions/b-throws.ts": `export default { name: "throws", setup() { throw new Error("setup exploded"); } };`,
      ".gatehouse/extensions/e-deep.ts":
        'type N = number;\nfunction check(n: N): void {\n  if (n > 0) throw new Error("no API key");\n}\nexport default { name: "deep", setup() {\n  check(1);\n} };\n',
      ".gatehouse/extensions/c-nothing.ts": `export default 42;`,
      ".gatehouse/extensions/d-config.ts": `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "configured", setup(api) { api.config(z.object({ level: z.number() })); } });`,
      ".gatehouse/extensions/e-fine.ts": toolExtension("fine", "fine_tool", "fine"),
    });
    const { host, events } = await openHost(p, { trust: true });
    const byName = Object.fromEntries(host.extensions().map((r) => [r.name, r]));
    expect(byName["a-syntax"]?.status).toBe("failed");
    expect(byName["a-syntax"]?.source).toBe(join(p.dir, ".gatehouse/extensions/a-syntax.ts"));
    // A throw names the line it came from, so the author can go straight there.
    const file = join(p.dir, ".gatehouse/extensions/b-throws.ts");
    expect(byName.throws).toMatchObject({ status: "failed", errors: [`setup exploded (at ${file}:1)`] });
    // In a helper the setup calls: the line of the throw, in the TypeScript the author wrote.
    expect(byName.deep?.errors).toEqual([`no API key (at ${join(p.dir, ".gatehouse/extensions/e-deep.ts")}:3)`]);
    expect(byName["c-nothing"]?.errors[0]).toContain("default export must be defineExtension");
    const configError = byName.configured?.errors[0] ?? "";
    expect(configError).toContain(`${join(p.dir, ".gatehouse/settings.json")}:`);
    expect(configError).toContain("config.configured.level: expected number, received string");
    expect(byName.fine).toMatchObject({ status: "loaded", tools: ["fine_tool"] });
    const reported = events
      .filter((e) => e.type === "extension_error")
      .map((e) => (e.type === "extension_error" ? e.extension : ""));
    expect(reported.sort()).toEqual(["a-syntax", "c-nothing", "configured", "deep", "throws"]);
  });

  it("a tool without a description, or with effects that are not a function, fails its extension's load by name; the run goes on", async () => {
    const tool = (name: string, extra: string) => `import { z } from "@gatehouse/sdk";
export default (api: any) => api.registerTool({ name: "${name}", parameters: z.object({}), ${extra}
  execute: async () => ({ content: [{ type: "text", text: "ran" }] }) });`;
    const p = makeProject({
      ".gatehouse/extensions/nodesc.ts": tool("nodesc", "effects: () => [],"),
      ".gatehouse/extensions/noteffects.ts": tool("noteffects", 'description: "d", effects: [],'),
      ".gatehouse/extensions/fine.ts": toolExtension("fine", "fine_tool", "fine ran"),
    });
    const { host } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "fine_tool")] }, say("ok")],
    });
    const failed = host.extensions().filter((r) => r.status === "failed");
    const at = (name: string) => ` (at ${join(p.dir, ".gatehouse/extensions", `${name}.ts`)}:2)`;
    expect(failed.map((r) => [r.name, r.errors[0]])).toEqual([
      [
        "nodesc",
        `Extension "nodesc": tool "nodesc" needs a description (a string telling the model what it does).${at("nodesc")}`,
      ],
      [
        "noteffects",
        `Extension "noteffects": tool "noteffects" has effects that are not a function (args) => [...].${at("noteffects")}`,
      ],
    ]);
    // Before, the first model turn crashed building the system prompt from the missing description.
    const result = await host.run("go");
    expect(result.stopReason).toBe("stop");
    expect(firstResultText(result.messages)).toBe("fine ran");
  });

  it("a tool whose parameters can never match a model's arguments, or whose executionMode or prepareArguments is misspelt, fails its extension's load by name", async () => {
    // Before, each loaded: z.string() made every call invalid, and "serial" ran in parallel batches unnoticed.
    const tool = (name: string, extra: string) => `import { z } from "@gatehouse/sdk";
export default (api: any) => api.registerTool({ name: "${name}", description: "d", effects: () => [], ${extra}
  execute: async () => ({ content: [{ type: "text", text: "ran" }] }) });`;
    const p = makeProject({
      ".gatehouse/extensions/a-string.ts": tool("a_string", "parameters: z.string(),"),
      ".gatehouse/extensions/b-list.ts": tool("b_list", "parameters: z.array(z.string()).optional(),"),
      ".gatehouse/extensions/c-serial.ts": tool("c_serial", 'parameters: z.object({}), executionMode: "serial",'),
      ".gatehouse/extensions/d-prepare.ts": tool("d_prepare", 'parameters: z.object({}), prepareArguments: "trim",'),
      ".gatehouse/extensions/e-fine.ts": tool(
        "e_fine",
        'parameters: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]).transform((x) => x), executionMode: "sequential",',
      ),
    });
    const { host } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "e_fine", { a: "x" })] }, say("ok")],
    });
    const failed = host.extensions().filter((r) => r.status === "failed");
    expect(failed.map((r) => [r.name, r.errors[0]?.replace(/ \(at .*\)$/, "")])).toEqual([
      [
        "a-string",
        'Extension "a-string": tool "a_string" needs object parameters (z.object({...})): a model always sends its arguments as an object, and its string schema accepts none.',
      ],
      [
        "b-list",
        'Extension "b-list": tool "b_list" needs object parameters (z.object({...})): a model always sends its arguments as an object, and its array schema accepts none.',
      ],
      [
        "c-serial",
        'Extension "c-serial": tool "c_serial" has executionMode "serial"; expected "parallel" or "sequential".',
      ],
      [
        "d-prepare",
        'Extension "d-prepare": tool "d_prepare" has prepareArguments that is not a function (raw) => args.',
      ],
    ]);
    const result = await host.run("go");
    expect(firstResultText(result.messages)).toBe("ran");
  });

  // Before, "run tests" loaded, and every request to a real model then failed: providers accept
  // only ^[a-zA-Z0-9_-]{1,64}$ as a tool name.
  it("a tool name a model provider refuses (a space, a dot, over 64 characters) fails its extension's load by name", async () => {
    const tool = (name: string) => `import { z } from "@gatehouse/sdk";
export default (api: any) => api.registerTool({ name: ${JSON.stringify(name)}, description: "d", effects: () => [],
  parameters: z.object({}), execute: async () => ({ content: [{ type: "text", text: "ran" }] }) });`;
    const long = "x".repeat(65);
    const p = makeProject({
      ".gatehouse/extensions/a-space.ts": tool("run tests"),
      ".gatehouse/extensions/b-dot.ts": tool("fs.read"),
      ".gatehouse/extensions/c-long.ts": tool(long),
      ".gatehouse/extensions/d-fine.ts": tool(`Ok_name-${"y".repeat(56)}`),
    });
    const { host } = await openHost(p, { trust: true });
    const failed = host.extensions().filter((r) => r.status === "failed");
    expect(failed.map((r) => [r.name, r.errors[0]?.replace(/ \(at .*\)$/, "")])).toEqual([
      [
        "a-space",
        'Extension "a-space": tool "run tests" has a name model providers refuse: it holds other characters; a tool name is 1 to 64 letters, digits, "_" or "-" (^[a-zA-Z0-9_-]{1,64}$).',
      ],
      ["b-dot", expect.stringContaining('tool "fs.read" has a name model providers refuse')],
      ["c-long", expect.stringContaining(`tool "${long}" has a name model providers refuse: it is 65 characters long`)],
    ]);
  });

  // Before, a guard with tools: ["wrte"] loaded, never ran, and the write it was written to block ran.
  it("a handler whose tools list names a tool only by a near miss fails its extension's load, naming the name meant", async () => {
    const guard = (
      name: string,
      tools: string,
      extra = "",
    ) => `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "${name}", setup(api) {
  api.on("tool_call", () => ({ block: true, reason: "no" }), { stage: "enforce", tools: ${tools} });
  ${extra}
} });`;
    const own = `api.registerTool(defineTool({ name: "edits", description: "d", parameters: z.object({}), effects: () => [],
    execute: async () => ({ content: [{ type: "text", text: "ran" }] }) }));`;
    const p = makeProject({
      ".gatehouse/extensions/a-typo.ts": guard("a-typo", '["write", "wrte"]'),
      ".gatehouse/extensions/b-far.ts": guard("b-far", '["deploy_site"]'),
      ".gatehouse/extensions/c-own.ts": guard("c-own", '["edits"]', own),
    });
    const { host } = await openHost(p, { trust: true });
    const byName = Object.fromEntries(host.extensions().map((r) => [r.name, r]));
    expect(byName["a-typo"]?.status).toBe("failed");
    expect(byName["a-typo"]?.errors[0]).toContain(
      'Extension "a-typo": its tool_call enforce handler\'s tools list names no tool by "wrte" (did you mean "write"?)',
    );
    expect(byName["b-far"]?.status).toBe("loaded");
    expect(byName["c-own"]?.status).toBe("loaded");
  });

  it("a setup calling the reference runtime's API (api.registerCommand) fails saying what this API offers", async () => {
    const p = makeProject({
      ".gatehouse/extensions/ported.ts": `export default function (api: any) {\n  api.registerCommand("hi", { handler() {} });\n}\n`,
      ".gatehouse/extensions/other.ts": `export default function (api: any) {\n  api.nothingLikeThis();\n}\n`,
    });
    const { host } = await openHost(p, { trust: true, turns: [say("ok")] });
    const errors = new Map(host.extensions().map((r) => [r.name, r.errors[0]]));
    expect(errors.get("ported")).toBe(
      `api.registerCommand is not a function: Gatehouse's extension API has no registerCommand; it offers registerTool, reservePath, reservedPaths, on, onDispose, config, abortRun, privateDir (at ${join(p.dir, ".gatehouse/extensions/ported.ts")}:2)`,
    );
    // A name that is no runtime's API: no hint.
    expect(errors.get("other")).toBe(
      `api.nothingLikeThis is not a function (at ${join(p.dir, ".gatehouse/extensions/other.ts")}:2)`,
    );
  });

  it("a handler that throws or hangs in a file extension blocks the call and is reported; other extensions run", async () => {
    const p = makeProject({
      ".gatehouse/extensions/a-hang.ts": `export default { name: "hang", setup(api: any) {
  api.on("tool_call", (e: any) => e.toolName === "t_hang" ? new Promise(() => {}) : undefined, { stage: "enforce" });
  api.on("tool_call", (e: any) => { if (e.toolName === "t_throw") throw new Error("guard bug"); });
} };`,
      ".gatehouse/extensions/b-tools.ts": `import { defineTool, z } from "@gatehouse/sdk";
export default (api: any) => { for (const name of ["t_hang", "t_throw", "t_ok"]) api.registerTool(defineTool({
  name, description: name, parameters: z.object({}), effects: () => [], execute: () => ({ content: [{ type: "text", text: name + " ran" }] }) })); };`,
    });
    const { host, events } = await openHost(p, {
      trust: true,
      hookTimeoutMs: 100,
      turns: [{ content: [call("A", "t_hang"), call("B", "t_throw"), call("C", "t_ok")] }, say("ok")],
    });
    await host.run("go");
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => (e.type === "tool_execution_end" ? [e.toolCallId, e.outcome, e.blockedBy] : []))).toEqual([
      ["A", "blocked", "hang"],
      ["B", "blocked", "hang"],
      ["C", "executed", undefined],
    ]);
    const errors = events
      .filter((e) => e.type === "extension_error")
      .map((e) => (e.type === "extension_error" ? e.error : ""));
    expect(errors).toContain("timed out after 100 ms");
    expect(errors).toContain("guard bug");
  });

  it("an async setup is awaited; one that never finishes fails after the time limit", async () => {
    const p = makeProject({
      ".gatehouse/extensions/slow.ts": `export default { name: "slow", async setup(api: any) { await new Promise((r) => setImmediate(r)); (globalThis as any).__ghSlow = true; } };`,
      ".gatehouse/extensions/stuck.ts": `export default { name: "stuck", setup() { return new Promise(() => {}); } };`,
    });
    const { host } = await openHost(p, { trust: true, hookTimeoutMs: 200 });
    expect((globalThis as { __ghSlow?: boolean }).__ghSlow).toBe(true);
    expect(host.extensions().map((r) => [r.name, r.status])).toEqual([
      ["slow", "loaded"],
      ["stuck", "failed"],
    ]);
  });
});
