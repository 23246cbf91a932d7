import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, defineTool, type ExtensionAPI } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ReservedPaths } from "../../src/extensions/reserved-paths.ts";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";
import { closeHosts, firstResultText, makeProject, openHost } from "./project.ts";

afterEach(closeHosts);

/** A tool that answers with what `api.reservedPaths()` holds when it runs. */
function probe(name = "probe") {
  return defineExtension({
    name,
    setup(api: ExtensionAPI) {
      api.registerTool(
        defineTool({
          name: "show_reserved",
          description: "Shows reserved paths",
          parameters: z.object({}),
          execute: () => ({ content: [{ type: "text", text: JSON.stringify(api.reservedPaths()) }] }),
        }),
      );
    },
  });
}

describe("ReservedPaths", () => {
  it("keeps each owner's reservations apart, resolves links, and replaces the snapshot on change only", () => {
    const dir = realpathSync(tempDir());
    mkdirSync(join(dir, "real"));
    symlinkSync(join(dir, "real"), join(dir, "link"));
    const reserved = new ReservedPaths();
    const before = reserved.list();
    const a = {};
    const b = {};
    reserved.add(a, { path: "link/log", cwd: dir, why: "log", hide: false, by: "a" });
    reserved.add(b, { path: join(dir, "key"), cwd: "/", why: "key", hide: true, by: "b" });
    const both = reserved.list();
    expect(both).not.toBe(before);
    expect(reserved.list()).toBe(both);
    expect(both.map((r) => [r.path, r.by, r.hide])).toEqual([
      [join(dir, "link/log"), "a", false],
      [join(dir, "key"), "b", true],
    ]);
    // A file below a link that exists is reserved in its real spelling too.
    writeFileSync(join(dir, "real", "log2"), "");
    reserved.add(a, { path: "link/log2", cwd: dir, why: "log", hide: false, by: "a" });
    expect(reserved.list().map((r) => r.path)).toContain(join(dir, "real", "log2"));
    reserved.removeOwner(a);
    expect(reserved.list().map((r) => r.by)).toEqual(["b"]);
    expect(() => reserved.add(a, { path: " ", cwd: dir, why: "x", hide: false, by: "a" })).toThrow(/non-empty path/);
  });
});

describe("api.reservePath in a host", () => {
  it("what one extension reserves, every extension sees; a failed setup leaves nothing reserved", async () => {
    const cwd = tempDir();
    const keeper = defineExtension({
      name: "keeper",
      setup(api) {
        api.reservePath("state/log.jsonl", { why: "it is keeper's log" });
        api.reservePath("/etc/team.key", { why: "it is the team key", hide: true });
      },
    });
    const broken = defineExtension({
      name: "broken",
      setup(api) {
        api.reservePath("broken.txt", { why: "never" });
        throw new Error("setup fails after reserving");
      },
    });
    const { result } = await runScenario({
      cwd,
      extensions: [probe(), keeper, broken],
      turns: [{ content: [call("P", "show_reserved")] }, say("done")],
    });
    const shown = JSON.parse(firstResultText(result.messages)) as { path: string; by: string; hide: boolean }[];
    expect(shown).toEqual([
      { path: join(cwd, "state/log.jsonl"), hide: false, why: "it is keeper's log", by: "keeper" },
      { path: "/etc/team.key", hide: true, why: "it is the team key", by: "keeper" },
    ]);
  });

  it("reservePath after unload throws, and host.close() drops every extension's reservations", async () => {
    let kept: ExtensionAPI | undefined;
    const { host } = await runScenario({
      extensions: [
        defineExtension({
          name: "keeper",
          setup(api) {
            kept = api;
            api.reservePath("x", { why: "mine" });
          },
        }),
      ],
      turns: [say("hi")],
    });
    expect(kept?.reservedPaths().map((r) => r.by)).toEqual(["keeper"]);
    await host.close();
    expect(() => kept?.reservePath("y", { why: "late" })).toThrow(/after the extension was unloaded/);
  });

  it("the managed settings file and the code it enables are reserved by gatehouse", async () => {
    const p = makeProject();
    const guard = p.write("team/guard.ts", "export default { name: 'team-guard', setup() {} };\n");
    const managed = p.write("team/managed.json", JSON.stringify({ extensions: ["./guard.ts"] }));
    const { host } = await openHost(p, {
      trust: true,
      env: { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed },
      extensions: [probe("probe")],
      turns: [{ content: [call("P", "show_reserved")] }, say("done")],
    });
    const result = await host.run("go");
    const shown = JSON.parse(firstResultText(result.messages)) as { path: string; by: string }[];
    const paths = shown.filter((r) => r.by === "gatehouse").map((r) => r.path);
    expect(paths).toContain(managed);
    expect(paths).toContain(realpathSync(guard));
  });
});
