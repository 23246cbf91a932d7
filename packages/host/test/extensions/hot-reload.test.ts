import { rmSync } from "node:fs";
import { defineTool, type GatehouseEvent } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runCli } from "../../../cli/test/cli/cli-helpers.ts";
import type { Host } from "../../src/host/types.ts";
import { call, say } from "../helpers/scenario.ts";
import { firstResultText, makeProject, openHost, toolExtension, trustProject } from "./project.ts";

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

/** Resolves with the next event of a type that `matches` (wait on events, not time). */
function next(
  host: Host,
  type: GatehouseEvent["type"],
  matches: (event: GatehouseEvent) => boolean = () => true,
): Promise<GatehouseEvent> {
  return new Promise((resolve) => {
    const off = host.subscribe((e) => {
      if (e.type === type && matches(e)) {
        off();
        resolve(e);
      }
    });
  });
}

async function watched(files: Record<string, string>, turns: unknown[] = []) {
  const p = makeProject(files);
  const { host, events } = await openHost(p, { trust: true, watch: true, turns });
  hosts.push(host);
  return { p, host, events };
}

describe("hot reload through createHost({ watch: true })", () => {
  it("a changed file is reloaded and the new version answers", async () => {
    const { p, host } = await watched({ ".gatehouse/extensions/ver.ts": toolExtension("ver", "ver", "v1") }, [
      { content: [call("A", "ver")] },
      say("ok"),
    ]);
    const reloaded = next(host, "extensions_reloaded");
    p.write(".gatehouse/extensions/ver.ts", toolExtension("ver", "ver", "v2"));
    expect(await reloaded).toMatchObject({ loaded: ["ver"], failed: [], removed: [] });
    expect(firstResultText((await host.run("go")).messages)).toBe("v2");
  });

  it("an added file becomes an extension; a removed one is unloaded with its tools", async () => {
    const { p, host } = await watched({ ".gatehouse/extensions/keep.ts": toolExtension("keep", "keep", "k") });
    let reloaded = next(host, "extensions_reloaded");
    const added = p.write(".gatehouse/extensions/added.ts", toolExtension("added", "added_tool", "a"));
    expect(await reloaded).toMatchObject({ loaded: ["added"] });
    expect(host.tools().map((t) => t.name)).toContain("added_tool");
    reloaded = next(host, "extensions_reloaded");
    rmSync(added);
    expect(await reloaded).toMatchObject({ removed: ["added"] });
    expect(host.tools().map((t) => t.name)).not.toContain("added_tool");
    expect(host.extensions().map((r) => r.name)).toEqual(["keep"]);
  });

  it("a broken edit keeps the last good version and reports why", async () => {
    const { p, host } = await watched({ ".gatehouse/extensions/ver.ts": toolExtension("ver", "ver", "v1") }, [
      { content: [call("A", "ver")] },
      say("ok"),
    ]);
    const reloaded = next(host, "extensions_reloaded");
    p.write(".gatehouse/extensions/ver.ts", "export default defineExtension({ oops ");
    expect(await reloaded).toMatchObject({ failed: ["ver"], loaded: [] });
    const record = host.extensions()[0];
    expect(record?.status).toBe("loaded");
    expect(record?.errors[0]).toContain("reload failed, keeping the last good version");
    expect(firstResultText((await host.run("go")).messages)).toBe("v1");
  });

  it("a reload during a run takes effect at the next turn boundary, never inside the current turn", async () => {
    const p = makeProject({ ".gatehouse/extensions/ver.ts": toolExtension("ver", "ver", "v1") });
    let hostRef: Host | undefined;
    const editor = defineTool({
      name: "edit_ext",
      description: "rewrites the extension and asks for a reload",
      parameters: z.object({}),
      effects: () => [],
      execute: () => {
        p.write(".gatehouse/extensions/ver.ts", toolExtension("ver", "ver", "v2"));
        void hostRef?.reload();
        return { content: [{ type: "text", text: "edited" }] };
      },
    });
    const { host, events } = await openHost(p, {
      trust: true,
      tools: [editor],
      toolExecution: "sequential",
      turns: [{ content: [call("E", "edit_ext"), call("A", "ver")] }, { content: [call("B", "ver")] }, say("ok")],
    });
    hosts.push(host);
    hostRef = host;
    const result = await host.run("go");
    const texts = result.messages
      .filter((m) => m.role === "toolResult")
      .map((m) => [m.toolCallId, (m.content[0] as { text: string }).text]);
    expect(texts).toEqual([
      ["E", "edited"],
      ["A", "v1"],
      ["B", "v2"],
    ]);
    const types = events.map((e) => e.type);
    const reloadAt = types.indexOf("extensions_reloaded");
    const firstTurnEnd = types.indexOf("turn_end");
    const startB = events.findIndex((e) => e.type === "tool_execution_start" && e.toolCallId === "B");
    expect(reloadAt).toBeGreaterThan(firstTurnEnd);
    expect(reloadAt).toBeLessThan(startB);
  });

  it("settings changes are picked up too (a newly listed package loads)", async () => {
    const { p, host } = await watched({ ".gatehouse/settings.json": JSON.stringify({}) });
    const reloaded = next(host, "extensions_reloaded");
    p.write(".gatehouse/settings.json", JSON.stringify({ extensions: ["@gatehouse/hello-tool"] }));
    expect(await reloaded).toMatchObject({ loaded: ["hello-tool"] });
    expect(host.tools().map((t) => t.name)).toContain("hello");
  });
});

describe("config changes reload the extension that reads them", () => {
  it("editing config.<name> in settings reloads that extension with the new section", async () => {
    const { p, host } = await watched(
      {
        ".gatehouse/settings.json": JSON.stringify({
          extensions: ["@gatehouse/hello-tool"],
          config: { "hello-tool": { greeting: "Hi" } },
        }),
      },
      [{ content: [call("A", "hello", { name: "Ada" })] }, say("ok")],
    );
    const reloaded = next(host, "extensions_reloaded");
    p.write(
      ".gatehouse/settings.json",
      JSON.stringify({ extensions: ["@gatehouse/hello-tool"], config: { "hello-tool": { greeting: "Howdy" } } }),
    );
    expect(await reloaded).toMatchObject({ loaded: ["hello-tool"] });
    expect(firstResultText((await host.run("go")).messages)).toBe("Howdy, Ada!");
  });
});

/** The `ver` extension, importing (and using) a helper outside `.gatehouse`. */
const versioned = (text: string) =>
  `import { helper } from "../../lib/helper.ts";\nvoid helper;\n${toolExtension("ver", "ver", text)}`;

describe("trust under --watch", () => {
  it("an edit to a trusted extension is reported with the command that re-trusts it; `gatehouse trust` elsewhere is picked up live", async () => {
    const p = makeProject({
      ".gatehouse/extensions/ver.ts": versioned("v1"),
      "lib/helper.ts": "export const helper = 1;\n",
    });
    trustProject(p);
    const { host } = await openHost(p, { watch: true, turns: [{ content: [call("A", "ver")] }, say("ok")] });
    hosts.push(host);
    expect(host.extensions()[0]?.status).toBe("loaded");

    const reported = next(host, "extension_error");
    p.write("lib/helper.ts", "export const helper = 2;\n");
    const error = (await reported) as { error: string };
    expect(error.error).toContain("lib/helper.ts was edited since trust was granted");
    expect(error.error).toContain(`run "gatehouse trust --cwd ${p.dir}"`);
    expect(host.extensions()[0]).toMatchObject({ status: "loaded" });

    const loaded = (e: GatehouseEvent) => e.type === "extensions_reloaded" && e.loaded.includes("ver");
    const reloaded = next(host, "extensions_reloaded", loaded);
    const refused = next(host, "extension_error");
    p.write(".gatehouse/extensions/ver.ts", versioned("v2"));
    expect(((await refused) as { error: string }).error).toContain(".gatehouse/extensions/ver.ts was edited");
    const trusted = await runCli(["trust", "--cwd", p.dir], { env: p.env });
    expect(trusted.code).toBe(0);
    expect(await reloaded).toMatchObject({ loaded: ["ver"], failed: [] });
    expect(firstResultText((await host.run("go")).messages)).toBe("v2");
  });
});
