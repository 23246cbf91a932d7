import { defineExtension, type ExtensionAPI, type GatehouseEvent } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createHost } from "../../src/host/create-host.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { call, quietLogger, say, tempDir } from "../helpers/scenario.ts";
import { closeHosts, firstResultText, makeProject, openHost } from "./project.ts";

afterEach(closeHosts);

type Journal = { __ghJournal?: string[] };
const journal = () => ((globalThis as Journal).__ghJournal ??= []);
afterEach(() => {
  delete (globalThis as Journal).__ghJournal;
});

/** A drop-in extension that journals its setup, its calls and its disposal; `extra` goes into setup. */
function versioned(version: string, extra = ""): string {
  return `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
const journal = ((globalThis as any).__ghJournal ??= []);
export default defineExtension({
  name: "ver",
  setup(api) {
    journal.push("setup ${version}");
    api.onDispose(() => { journal.push("dispose ${version} (first registered)"); });
    api.onDispose(async () => { await Promise.resolve(); journal.push("dispose ${version}"); });
    api.registerTool(defineTool({
      name: "ver", description: "version", parameters: z.object({}), effects: () => [],
      execute: () => { journal.push("call ${version}"); return { content: [{ type: "text", text: "${version}" }] }; },
    }));
    ${extra}
  },
});
`;
}

const errors = (events: GatehouseEvent[]) =>
  events.filter((e): e is Extract<GatehouseEvent, { type: "extension_error" }> => e.type === "extension_error");

describe("api.onDispose", () => {
  it("a reload disposes the old version, latest disposer first, before the new version takes over", async () => {
    const p = makeProject({ ".gatehouse/extensions/ver.ts": versioned("v1") });
    const { host } = await openHost(p, { trust: true, turns: [{ content: [call("A", "ver")] }, say("ok")] });
    p.write(".gatehouse/extensions/ver.ts", versioned("v2"));
    await host.reload();
    expect(firstResultText((await host.run("go")).messages)).toBe("v2");
    expect(journal()).toEqual([
      "setup v1",
      // The new version is set up first (a failing reload keeps v1), then v1 is released, then v2 runs.
      "setup v2",
      "dispose v1",
      "dispose v1 (first registered)",
      "call v2",
    ]);
    await host.close();
    expect(journal().slice(-2)).toEqual(["dispose v2", "dispose v2 (first registered)"]);
  });

  it("a failed reload keeps the old version undisposed and releases what the failed attempt registered", async () => {
    const p = makeProject({ ".gatehouse/extensions/ver.ts": versioned("v1") });
    const { host, events } = await openHost(p, { trust: true });
    p.write(".gatehouse/extensions/ver.ts", versioned("v2", 'throw new Error("v2 is broken");'));
    await host.reload();
    expect(journal()).toEqual(["setup v1", "setup v2", "dispose v2", "dispose v2 (first registered)"]);
    expect(host.extensions()[0]?.errors[0]).toContain("keeping the last good version: v2 is broken");
    expect(errors(events).map((e) => e.error)).toEqual([expect.stringMatching(/^v2 is broken \(at .*ver\.ts:\d+\)$/)]);
    await host.close();
    expect(journal().slice(-2)).toEqual(["dispose v1", "dispose v1 (first registered)"]);
  });

  it("a removed extension is disposed and its tools are gone", async () => {
    const p = makeProject({ ".gatehouse/extensions/ver.ts": versioned("v1") });
    const { host } = await openHost(p, { trust: true });
    const { rmSync } = await import("node:fs");
    rmSync(`${p.dir}/.gatehouse/extensions/ver.ts`);
    await host.reload();
    expect(journal()).toEqual(["setup v1", "dispose v1", "dispose v1 (first registered)"]);
    expect(host.tools().map((t) => t.name)).not.toContain("ver");
  });

  it("a disposer that throws or hangs is reported as extension_error and never blocks the reload or close", async () => {
    const stuck = `api.onDispose(() => new Promise(() => {})); api.onDispose(() => { throw new Error("cannot close the socket"); });`;
    const p = makeProject({ ".gatehouse/extensions/ver.ts": versioned("v1", stuck) });
    const { host, events } = await openHost(p, {
      trust: true,
      hookTimeoutMs: 200,
      turns: [{ content: [call("A", "ver")] }, say("ok")],
    });
    p.write(".gatehouse/extensions/ver.ts", versioned("v2"));
    await host.reload();
    expect(firstResultText((await host.run("go")).messages)).toBe("v2");
    expect(errors(events).map((e) => [e.extension, e.hook, e.error])).toEqual([
      ["ver", "onDispose", 'onDispose of "ver" failed: cannot close the socket'],
      ["ver", "onDispose", 'onDispose of "ver" failed: did not finish within 200 ms'],
    ]);
    // The disposers after the failing ones still ran.
    expect(journal()).toContain("dispose v1 (first registered)");
  });

  it("in-code extensions are disposed on close, in reverse load order; after that the API registers nothing", async () => {
    const order: string[] = [];
    let kept: ExtensionAPI | undefined;
    const ext = (name: string) =>
      defineExtension({
        name,
        setup(api) {
          kept = api;
          api.onDispose(() => void order.push(name));
        },
      });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [ext("first"), ext("second")],
    });
    await host.close();
    expect(order).toEqual(["second", "first"]);
    expect(() => kept?.onDispose(() => {})).toThrow(
      'Extension "second": onDispose was called after the extension was unloaded.',
    );
    expect(() => kept?.on("turn_end", () => {})).toThrow(/after the extension was unloaded/);
  });

  it("onDispose needs a function", async () => {
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [defineExtension({ name: "bad", setup: (api) => api.onDispose("close" as never) })],
    });
    expect(host.extensions()[0]?.errors[0]).toMatch(
      /^Extension "bad": onDispose needs a function\. \(at .*lifecycle\.test\.ts:\d+\)$/,
    );
    await host.close();
  });
});

describe("hostVersion", () => {
  async function load(hostVersion: unknown) {
    let seen: string | undefined;
    const ext = {
      name: "versioned",
      hostVersion,
      setup: (api: ExtensionAPI) => {
        seen = api.hostVersion;
      },
    } as never;
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [ext],
    });
    const record = host.extensions()[0];
    await host.close();
    return { record, seen };
  }

  it("an extension for this API loads and reads the host's API version", async () => {
    for (const range of ["^1", "1.x", ">=1.0.0 <2", "^0.9 || ^1.0", "*"]) {
      const { record, seen } = await load(range);
      expect(record?.status, range).toBe("loaded");
      expect(seen).toBe("1.0.0");
    }
  });

  it("an extension for another API is refused before its setup runs, naming both versions", async () => {
    const { record, seen } = await load("^2");
    expect(record?.status).toBe("failed");
    expect(seen).toBeUndefined();
    expect(record?.errors[0]).toBe(
      "it needs extension API ^2 (hostVersion), but this Gatehouse implements 1.0.0: use a version of the extension written for this API, or a Gatehouse that implements the one it needs",
    );
  });

  it("a hostVersion that is not a range is a load error saying what to write", async () => {
    expect((await load("one")).record?.errors[0]).toBe('hostVersion "one" is not a semver range (e.g. "^1")');
    expect((await load(1)).record?.errors[0]).toBe('hostVersion must be a semver range string (e.g. "^1"), not 1');
  });
});
