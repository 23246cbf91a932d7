import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { call, say } from "../helpers/scenario.ts";
import { firstResultText, makeProject, openHost, toolExtension } from "./project.ts";

const order = () => ((globalThis as { __ghLoadOrder?: string[] }).__ghLoadOrder ??= []);
beforeEach(() => {
  order().length = 0;
});

describe("discovery and load order (SPEC §5)", () => {
  it("loads managed settings, project settings, project folder, user settings, user folder — in that order", async () => {
    const p = makeProject(
      {
        ".gatehouse/settings.json": JSON.stringify({ extensions: ["./exts/from-project-settings.ts"] }),
        "exts/from-project-settings.ts": toolExtension("project-settings", "t2", "2"),
        ".gatehouse/extensions/b-folder.ts": toolExtension("project-folder-b", "t3b", "3b"),
        ".gatehouse/extensions/a-folder/index.ts": toolExtension("project-folder-a", "t3a", "3a"),
        "managed/m.ts": toolExtension("managed", "t1", "1"),
      },
      {
        "settings.json": JSON.stringify({ extensions: ["./mine/u.ts"] }),
        "mine/u.ts": toolExtension("user-settings", "t4", "4"),
        "extensions/u-folder.mjs": `export default function (api) { (globalThis.__ghLoadOrder ??= []).push("user-folder"); }`,
      },
    );
    const managed = p.write("managed/settings.json", JSON.stringify({ extensions: ["./m.ts"] }));
    const { host } = await openHost(p, { trust: true, env: { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed } });
    const expected = [
      "managed",
      "project-settings",
      "project-folder-a",
      "project-folder-b",
      "user-settings",
      "user-folder",
    ];
    expect(order()).toEqual(expected);
    expect(host.extensions().map((e) => e.name)).toEqual([
      "managed",
      "project-settings",
      "project-folder-a",
      "project-folder-b",
      "user-settings",
      "u-folder",
    ]);
    expect(host.extensions().every((e) => e.status === "loaded")).toBe(true);
  });

  it("a folder extension may be a package.json with main; helper folders without an entry are not extensions", async () => {
    const p = makeProject({
      ".gatehouse/extensions/pkg/package.json": JSON.stringify({ name: "pkg", main: "main.ts" }),
      ".gatehouse/extensions/pkg/main.ts": toolExtension("pkg", "pkg_tool", "from pkg"),
      ".gatehouse/extensions/lib/util.ts": "export const x = 1;",
    });
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions().map((e) => [e.name, e.status])).toEqual([["pkg", "loaded"]]);
  });

  it("package names resolve from the project's node_modules first, then from the host (first-party plugins)", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["local-ext", "@gatehouse/hello-tool"] }),
      "node_modules/local-ext/package.json": JSON.stringify({ name: "local-ext", main: "index.js" }),
      "node_modules/local-ext/index.js": `module.exports = { name: "local-ext", setup() {} };`,
    });
    const { host } = await openHost(p, { trust: true });
    const records = host.extensions();
    expect(records.map((r) => [r.name, r.status])).toEqual([
      ["local-ext", "loaded"],
      ["hello-tool", "loaded"],
    ]);
    expect(records[0]?.source).toBe("local-ext");
  });

  it("an unknown package or a missing path is a failed record naming the settings file; the rest load", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({
        extensions: ["no-such-package-xyz", "./missing.ts", "@gatehouse/hello-tool"],
      }),
    });
    const { host } = await openHost(p, { trust: true });
    const records = host.extensions();
    expect(records.map((r) => r.status)).toEqual(["failed", "failed", "loaded"]);
    expect(records[0]?.errors[0]).toContain('package "no-such-package-xyz"');
    expect(records[1]?.errors[0]).toContain(join(p.dir, ".gatehouse", "settings.json"));
  });

  it("an extensions folder that is a file, a link loop in it, or a package folder whose manifest names no entry is a failed record with the path and cause; the rest load", async () => {
    const p = makeProject(
      {
        ".gatehouse/extensions/good.ts": toolExtension("good", "good_tool", "ok"),
        ".gatehouse/extensions/badjson/package.json": "{ bad json",
        ".gatehouse/extensions/nomain/package.json": JSON.stringify({ main: "dist/index.js" }),
        ".gatehouse/extensions/helpers/util.ts": "export const x = 1;",
      },
      { extensions: "not a folder" },
    );
    symlinkSync("loop.ts", join(p.dir, ".gatehouse/extensions/loop.ts"));
    const { host } = await openHost(p, { trust: true });
    const byName = new Map(host.extensions().map((r) => [r.name, r]));
    expect([...byName.keys()].sort()).toEqual(["badjson", "extensions", "good", "loop", "nomain"]);
    expect(byName.get("good")?.status).toBe("loaded");
    expect(byName.get("badjson")?.errors[0]).toContain(
      `${join(p.dir, ".gatehouse/extensions/badjson/package.json")}:1:3`,
    );
    expect(byName.get("nomain")?.errors[0]).toContain("its entry dist/index.js does not exist");
    expect(byName.get("loop")?.errors[0]).toContain("(ELOOP)");
    expect(byName.get("extensions")?.errors[0]).toBe(
      `${join(p.home, "extensions")} cannot be read: not a directory (ENOTDIR)`,
    );
    for (const name of ["badjson", "nomain", "loop", "extensions"]) expect(byName.get(name)?.status).toBe("failed");
  });

  it("a drop-in that is a symbolic link leading nowhere, or an extensions folder that is one, is a failed record naming the link, never silently skipped", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": "{}" },
      { "extensions/good.ts": toolExtension("good", "good_tool", "ok") },
    );
    symlinkSync(join(p.dir, "dotfiles", "guard.ts"), join(p.home, "extensions", "guard.ts"));
    symlinkSync("../moved-extensions", join(p.dir, ".gatehouse", "extensions"));
    p.writeHome("extensions/folder-guard/lib.ts", "export const x = 1;");
    symlinkSync(join(p.dir, "dotfiles", "index.ts"), join(p.home, "extensions", "folder-guard", "index.ts"));
    const { host } = await openHost(p, { trust: true });
    const byName = new Map(host.extensions().map((r) => [r.name, r]));
    expect(byName.get("good")?.status).toBe("loaded");
    expect(byName.get("guard")?.status).toBe("failed");
    expect(byName.get("guard")?.errors[0]).toBe(
      `${join(p.home, "extensions", "guard.ts")} is a symbolic link to ${JSON.stringify(join(p.dir, "dotfiles", "guard.ts"))}, which does not exist: the extension it led to cannot be loaded`,
    );
    expect(byName.get("folder-guard")?.errors[0]).toBe(
      `${join(p.home, "extensions", "folder-guard", "index.ts")} is a symbolic link to ${JSON.stringify(join(p.dir, "dotfiles", "index.ts"))}, which does not exist: the extension it led to cannot be loaded`,
    );
    expect(byName.get("extensions")?.status).toBe("failed");
    expect(byName.get("extensions")?.errors[0]).toContain(
      `${join(p.dir, ".gatehouse", "extensions")} is a symbolic link to "../moved-extensions", which does not exist`,
    );
  });

  it("a drop-in whose file name is not UTF-8 is a failed record naming its bytes, never silently skipped", async () => {
    const p = makeProject({}, { "extensions/good.ts": toolExtension("good", "good_tool", "ok") });
    const dir = join(p.home, "extensions");
    const name = Buffer.concat([Buffer.from("guard-"), Buffer.from([0xff]), Buffer.from(".ts")]);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), toolExtension("guard", "guard_tool", "ok"));
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/.hidden-`), Buffer.from([0xfe])]), "");
    const { host } = await openHost(p, { trust: true });
    const records = host.extensions().map((r) => [r.name, r.status, r.errors[0]]);
    expect(records).toEqual([
      [
        "guard-\\xff.ts",
        "failed",
        `${dir}/guard-\\xff.ts: its name is not UTF-8, so it cannot be loaded; rename it (or move it out of ${dir})`,
      ],
      ["good", "loaded", undefined],
    ]);
  });

  it("a drop-in file imports @gatehouse/sdk and zod with nothing installed next to it, and its tool runs", async () => {
    const p = makeProject({
      ".gatehouse/extensions/zodtool.ts": `import { defineTool } from "@gatehouse/sdk";
import { z } from "zod";
export default (api: any) => api.registerTool(defineTool({
  name: "double", description: "doubles", parameters: z.object({ n: z.number() }), effects: () => [],
  execute: ({ n }) => ({ content: [{ type: "text", text: String(n * 2) }] }),
}));`,
    });
    const { host } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "double", { n: 21 })] }, say("ok")],
    });
    expect(host.extensions()[0]).toMatchObject({ name: "zodtool", status: "loaded", tools: ["double"] });
    const result = await host.run("go");
    expect(firstResultText(result.messages)).toBe("42");
  });
});
