import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { closeHosts, makeProject, openHost, type TestProject, toolExtension } from "./project.ts";

afterEach(closeHosts);

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const GUARDS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];

async function refused(p: TestProject, env: NodeJS.ProcessEnv = p.env): Promise<string> {
  try {
    await openHost(p, { trust: true, env });
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
    return (error as Error).message;
  }
  throw new Error("expected createHost to reject with GH_GUARD_FAILED");
}

// Finding: a project's disabledExtensions turned off guards the user's own settings enable (exit 0).
describe("a guard a stronger level enables cannot be turned off from below", () => {
  it("the probe: user settings enable both guards; the project lists and disables them; the host stops naming the project file", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ extensions: GUARDS, disabledExtensions: GUARDS }) },
      { "settings.json": pretty({ extensions: GUARDS }) },
    );
    const message = await refused(p);
    const file = join(p.dir, ".gatehouse/settings.json");
    expect(message).toContain(
      `disabledExtensions entry "@gatehouse/protected-paths" at ${file}:7:5 (project settings)`,
    );
    expect(message).toContain(`user settings (${join(p.home, "settings.json")}) enable`);
    expect(message).toContain(`"@gatehouse/tool-audit" at ${file}:8:5`);
  });

  it.each([
    ["project settings, by the unscoped name", ".gatehouse/settings.json", "protected-paths"],
    ["project local settings", ".gatehouse/settings.local.json", "@gatehouse/protected-paths"],
  ])("user settings enable a guard; %s turn it off: refused", async (_, file, entry) => {
    const p = makeProject(
      { [file]: pretty({ disabledExtensions: [entry] }) },
      { "settings.json": pretty({ extensions: ["@gatehouse/protected-paths"] }) },
    );
    expect(await refused(p)).toContain(`disabledExtensions entry "${entry}" at ${join(p.dir, file)}:3:5`);
  });

  it("managed settings enable a guard: neither the project nor the user can turn it off", async () => {
    for (const [file, where] of [
      [".gatehouse/settings.json", "project settings"],
      ["~/settings.json", "user settings"],
    ] as const) {
      const p = makeProject();
      const managed = p.write("managed/settings.json", pretty({ extensions: ["@gatehouse/tool-audit"] }));
      const disable = pretty({ disabledExtensions: ["tool-audit"] });
      if (file.startsWith("~")) p.writeHome("settings.json", disable);
      else p.write(file, disable);
      const message = await refused(p, { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed });
      expect(message).toContain(`(${where}) turns off a guard that managed settings (${managed}) enable`);
    }
  });

  it("an entry marked required in user settings is a guard too", async () => {
    const p = makeProject();
    const policy = p.writeHome("ext/policy.ts", toolExtension("policy", "p", "p"));
    p.writeHome("settings.json", pretty({ extensions: [{ spec: policy, required: true }] }));
    p.write(".gatehouse/settings.json", pretty({ disabledExtensions: [policy, "policy"] }));
    expect(await refused(p)).toContain(
      `"${policy}" at ${join(p.dir, ".gatehouse/settings.json")}:3:5 (project settings) turns off a guard that user settings`,
    );
    // Not required, the project still cannot turn it off, by its spec or its name.
    p.writeHome("settings.json", pretty({ extensions: [policy] }));
    expect(await refused(p)).toContain(
      `"${policy}" at ${join(p.dir, ".gatehouse/settings.json")}:3:5 (project settings) turns off an extension that user settings`,
    );
  });
});

describe("what disabledExtensions still turns off", () => {
  it("a guard only the project enables, turned off by the project (by either name): off, the host opens", async () => {
    for (const entry of ["@gatehouse/protected-paths", "protected-paths"]) {
      const p = makeProject({
        ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/protected-paths"], disabledExtensions: [entry] }),
      });
      const { host } = await openHost(p, { trust: true });
      expect(host.extensions()[0]).toMatchObject({ status: "skipped", required: false });
    }
  });

  it("the user turns off a guard the user enables", async () => {
    const p = makeProject(
      {},
      {
        "settings.json": pretty({
          extensions: ["@gatehouse/tool-audit", "./ext/tool.ts"],
          disabledExtensions: ["tool-audit"],
        }),
        "ext/tool.ts": toolExtension("tool", "t", "t"),
      },
    );
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions().map((e) => e.status)).toEqual(["skipped", "loaded"]);
  });
});

// Before: "helo-tool" turned nothing off and hello-tool ran, while the settings read as if it were off.
describe("a disabledExtensions entry that turns off nothing", () => {
  it("in the project's files is a settings error naming the file, line and the name it was meant as", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/hello-tool"], disabledExtensions: ["helo-tool"] }),
    });
    const error = await openHost(p, { trust: true }).then(
      () => undefined,
      (e: unknown) => e as GatehouseError,
    );
    expect(error?.code).toBe("GH_SETTINGS_INVALID");
    expect(error?.message).toContain(
      `${join(p.dir, ".gatehouse/settings.json")}:6:5: disabledExtensions entry "helo-tool" turns off no extension (did you mean "hello-tool"?)`,
    );
  });

  it("in user settings (which serve every project) only a near miss counts", async () => {
    const homeFiles = { "settings.json": pretty({ disabledExtensions: ["some-other-projects-tool"] }) };
    const p = makeProject({ ".gatehouse/settings.json": pretty({ extensions: ["@gatehouse/hello-tool"] }) }, homeFiles);
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions().map((e) => e.status)).toEqual(["loaded"]);
    p.writeHome("settings.json", pretty({ disabledExtensions: ["hello-tol"] }));
    await expect(openHost(p, { trust: true })).rejects.toThrow(
      /"hello-tol" turns off no extension \(did you mean "hello-tool"\?\)/,
    );
  });
});

// Finding: a cloned repository's .gatehouse/settings.json with "disabledExtensions": ["no-writes"]
// turned off the guard the user dropped into ~/.gatehouse/extensions/ (not "required", so it was a
// plain skip): the write it blocks ran and the run exited 0.
describe("what the user enables, the project's files cannot turn off (guard or not)", () => {
  const noWrites = `import { defineExtension } from "@gatehouse/sdk";
export default defineExtension({ name: "no-writes", setup(api) {
  api.on("tool_call", (e) => (e.toolName === "write" ? { block: true, reason: "no-writes" } : undefined), { stage: "enforce" });
} });
`;
  for (const [label, homeFiles] of [
    ["a drop-in in the user's folder", { "extensions/no-writes.ts": noWrites }],
    [
      "an extension the user's settings list",
      { "settings.json": pretty({ extensions: ["./ext/no-writes.ts"] }), "ext/no-writes.ts": noWrites },
    ],
  ] as const) {
    for (const file of [".gatehouse/settings.json", ".gatehouse/settings.local.json"]) {
      it(`${label}, turned off in ${file} by any of its names: the host stops naming the entry`, async () => {
        for (const entry of ["no-writes", label.startsWith("a drop-in") ? "no-writes" : "./ext/no-writes.ts"]) {
          const p = makeProject({ [file]: pretty({ disabledExtensions: [entry] }) }, homeFiles);
          const message = await refused(p);
          expect(message).toContain(`disabledExtensions entry ${JSON.stringify(entry)} at ${join(p.dir, file)}:3:5`);
          expect(message).toContain("cannot turn off what user settings enable");
        }
      });
    }
  }
});
