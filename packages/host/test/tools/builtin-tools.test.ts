import { builtinToolParameters } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BASH_DEFAULT_TIMEOUT_SECONDS } from "../../src/tools/bash.ts";
import { createBuiltinTools, FileMutationQueue } from "../../src/tools/index.ts";

const byName = (name: string) => createBuiltinTools().find((t) => t.name === name)!;

describe("createBuiltinTools", () => {
  it("returns the seven built-ins, each with a description for the model and a JSON-schema-able schema", () => {
    const tools = createBuiltinTools({ mutationQueue: new FileMutationQueue() });
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "ls", "find", "grep", "bash"]);
    for (const tool of tools) {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(z.toJSONSchema(tool.parameters)).toMatchObject({ type: "object" });
      expect(tool.effects).toBeTypeOf("function");
    }
  });

  it("validates against the SDK's schemas, the one source of BuiltinToolInputs", () => {
    for (const tool of createBuiltinTools()) {
      expect(tool.parameters).toBe(builtinToolParameters[tool.name as keyof typeof builtinToolParameters]);
    }
    const timeout = z.toJSONSchema(builtinToolParameters.bash).properties?.timeout;
    expect(JSON.stringify(timeout)).toContain(`(default ${BASH_DEFAULT_TIMEOUT_SECONDS})`);
  });

  it("returns fresh definitions on every call", () => {
    const [a] = createBuiltinTools();
    const [b] = createBuiltinTools();
    expect(a).not.toBe(b);
    expect(a?.name).toBe(b?.name);
  });

  it("declares effects with paths as the model spelled them", () => {
    expect(byName("read").effects?.({ path: "~/a.txt" })).toEqual([{ kind: "read", path: "~/a.txt" }]);
    expect(byName("write").effects?.({ path: "../x", content: "" })).toEqual([{ kind: "write", path: "../x" }]);
    expect(byName("edit").effects?.({ path: "src/a.ts", edits: [] })).toEqual([
      { kind: "write", path: "src/a.ts" },
      { kind: "read", path: "src/a.ts" },
    ]);
    expect(byName("ls").effects?.({})).toEqual([{ kind: "read", path: "." }]);
    expect(byName("ls").effects?.({ path: "src" })).toEqual([{ kind: "read", path: "src" }]);
    expect(byName("find").effects?.({ pattern: "*" })).toEqual([{ kind: "read", path: "." }]);
    expect(byName("grep").effects?.({ pattern: "x", path: "/etc" })).toEqual([{ kind: "read", path: "/etc" }]);
    expect(byName("bash").effects?.({ command: "rm -rf build" })).toEqual([{ kind: "exec", command: "rm -rf build" }]);
  });
});
