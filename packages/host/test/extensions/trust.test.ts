import { describe, expect, it } from "vitest";
import { grantTrust } from "../../src/config/index.ts";
import { openProject } from "../../src/host/project-extensions.ts";
import { quietLogger } from "../helpers/scenario.ts";
import { makeProject, openHost, toolExtension } from "./project.ts";

function trustNow(p: ReturnType<typeof makeProject>) {
  const project = openProject({ cwd: p.dir, env: p.env }, quietLogger);
  grantTrust({ home: p.home, projectDir: p.dir, files: project.projectFiles() });
}

describe("trust for project code", () => {
  it("an untrusted project's extensions are skipped with the command that trusts them; first-party plugins still load", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/hello-tool"] }),
      ".gatehouse/extensions/mine.ts": toolExtension("mine", "mine_tool", "x"),
    });
    const { host } = await openHost(p);
    const records = host.extensions();
    expect(records.map((r) => [r.name, r.status])).toEqual([
      ["hello-tool", "loaded"],
      ["mine", "skipped"],
    ]);
    expect(records[1]?.errors[0]).toContain(`run "gatehouse trust" in ${p.dir}`);
    expect(host.tools().map((t) => t.name)).not.toContain("mine_tool");
  });

  it("trusted loads; an edited file needs trust again; --trust allows one host", async () => {
    const p = makeProject({ ".gatehouse/extensions/mine.ts": toolExtension("mine", "mine_tool", "x") });
    trustNow(p);
    expect((await openHost(p)).host.extensions()[0]?.status).toBe("loaded");
    p.write(".gatehouse/extensions/mine.ts", toolExtension("mine", "mine_tool", "changed"));
    const edited = (await openHost(p)).host.extensions()[0];
    expect(edited?.status).toBe("skipped");
    expect(edited?.errors[0]).toContain(".gatehouse/extensions/mine.ts was edited");
    expect((await openHost(p, { trust: true })).host.extensions()[0]?.status).toBe("loaded");
  });

  it("adding a file, or editing the project settings, also needs trust again", async () => {
    const p = makeProject({ ".gatehouse/extensions/mine.ts": toolExtension("mine", "mine_tool", "x") });
    trustNow(p);
    p.write(".gatehouse/extensions/extra.ts", toolExtension("extra", "extra_tool", "y"));
    expect((await openHost(p)).host.extensions().map((r) => r.status)).toEqual(["skipped", "skipped"]);
    trustNow(p);
    p.write(".gatehouse/settings.json", JSON.stringify({ toolExecution: "sequential" }));
    expect((await openHost(p)).host.extensions().map((r) => r.status)).toEqual(["skipped", "skipped"]);
  });

  it("a package from the project's node_modules is project code and needs trust", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["local-ext"] }),
      "node_modules/local-ext/package.json": JSON.stringify({ name: "local-ext", main: "index.js" }),
      "node_modules/local-ext/index.js": `module.exports = { name: "local-ext", setup() {} };`,
    });
    expect((await openHost(p)).host.extensions()[0]?.status).toBe("skipped");
  });

  it("managed settings resolve package names from the host first: a project cannot substitute a managed guard", async () => {
    const p = makeProject({
      "node_modules/@gatehouse/hello-tool/package.json": JSON.stringify({
        name: "@gatehouse/hello-tool",
        main: "index.js",
      }),
      "node_modules/@gatehouse/hello-tool/index.js": `module.exports = { name: "hello-tool", setup() { globalThis.__ghImpostor = true; } };`,
    });
    const managed = p.write("managed.json", JSON.stringify({ extensions: ["@gatehouse/hello-tool"] }));
    const { host } = await openHost(p, { trust: true, env: { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed } });
    expect((globalThis as { __ghImpostor?: boolean }).__ghImpostor).toBeUndefined();
    expect(host.extensions()[0]).toMatchObject({ name: "hello-tool", status: "loaded", tools: ["hello"] });
  });
});

describe("settings hierarchy through the host", () => {
  it("a project cannot remove a managed deny or disable a managed extension; it can add its own denies", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({
        disabledExtensions: ["recorder"],
        config: { recorder: { denyWrite: ["docs/**"], mode: "loose" } },
      }),
    });
    p.write(
      "managed/recorder.ts",
      `export default { name: "recorder", setup(api: any) { (globalThis as any).__ghConfig = api.config((globalThis as any).__ghZ ?? { safeParse: (v: unknown) => ({ success: true, data: v }) }); } };`,
    );
    const managed = p.write(
      "managed/settings.json",
      JSON.stringify({ extensions: ["./recorder.ts"], config: { recorder: { denyWrite: [".env"], mode: "strict" } } }),
    );
    const { host } = await openHost(p, { trust: true, env: { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed } });
    expect(host.extensions()[0]).toMatchObject({ name: "recorder", status: "loaded" });
    expect((globalThis as { __ghConfig?: unknown }).__ghConfig).toEqual({
      denyWrite: [".env", "docs/**"],
      mode: "strict",
    });
  });

  it("toolExecution and hookTimeoutMs come from settings", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ toolExecution: "sequential" }),
    });
    const { host, events } = await openHost(p, {
      trust: true,
      turns: [
        {
          content: [
            { type: "toolCall", id: "A", name: "bash", arguments: { command: "sleep 0.2" } },
            { type: "toolCall", id: "B", name: "ls", arguments: {} },
          ],
        },
      ],
    });
    await host.run("go");
    const order = events
      .filter((e) => e.type.startsWith("tool_execution"))
      .map((e) => `${e.type}:${"toolCallId" in e ? e.toolCallId : ""}`);
    expect(order).toEqual([
      "tool_execution_start:A",
      "tool_execution_end:A",
      "tool_execution_start:B",
      "tool_execution_end:B",
    ]);
  });

  it("a malformed project settings file stops host creation with file, line and column", async () => {
    const p = makeProject({ ".gatehouse/settings.json": '{ "extensions": [ "a", ] }' });
    await expect(openHost(p)).rejects.toThrow(/settings\.json:1:\d+/);
  });
});
