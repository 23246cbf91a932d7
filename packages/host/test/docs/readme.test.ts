import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/scenario.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

/** The first ```ts block after a heading of the root README. */
function snippetAfter(heading: string): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const from = readme.indexOf(`## ${heading}`);
  const block = readme.slice(from).match(/```ts\n([\s\S]*?)```/);
  if (from < 0 || !block?.[1]) throw new Error(`no ts block after ## ${heading}`);
  return block[1];
}

describe("README examples run as written", () => {
  it("the Library example creates a host, runs the scripted model and uses the custom tool", async () => {
    const dir = tempDir("gh-readme-");
    const file = join(dir, "example.ts");
    const events: string[] = [];
    const source = snippetAfter("Library")
      .replace("console.log(event.type)", "(globalThis as any).__readmeEvents.push(event.type)")
      .concat("\n(globalThis as any).__readmeResult = result;\n");
    writeFileSync(file, source);
    (globalThis as { __readmeEvents?: string[] }).__readmeEvents = events;
    const jiti = createJiti(import.meta.url, {
      alias: {
        "@gatehouse/host": join(root, "packages/host/src/index.ts"),
        "@gatehouse/sdk": join(root, "packages/sdk/src/index.ts"),
      },
      moduleCache: false,
    });
    await jiti.import(file);
    const result = (globalThis as { __readmeResult?: { messages: { role: string; content: unknown }[] } })
      .__readmeResult;
    expect(JSON.stringify(result?.messages.find((m) => m.role === "toolResult"))).toContain("HI");
    expect(events).toContain("tool_execution_end");
  });
});
