import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GatehouseError } from "../../src/common/errors.ts";
import { call, say } from "../helpers/scenario.ts";
import { closeHosts, makeProject, openHost, type TestProject } from "./project.ts";

afterEach(closeHosts);

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A guard with a `mode` that may only move towards "block" below the level that sets it. */
const NO_WRITES = `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "no-writes", setup(api) {
  const cfg = api.config(z.strictObject({ mode: z.enum(["off", "block"]).default("block") }), {
    merge: { mode: { stricter: ["off", "block"] } },
  });
  api.on("tool_call", (e) => (e.toolName === "write" && cfg.mode === "block" ? { block: true, reason: "no-writes" } : undefined), { stage: "enforce" });
} });
`;

async function refused(p: TestProject): Promise<string> {
  try {
    await openHost(p, { trust: true });
  } catch (error) {
    expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
    return (error as Error).message;
  }
  throw new Error("expected createHost to reject with GH_GUARD_FAILED");
}

// Finding: a guard the user dropped into ~/.gatehouse/extensions/ (or listed as an object entry
// { "spec": … } in user settings) was not held to the user's floor: a cloned repository's
// "config": { "no-writes": { "mode": "off" } } switched it off and the write ran with exit 0. And
// where the floor did apply, the refused section only failed that extension: the run went on without it.
const HOMES: [string, Record<string, string>][] = [
  ["a drop-in in the user's folder", { "extensions/no-writes.ts": NO_WRITES }],
  [
    "an object entry in user settings",
    { "settings.json": pretty({ extensions: [{ spec: "./ext/no-writes.ts" }] }), "ext/no-writes.ts": NO_WRITES },
  ],
  [
    "a path in user settings",
    { "settings.json": pretty({ extensions: ["./ext/no-writes.ts"] }), "ext/no-writes.ts": NO_WRITES },
  ],
];

describe("the project's files configure an extension the user enables", () => {
  for (const [label, home] of HOMES) {
    it(`${label}: a looser value in either project file stops the host, naming the file`, async () => {
      for (const file of [".gatehouse/settings.json", ".gatehouse/settings.local.json"]) {
        const p = makeProject({ [file]: pretty({ config: { "no-writes": { mode: "off" } } }) }, home);
        const message = await refused(p);
        expect(message).toContain(`${join(p.dir, file)} configures it`);
        expect(message).toContain(
          `${join(p.dir, file)}:4:15: config["no-writes"].mode: "off" is looser than the floor`,
        );
      }
    });
  }

  it("a section of the wrong type that fails the user's extension stops the host too", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ config: { "no-writes": { mode: 5 } } }) },
      HOMES[0]?.[1],
    );
    expect(await refused(p)).toContain('config["no-writes"].mode');
  });

  it("a section that only tightens loads, and the guard blocks", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ config: { "no-writes": { mode: "block" } } }) },
      HOMES[0]?.[1],
    );
    const { host, events } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "write", { path: "x.txt", content: "x" })] }, say("done")],
    });
    expect(host.extensions()[0]).toMatchObject({ name: "no-writes", status: "loaded" });
    await host.run("go");
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ outcome: "blocked" });
  });

  // Finding: a cloned repository's "hookTimeoutMs": 1 made the async setup of the user's drop-in
  // guard time out: it failed alone, and the write it blocks ran with exit 0.
  it("a project's hookTimeoutMs that fails the user's extension stops the host too", async () => {
    const slow = NO_WRITES.replace(
      "setup(api) {",
      "async setup(api) {\n  await new Promise((r) => setTimeout(r, 50));",
    );
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ hookTimeoutMs: 1 }) },
      { "extensions/no-writes.ts": slow },
    );
    const message = await refused(p);
    expect(message).toContain(`${join(p.dir, ".gatehouse/settings.json")} sets hookTimeoutMs 1`);
    expect(message).toContain("did not finish within 1 ms");
  });
});

/** A guard whose section may also be `false` ("off"), a common shorthand: a section that is not an object. */
const ENV_GUARD = `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "env-guard", setup(api) {
  const cfg = api.config(
    z.union([z.literal(false), z.strictObject({ deny: z.array(z.string()).default([".env"]) })]).default({ deny: [".env"] }),
    { merge: { deny: "union" } },
  );
  api.on("tool_call", (e) => (cfg !== false && e.toolName === "write" ? { block: true, reason: "env-guard" } : undefined), { stage: "enforce" });
} });
`;

// Finding: a section that is not an object skipped every floor (the strongest level's value won
// whole): a project's "config": { "env-guard": false } switched off a guard that the user's folder
// or managed settings enable, and the write it blocks ran with exit 0.
describe("a section that is not an object, below a floor", () => {
  it("a project's false for a guard the user enables stops the host, naming the file", async () => {
    for (const user of [{}, { config: { "env-guard": { deny: [".env"] } } }]) {
      const p = makeProject(
        { ".gatehouse/settings.json": pretty({ config: { "env-guard": false } }) },
        { "extensions/env-guard.ts": ENV_GUARD, "settings.json": pretty(user) },
      );
      const message = await refused(p);
      expect(message).toContain(
        `${join(p.dir, ".gatehouse/settings.json")}:3:18: config.env-guard: false replaces the whole section that user settings`,
      );
    }
  });

  it("a project's or the user's false for a guard managed settings enable stops the host", async () => {
    for (const [where, home] of [
      [".gatehouse/settings.json", {}],
      ["settings.json", { "settings.json": pretty({ config: { "env-guard": false } }) }],
    ] as const) {
      const p = makeProject(
        where === ".gatehouse/settings.json" ? { [where]: pretty({ config: { "env-guard": false } }) } : {},
        home,
      );
      const guard = p.write("managed/env-guard.ts", ENV_GUARD);
      const managed = p.write("etc/managed.json", pretty({ extensions: [guard] }));
      p.env.GATEHOUSE_MANAGED_SETTINGS = managed;
      const message = await refused(p);
      const file = where === "settings.json" ? join(p.home, where) : join(p.dir, where);
      expect(message).toContain(
        `${file}:3:18: config.env-guard: false replaces the whole section that managed settings leave at its default`,
      );
    }
  });

  it("a lower level that repeats the floor's own value loads, and the guard blocks", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ config: { "env-guard": { deny: [".env"] } } }) },
      {
        "extensions/env-guard.ts": ENV_GUARD,
        "settings.json": pretty({ config: { "env-guard": { deny: [".env"] } } }),
      },
    );
    const { host, events } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "write", { path: "x.txt", content: "x" })] }, say("done")],
    });
    expect(host.extensions()[0]).toMatchObject({ name: "env-guard", status: "loaded" });
    await host.run("go");
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ outcome: "blocked" });
  });
});

/** A guard whose list and whose object of fields a schema also takes as `false` ("off"). */
const LIST_GUARD = `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "list-guard", setup(api) {
  const cfg = api.config(
    z.strictObject({
      deny: z.union([z.array(z.string()), z.literal(false)]).default(["x.txt"]),
      limits: z.union([z.literal(false), z.strictObject({ writes: z.enum(["off", "block"]).default("block") })]).default({ writes: "block" }),
    }),
    { merge: { deny: "union", limits: { fields: { writes: { stricter: ["off", "block"] } } } } },
  );
  api.on("tool_call", (e) => (cfg.deny !== false && cfg.limits !== false && e.toolName === "write" ? { block: true, reason: "list-guard" } : undefined), { stage: "enforce" });
} });
`;

// Finding: the same bypass one key down: a union key or an object of fields whose value at a lower
// level was not a list or an object let that level's value win whole ("deny": false, "limits":
// false), and the write the guard blocks ran.
describe("a key whose value has another shape than its merge rule, below a floor", () => {
  for (const section of [{ deny: false }, { limits: false }]) {
    it(`${JSON.stringify(section)} in the project's file is refused below the user's floor`, async () => {
      const p = makeProject(
        { ".gatehouse/settings.json": pretty({ config: { "list-guard": section } }) },
        { "extensions/list-guard.ts": LIST_GUARD },
      );
      const key = Object.keys(section)[0] as string;
      expect(await refused(p)).toContain(`${join(p.dir, ".gatehouse/settings.json")}:4:`);
      expect(await refused(p)).toContain(`config["list-guard"].${key}: only your user settings may set this key`);
    });
  }

  it("lists and objects still merge by their rules: a project adds a deny and the guard blocks", async () => {
    const p = makeProject(
      { ".gatehouse/settings.json": pretty({ config: { "list-guard": { deny: ["y.txt"], limits: {} } } }) },
      { "extensions/list-guard.ts": LIST_GUARD },
    );
    const { host, events } = await openHost(p, {
      trust: true,
      turns: [{ content: [call("A", "write", { path: "x.txt", content: "x" })] }, say("done")],
    });
    expect(host.extensions()[0]).toMatchObject({ name: "list-guard", status: "loaded" });
    await host.run("go");
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ outcome: "blocked" });
  });
});
