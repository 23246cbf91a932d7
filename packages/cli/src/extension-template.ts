/**
 * The files `gatehouse init extension NAME` writes: a drop-in extension (a guard and a tool, typed
 * through the SDK) and a test that runs it in a real host with `@gatehouse/testing`.
 */

/** The camelCase identifier of a kebab-case extension name (`no-lockfile-edits` → `noLockfileEdits`). */
function identifier(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The tool name the scaffold registers: the extension's name in snake_case, as models expect. */
export function scaffoldToolName(name: string): string {
  return `${name.replace(/-/g, "_")}_info`;
}

/** `.gatehouse/extensions/NAME/index.ts`: the extension. */
export function extensionSource(name: string): string {
  const tool = scaffoldToolName(name);
  return `// The ${name} extension: a guard and a tool. Gatehouse loads it from this folder after
// \`gatehouse trust\`; \`index.test.ts\` next to it runs it in a real host (\`npx vitest run\`).
import { defineExtension, defineTool, z } from "@gatehouse/sdk";

export default defineExtension({
  name: "${name}",
  // The extension API versions this file is written for: a host outside the range refuses it, by name.
  hostVersion: "^1",
  setup(api) {
    // This extension's section of the settings (config["${name}"]), checked at load: a typo in a
    // key fails the load, naming the file and the field.
    const { readOnly } = api.config(
      z.object({ readOnly: z.array(z.string()).default([".lock"]) }).strict(),
    );

    // A guard: the enforce stage sees each call's final input, frozen. \`tools\` narrows the event
    // to the write and edit calls (\`event.input.path\` is typed) and skips every other tool.
    api.on(
      "tool_call",
      (event) => {
        const suffix = readOnly.find((s) => event.input.path.endsWith(s));
        if (suffix) return { block: true, reason: \`files ending in \${suffix} are read-only here\` };
      },
      { stage: "enforce", tools: ["write", "edit"] },
    );

    // A tool: the model sees its description and the parameters' descriptions.
    const ${identifier(name)}Info = defineTool({
      name: "${tool}",
      description: "Says which file endings ${name} keeps read-only. Touches no files.",
      parameters: z.object({}),
      // What a call reads, writes or runs; path policy checks every tool by these.
      effects: () => [],
      execute: () => ({
        content: [{ type: "text", text: \`read-only: \${readOnly.join(", ")}\` }],
        details: { readOnly },
      }),
    });
    api.registerTool(${identifier(name)}Info);
  },
});
`;
}

/** `.gatehouse/extensions/NAME/index.test.ts`: the extension in a real host, with a scripted model. */
export function extensionTest(name: string): string {
  const tool = scaffoldToolName(name);
  return `import { createTestHost, type TestHost, toolCall, turn } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";
import extension from "./index.ts";

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
});

/** A real host over a temp project, running this extension; the model's answers are scripted. */
async function host(options: Parameters<typeof createTestHost>[0] = {}) {
  const t = await createTestHost({ extensions: [extension], ...options });
  hosts.push(t);
  return t;
}

describe("${name}", () => {
  it("blocks writes and edits to read-only files, and lets other writes through", async () => {
    const t = await host({
      files: { "package.lock": "v1\\n" },
      turns: [
        turn(
          toolCall("A", "write", { path: "package.lock", content: "v2\\n" }),
          toolCall("B", "edit", { path: "package.lock", oldText: "v1", newText: "v2" }),
          toolCall("C", "write", { path: "notes.txt", content: "hi\\n" }),
        ),
        turn("done"),
      ],
    });
    await t.run();
    t.expectBlocked("A", { by: "${name}", reason: /read-only/ });
    t.expectBlocked("B", { by: "${name}" });
    t.expectExecuted("C");
    expect(t.written()).toEqual({ "notes.txt": "hi\\n" });
  });

  it("reads its settings: config[\\"${name}\\"].readOnly replaces the default", async () => {
    const t = await host({
      config: { "${name}": { readOnly: [".env"] } },
      turns: [turn(toolCall("A", "write", { path: ".env", content: "x" }), toolCall("B", "${tool}")), turn("done")],
    });
    await t.run();
    t.expectBlocked("A", { by: "${name}" });
    expect(t.expectExecuted("B").text).toBe("read-only: .env");
  });
});
`;
}
