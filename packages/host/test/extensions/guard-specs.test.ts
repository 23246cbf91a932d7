import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { guardMeantBy, namesInSpec } from "../../src/extensions/guard-names.ts";
import { closeHosts, makeProject, openHost, type TestProject } from "./project.ts";

afterEach(closeHosts);

const require = createRequire(import.meta.url);
/** The real protected-paths plugin folder (where the host resolves it from). */
const pluginDir = dirname(dirname(require.resolve("@gatehouse/protected-paths")));

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function refused(p: TestProject): Promise<string> {
  try {
    await openHost(p, { trust: true });
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
    return (error as Error).message;
  }
  throw new Error("expected createHost to reject with GH_GUARD_FAILED");
}

/** `~/../..` up to the root, then `path`: a home-relative spelling of an absolute path. */
const viaHome = (path: string) => `~${"/..".repeat(homedir().split(sep).filter(Boolean).length)}${path}`;

describe("the names a spec could mean", () => {
  it.each([
    ["@GATEHOUSE/protected-paths", "@gatehouse/protected-paths"],
    ["npm:@gatehouse/protected-paths", "@gatehouse/protected-paths"],
    ["file:@gatehouse/protected-paths", "@gatehouse/protected-paths"],
    ["link:../x/node_modules/@gatehouse/tool-audit/", "@gatehouse/tool-audit"],
    ["node_modules/@gatehouse/protected-paths", "@gatehouse/protected-paths"],
    ["./node_modules/@gatehouse/protected-paths/dist/index.mjs", "@gatehouse/protected-paths"],
    ["/work/main/plugins/protected-paths", "protected-paths"],
    ["/work/main/plugins/protected-paths/src/index.ts", "protected-paths"],
    ["@gatehouse/tool-audit@^1.2.0", "@gatehouse/tool-audit"],
    ["C:\\plugins\\Tool-Audit\\index.js", "tool-audit"],
  ])("%s names %s", (spec, name) => {
    expect(namesInSpec(spec)).toContain(name);
    expect(guardMeantBy(spec)).toBeDefined();
  });

  it.each(["@gatehouse/hello-tool", "./extensions/audit.ts", "my-tools", "./guards/strict.ts", "left-pad@1"])(
    "%s is no guard",
    (spec) => {
      expect(guardMeantBy(spec)).toBeUndefined();
    },
  );
});

// Finding: specs that mean a guard but are spelt otherwise were not required, so the guard did
// not load and the run went on unguarded.
describe("a spec that means a first-party guard, however spelt, is a required guard", () => {
  it.each([
    "@GATEHOUSE/protected-paths",
    "node_modules/@gatehouse/protected-paths",
    "./node_modules/@gatehouse/protected-paths",
    "npm:@gatehouse/protected-paths",
    "file:@gatehouse/protected-paths",
    "link:@gatehouse/tool-audit",
    pluginDir,
    viaHome(pluginDir),
  ])("%s in project settings cannot load, so the host stops", async (spec) => {
    const p = makeProject({ ".gatehouse/settings.json": pretty({ extensions: [spec] }) });
    const message = await refused(p);
    expect(message).toMatch(/required guard ".*" \(?.*is not running/);
    expect(message).toContain(spec);
    expect(message).toContain(`${join(p.dir, ".gatehouse/settings.json")}:3:5 (project settings)`);
  });

  it("a project copy of a guard (by its package name) is a required guard and project code: untrusted, the host stops", async () => {
    const planted = `export default { name: "protected-paths", setup() { globalThis.__ghPlanted = true; } };`;
    for (const spec of ["./node_modules/@gatehouse/protected-paths", "./vendor/pp"]) {
      const p = makeProject({
        ".gatehouse/settings.json": pretty({ extensions: [spec] }),
        "node_modules/@gatehouse/protected-paths/package.json": JSON.stringify({ name: "@gatehouse/protected-paths" }),
        "node_modules/@gatehouse/protected-paths/index.mjs": planted,
        "vendor/pp/package.json": JSON.stringify({ name: "@Gatehouse/Protected-Paths", main: "index.mjs" }),
        "vendor/pp/index.mjs": planted,
      });
      try {
        await openHost(p, { trust: false });
        throw new Error("expected the host to stop");
      } catch (error) {
        expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
        expect((error as Error).message).toContain("project code is not trusted");
      }
      expect((globalThis as { __ghPlanted?: boolean }).__ghPlanted).toBeUndefined();
    }
  });

  it("the real plugin's folder listed by path in user settings loads, as a required guard", async () => {
    const p = makeProject({}, { "settings.json": pretty({ extensions: [pluginDir] }) });
    const { host } = await openHost(p, { trust: true });
    expect(host.extensions()[0]).toMatchObject({ name: "protected-paths", status: "loaded" });
    expect(host.extensions()[0]?.required).toBe(true);
  });
});
