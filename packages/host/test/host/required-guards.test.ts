import { join } from "node:path";
import { protectedPaths } from "@gatehouse/protected-paths";
import { defineTool, type GatehouseEvent, z } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { createHost } from "../../src/host/create-host.ts";
import type { Host } from "../../src/host/types.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { closeHosts, makeProject, openHost, type TestProject, toolExtension } from "../extensions/project.ts";
import { call, quietLogger, say } from "../helpers/scenario.ts";

afterEach(closeHosts);

/** Opens a host that is expected to be refused; returns the GatehouseError. */
async function refused(p: TestProject, env: NodeJS.ProcessEnv = p.env, trust = true): Promise<GatehouseError> {
  try {
    await openHost(p, { trust, env });
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
    return error as GatehouseError;
  }
  throw new Error("expected createHost to reject with GH_GUARD_FAILED");
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe("a guard whose configuration has a typo stops the host, naming the file, line, column and level", () => {
  it("in the project settings", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { denyWrites: [".env"] } },
      }),
    });
    const error = await refused(p);
    const file = join(p.dir, ".gatehouse/settings.json");
    expect(error.message).toContain(`required guard "protected-paths" (@gatehouse/protected-paths) is not running`);
    expect(error.message).toContain(`enabled at ${file}:3:5 (project settings)`);
    expect(error.message).toContain(
      `${file}:7:21: config["protected-paths"].denyWrites: Unrecognized key: "denyWrites"`,
    );
    expect(error.message).toContain("(project settings)");
  });

  it("in the project local settings", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/tool-audit"] }),
      ".gatehouse/settings.local.json": pretty({ config: { "tool-audit": { onWriteError: "ignore" } } }),
    });
    const error = await refused(p);
    const local = join(p.dir, ".gatehouse/settings.local.json");
    expect(error.message).toMatch(
      new RegExp(`${local}:4:23: config\\["tool-audit"\\]\\.onWriteError: .*"ignore".*\\(project local settings\\)`),
    );
  });

  it("in the managed settings", async () => {
    const p = makeProject();
    const managed = p.write(
      "etc/managed.json",
      pretty({ extensions: ["@gatehouse/protected-paths"], config: { "protected-paths": { bash: "sometimes" } } }),
    );
    const error = await refused(p, { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed });
    expect(error.message).toContain("enabled by managed settings");
    expect(error.message).toMatch(
      new RegExp(`${managed}:7:15: config\\["protected-paths"\\]\\.bash: .*\\(managed settings\\)`),
    );
  });

  it("a project key under a managed guard is the project's error, never the managed file's", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ config: { "protected-paths": { denyWrite: ["x"], surprise: true } } }),
    });
    const managed = p.write("etc/managed.json", pretty({ extensions: ["@gatehouse/protected-paths"] }));
    const error = await refused(p, { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed });
    const project = join(p.dir, ".gatehouse/settings.json");
    expect(error.message).toContain(
      `${project}:7:19: config["protected-paths"].surprise: Unrecognized key: "surprise"`,
    );
    expect(error.message).not.toMatch(new RegExp(`${managed}:\\d+:\\d+: config`));
  });
});

describe("required guards", () => {
  it('an entry marked "required" that fails to set up stops the host; the same entry without it is isolated', async () => {
    const throwing = `export default { name: "strict", setup() { throw new Error("no policy file"); } };`;
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: [{ spec: "./guards/strict.ts", required: true }] }),
      "guards/strict.ts": throwing,
    });
    const error = await refused(p);
    expect(error.message).toContain(`marked "required" in project settings`);
    expect(error.message).toContain(`${join(p.dir, ".gatehouse/settings.json")}:3:5 (project settings)`);
    expect(error.message).toContain("no policy file");
    p.write(".gatehouse/settings.json", pretty({ extensions: ["./guards/strict.ts"] }));
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions()[0]).toMatchObject({ name: "strict", status: "failed", required: false });
  });

  it("a required package that is not installed, or untrusted project code, stops the host", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: [{ spec: "@corp/missing", required: true }] }),
    });
    expect((await refused(p)).message).toContain('package "@corp/missing"');
    const q = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: [{ spec: "./guard.ts", required: true }] }),
      "guard.ts": toolExtension("guard", "g", "g"),
    });
    expect((await refused(q, q.env, false)).message).toContain("project code is not trusted");
  });

  it("a first-party guard given in code with a bad configuration rejects createHost", async () => {
    const creating = createHost({
      cwd: makeProject().dir,
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [protectedPaths],
      config: { "protected-paths": { bash: "loose" } },
    });
    await expect(creating).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
    await expect(creating).rejects.toThrow(/createHost\(\{ extensions \}\)[\s\S]*bash/);
  });

  it("inspect mode reports the failed guard instead of rejecting, and run() still refuses", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { denyWrites: [] } },
      }),
    });
    const { host } = await openHost(p, { inspect: true });
    expect(host.extensions()[0]).toMatchObject({ name: "protected-paths", status: "failed", required: true });
    await expect(host.run("go")).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
  });

  it("a required guard whose reload fails keeps its last good version: it is never unloaded", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/protected-paths"] }),
      ".env": "SECRET=1",
    });
    const { host, events } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "write", { path: ".env", content: "x" })] }, say("ok")],
    });
    p.write(
      ".gatehouse/settings.json",
      pretty({ extensions: ["@gatehouse/protected-paths"], config: { "protected-paths": { denyWrites: [] } } }),
    );
    await host.reload();
    expect(host.extensions()[0]).toMatchObject({ name: "protected-paths", status: "loaded", required: true });
    expect(host.extensions()[0]?.errors[0]).toContain("reload failed, keeping the last good version");
    const result = await host.run("go");
    const end = events.find((e) => e.type === "tool_execution_end") as Extract<
      GatehouseEvent,
      { type: "tool_execution_end" }
    >;
    expect(end.outcome).toBe("blocked");
    expect(result.stopReason).toBe("stop");
  });

  it("a required guard that is not running after a reload stops the run at the next turn, and run() refuses", async () => {
    const p = makeProject({ ".gatehouse/settings.json": pretty({}) });
    let hostRef: Host | undefined;
    const enable = defineTool({
      name: "enable_guard",
      description: "lists a required guard that cannot load, and asks for a reload",
      parameters: z.object({}),
      effects: () => [],
      execute: () => {
        p.write(".gatehouse/settings.json", pretty({ extensions: [{ spec: "./missing-guard.ts", required: true }] }));
        void hostRef?.reload();
        return { content: [{ type: "text", text: "listed" }] };
      },
    });
    const { host } = await openHost(p, {
      trust: true,
      tools: [enable],
      turns: [{ content: [call("A", "enable_guard")] }, { content: [call("B", "enable_guard")] }, say("ok")],
    });
    hostRef = host;
    const result = await host.run("go");
    expect(result.stoppedBy?.extension).toBe("gatehouse");
    expect(result.errorMessage).toMatch(/required guard "missing-guard".*is not running[\s\S]*no such file or folder/);
    expect(result.messages.filter((m) => m.role === "toolResult")).toHaveLength(1);
    await expect(host.run("again")).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
  });
});

describe("a misspelt first-party guard stops the host instead of leaving the project unguarded", () => {
  it.each([
    "@gatehouse/protected-path",
    "@gatehouse/tool-audits",
    "@gatehuose/protected-paths",
    "@gatehouse/path-guard",
    "protected-paths",
    "tool-audits",
  ])("%s", async (spec) => {
    const p = makeProject({ ".gatehouse/settings.json": pretty({ extensions: [spec] }) });
    const error = await refused(p);
    expect(error.message).toContain(`required guard "${spec}"`);
    expect(error.message).toMatch(/misspelt|Gatehouse's own package scope/);
  });
});

describe("a config section that configures no extension stops the host (a typo would leave a guard on its defaults)", () => {
  async function invalid(p: TestProject, env: NodeJS.ProcessEnv = p.env): Promise<GatehouseError> {
    try {
      await openHost(p, { trust: true, env });
    } catch (error) {
      expect(error).toBeInstanceOf(GatehouseError);
      expect((error as GatehouseError).code).toBe("GH_SETTINGS_INVALID");
      return error as GatehouseError;
    }
    throw new Error("expected createHost to reject with GH_SETTINGS_INVALID");
  }

  it("in the project settings, naming the section and the extension it was meant for", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-path": { denyWrite: ["secrets/**"] } },
      }),
    });
    const error = await invalid(p);
    const file = join(p.dir, ".gatehouse/settings.json");
    expect(error.message).toContain(
      `config["protected-path"] configures no extension (did you mean "protected-paths"?); a misspelt section leaves its extension on its defaults`,
    );
    expect(error.message).toMatch(new RegExp(`${file}:6:\\d+: config\\["protected-path"\\]`));
  });

  it("in the managed settings", async () => {
    const p = makeProject();
    const managed = p.write(
      "etc/managed.json",
      pretty({ extensions: ["@gatehouse/protected-paths"], config: { protectedpaths: { denyWrite: ["x/**"] } } }),
    );
    const error = await invalid(p, { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed });
    expect(error.message).toMatch(
      new RegExp(`${managed}:6:\\d+: config\\["protectedpaths"\\] configures no extension`),
    );
  });

  it.each(["PROTECTED-PATHS", "@gatehouse/protected-paths", "Protected_Paths"])(
    "in managed settings, a section spelt with another case, the package scope or other separators (%s) is a typo too",
    async (section) => {
      const p = makeProject();
      const managed = p.write(
        "etc/managed.json",
        pretty({ extensions: ["@gatehouse/protected-paths"], config: { [section]: { denyRead: ["x/**"] } } }),
      );
      const error = await invalid(p, { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed });
      expect(error.message).toContain(
        `${managed}:6:${section.length + 9}: config[${JSON.stringify(section)}] configures no extension (did you mean "protected-paths"?)`,
      );
    },
  );

  it("user settings may configure an extension this project does not enable, but not misspell one it does", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/protected-paths"] }) },
      { "settings.json": pretty({ config: { "tool-audit": { fsync: "every" }, "hello-tool": {} } }) },
    );
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions().map((r) => r.name)).toEqual(["protected-paths"]);
    await host.close();
    p.writeHome("settings.json", pretty({ config: { "protected-path": { denyWrite: ["x/**"] } } }));
    const error = await invalid(p);
    expect(error.message).toContain(
      'config["protected-path"] configures no extension (did you mean "protected-paths"?)',
    );
  });

  it("createHost({ config }) with a section no extension of the host reads is refused", async () => {
    const error = await createHost({
      cwd: makeProject().dir,
      discover: false,
      extensions: [protectedPaths],
      config: { "protected-path": { denyWrite: ["x/**"] } },
      model: createScriptedModel({ turns: [say("hi")] }),
      logger: quietLogger,
    }).then(
      () => undefined,
      (e: unknown) => e as GatehouseError,
    );
    expect(error?.code).toBe("GH_SETTINGS_INVALID");
    expect(error?.message).toContain(
      `createHost({ config })["protected-path"] configures none of the host's extensions`,
    );
  });

  it("a section for an extension the settings enable is fine, loaded or disabled", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { denyWrite: ["secrets/**"] } },
      }),
    });
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions().map((r) => r.name)).toContain("protected-paths");
  });
});
