import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GatehouseError } from "../../src/common/errors.ts";
import type { ExtensionRecord } from "../../src/extensions/types.ts";
import { closeHosts, makeProject, openHost, type TestProject } from "../extensions/project.ts";

afterEach(closeHosts);

type Lower = "project" | "projectLocal";
const FILES: Record<Lower, string> = {
  project: ".gatehouse/settings.json",
  projectLocal: ".gatehouse/settings.local.json",
};
const LABELS: Record<Lower, string> = { project: "project settings", projectLocal: "project local settings" };
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

interface Floor {
  plugin: "@gatehouse/protected-paths" | "@gatehouse/tool-audit";
  name: "protected-paths" | "tool-audit";
  /** Managed's section; `undefined`: managed enables the guard and says nothing else. */
  section?: Record<string, unknown>;
}

/** A project whose managed settings enable `floor.plugin`, and whose `lower` level sets `section`. */
function floorProject(floor: Floor, lower: Lower, section: Record<string, unknown>) {
  const p = makeProject();
  const managedSettings = {
    extensions: [floor.plugin],
    ...(floor.section ? { config: { [floor.name]: floor.section } } : {}),
  };
  const managed = p.write("etc/managed.json", pretty(managedSettings));
  p.write(FILES[lower], pretty({ config: { [floor.name]: section } }));
  return { p, env: { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed } };
}

async function guardRecord(p: TestProject, env: NodeJS.ProcessEnv): Promise<ExtensionRecord | undefined> {
  const { host } = await openHost(p, { env, trust: true });
  return host.extensions()[0];
}

async function refusal(p: TestProject, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    await openHost(p, { env, trust: true });
  } catch (error) {
    expect((error as GatehouseError).code).toBe("GH_GUARD_FAILED");
    return (error as Error).message;
  }
  throw new Error("expected the managed guard to refuse the lower level's section");
}

const MANAGED_PATHS: Floor = {
  plugin: "@gatehouse/protected-paths",
  name: "protected-paths",
  section: {
    bash: "deny",
    undeclaredEffects: "deny",
    allowOutsideWorkspace: { read: false },
    workspace: ["."],
    denyWrite: ["secrets/**"],
    denyRead: ["private/**"],
  },
};
const SILENT_PATHS: Floor = { plugin: "@gatehouse/protected-paths", name: "protected-paths" };
const MANAGED_AUDIT: Floor = { plugin: "@gatehouse/tool-audit", name: "tool-audit", section: { fsync: "every" } };

/** Every way a lower level could loosen each key of both first-party guards. */
const LOOSENINGS: [string, Floor, Record<string, unknown>, string][] = [
  ["bash: allow under deny", MANAGED_PATHS, { bash: "allow" }, "bash"],
  ["bash: analyze under deny", MANAGED_PATHS, { bash: "analyze" }, "bash"],
  ["undeclaredEffects: allow under deny", MANAGED_PATHS, { undeclaredEffects: "allow" }, "undeclaredEffects"],
  [
    "reads outside the workspace",
    MANAGED_PATHS,
    { allowOutsideWorkspace: { read: true } },
    "allowOutsideWorkspace.read",
  ],
  [
    "writes outside the workspace",
    MANAGED_PATHS,
    { allowOutsideWorkspace: { write: true } },
    "allowOutsideWorkspace.write",
  ],
  ["workspace /", MANAGED_PATHS, { workspace: ["/"] }, "workspace[0]"],
  ["workspace ..", MANAGED_PATHS, { workspace: ["./src", ".."] }, "workspace[1]"],
  ["caseInsensitive false", MANAGED_PATHS, { caseInsensitive: false }, "caseInsensitive"],
  ["bash: allow where managed is silent", SILENT_PATHS, { bash: "allow" }, "bash"],
  ["workspace / where managed is silent", SILENT_PATHS, { workspace: ["/"] }, "workspace[0]"],
  [
    "outside writes where managed is silent",
    SILENT_PATHS,
    { allowOutsideWorkspace: { write: true } },
    "allowOutsideWorkspace.write",
  ],
  ["case folding where managed is silent", SILENT_PATHS, { caseInsensitive: true }, "caseInsensitive"],
  ["the audit file", MANAGED_AUDIT, { file: "elsewhere.jsonl" }, "file"],
  ["the audit's failure mode", MANAGED_AUDIT, { onWriteError: "warn" }, "onWriteError"],
  ["the audit's fsync", MANAGED_AUDIT, { fsync: "batch" }, "fsync"],
  ["fields kept verbatim", MANAGED_AUDIT, { verbatim: { write: ["path"] } }, "verbatim"],
  ["shipping records elsewhere", MANAGED_AUDIT, { ship: { target: "pino/file" } }, "ship"],
  ["an unknown audit key", MANAGED_AUDIT, { key: "mine" }, "key"],
];

describe("managed settings are a floor: a lower level cannot loosen a managed guard", () => {
  for (const lower of ["project", "projectLocal"] as const) {
    for (const [what, floor, section, key] of LOOSENINGS) {
      it(`${what}, from the ${LABELS[lower]}: the run stops, naming that file and key`, async () => {
        const { p, env } = floorProject(floor, lower, section);
        const message = await refusal(p, env);
        const file = join(p.dir, FILES[lower]);
        const keyPath = `config["${floor.name}"].${key}`;
        expect(message).toMatch(
          new RegExp(`${file}:\\d+:\\d+: ${keyPath.replace(/[[\].]/g, "\\$&")}: .*\\(${LABELS[lower]}\\)`),
        );
        expect(message).toContain(`required guard "${floor.name}"`);
      });
    }
  }

  it.each(["constructor", "toString", "hasOwnProperty"])(
    "a lower level's key named like an Object.prototype member (%s) is an unknown key of that file, not a crash",
    async (key) => {
      const { p, env } = floorProject(MANAGED_PATHS, "project", { [key]: 1 });
      const message = await refusal(p, env);
      expect(message).toContain(
        `${join(p.dir, FILES.project)}:4:${key.length + 11}: config["protected-paths"].${key}: Unrecognized key`,
      );
      expect(message).not.toContain("Cannot read properties");
    },
  );

  it("a lower level cannot remove a managed deny: lists only add", async () => {
    const { p, env } = floorProject(MANAGED_PATHS, "project", { denyWrite: [], denyRead: ["mine/**"] });
    const value = (await guardRecord(p, env))?.config?.value as Record<string, unknown>;
    expect(value.denyWrite).toEqual(["secrets/**"]);
    expect(value.denyRead).toEqual(["private/**", "mine/**"]);
  });

  it("a lower level may tighten: stricter modes, narrower roots, more denies; the strictest level wins", async () => {
    const { p, env } = floorProject(SILENT_PATHS, "project", {
      bash: "deny",
      workspace: ["./src"],
      allowOutsideWorkspace: { read: false },
      denyWrite: ["docs/**"],
    });
    // The local file outranks the committed one, but its looser mode does not win.
    p.write(FILES.projectLocal, pretty({ config: { "protected-paths": { bash: "sandbox" } } }));
    const record = await guardRecord(p, env);
    expect(record?.config?.value).toMatchObject({
      bash: "deny",
      workspace: ["./src"],
      allowOutsideWorkspace: { read: false, write: false },
      denyWrite: ["docs/**"],
    });
    const bash = record?.config?.keys.find((k) => k.key === "bash");
    expect(bash?.from).toEqual([{ level: "project", file: join(p.dir, FILES.project), line: 4, column: 15 }]);
    expect(record?.config?.keys.find((k) => k.key === "undeclaredEffects")).toEqual({
      key: "undeclaredEffects",
      value: "deny",
      from: [],
    });
  });

  it("narrowing the workspace keeps a managed relative deny meaning the project's path", async () => {
    const floor: Floor = { ...SILENT_PATHS, section: { denyWrite: ["src/generated/**"] } };
    const { p, env } = floorProject(floor, "project", { workspace: ["./src"] });
    const { host } = await openHost(p, { env, trust: true });
    const check = await host.check("write", { path: "src/generated/api.ts", content: "x" });
    expect(check).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(check.reason).toContain("src/generated/**");
  });

  it("a lower level may repeat a pinned value managed set", async () => {
    const floor: Floor = { ...MANAGED_AUDIT, section: { file: "audit/team.jsonl", allowWorkspaceFile: true } };
    const { p, env } = floorProject(floor, "project", { file: "audit/team.jsonl", fsync: "every" });
    expect((await guardRecord(p, env))?.config?.value).toMatchObject({ file: "audit/team.jsonl", fsync: "every" });
  });

  it("a workspace root that leaves through a symbolic link is not narrower", async () => {
    const { p, env } = floorProject(SILENT_PATHS, "project", { workspace: ["./link/.."] });
    p.write("real/dir/.keep", "");
    const { symlinkSync } = await import("node:fs");
    symlinkSync("/tmp", join(p.dir, "link"));
    expect(await refusal(p, env)).toContain(`"./link/.." is not inside the managed roots`);
  });

  it("a section that is one value (not an object) is read whole, the strongest level winning; a bad one names its file", async () => {
    const ext = `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "mode", setup(api) { (globalThis as any).__ghMode = api.config(z.enum(["fast", "safe"])); } });`;
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ extensions: ["./mode.ts"], config: { mode: "fast" } }),
      ".gatehouse/settings.local.json": pretty({ config: { mode: "safe" } }),
      "mode.ts": ext,
    });
    expect((await guardRecord(p, p.env))?.status).toBe("loaded");
    expect((globalThis as { __ghMode?: unknown }).__ghMode).toBe("safe");
    p.write(".gatehouse/settings.local.json", pretty({ config: { mode: "slow" } }));
    const record = await guardRecord(p, p.env);
    expect(record?.status).toBe("failed");
    expect(record?.errors[0]).toContain(`${join(p.dir, ".gatehouse/settings.local.json")}:3:13: config.mode:`);
  });

  it("without managed settings, and a guard the user's settings neither enable nor configure, the strongest level wins (a project may choose bash: allow)", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { bash: "allow", workspace: ["/"] } },
      }),
    });
    p.writeHome("settings.json", pretty({ config: { "tool-audit": { fsync: "every" } } }));
    const record = await guardRecord(p, p.env);
    expect(record?.config).toMatchObject({ floor: false, value: { bash: "allow", workspace: ["/"] } });
  });
});

// Project files come with the repository: a guard the user enabled or configured for every project
// is a floor for them (SPEC §10: config that loosens a higher level), as a managed one is for all.
describe("the user's own guard settings are a floor for the project's files", () => {
  it("a project's looser bash mode than the user's is an error at the project's file, and the guard does not load", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ config: { "protected-paths": { bash: "allow" } } }),
    });
    p.writeHome("settings.json", pretty({ config: { "protected-paths": { bash: "deny" } } }));
    p.write(".gatehouse/settings.local.json", pretty({ extensions: ["@gatehouse/protected-paths"] }));
    const error = (await guardRecord(p, p.env).catch((e: unknown) => e)) as GatehouseError;
    expect(error.code).toBe("GH_GUARD_FAILED");
    expect(error.message).toContain(
      `${join(p.dir, ".gatehouse/settings.json")}:4:15: config["protected-paths"].bash: "allow" is looser than the floor your user settings set "deny"; below your user settings only "deny" may be chosen (project settings)`,
    );
  });

  it("a user who only enables the guard keeps its defaults as the floor: no wider workspace, no writes outside it", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        config: { "protected-paths": { workspace: ["/"], allowOutsideWorkspace: { write: true } } },
      }),
    });
    p.writeHome("settings.json", pretty({ extensions: ["@gatehouse/protected-paths"] }));
    const error = (await guardRecord(p, p.env).catch((e: unknown) => e)) as GatehouseError;
    expect(error.code).toBe("GH_GUARD_FAILED");
    const errors = error.message;
    expect(errors).toContain('"/" is not inside the roots your user settings allow');
    expect(errors).toContain('config["protected-paths"].allowOutsideWorkspace.write: true is looser than');
  });

  it("a project may still tighten what the user enabled", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        config: { "protected-paths": { bash: "deny", workspace: ["src"], denyRead: ["secret/**"] } },
      }),
    });
    p.write("src/a.txt", "a");
    p.writeHome("settings.json", pretty({ extensions: ["@gatehouse/protected-paths"] }));
    const record = await guardRecord(p, p.env);
    expect(record?.status).toBe("loaded");
    expect(record?.config).toMatchObject({ value: { bash: "deny", workspace: ["src"] } });
  });
});
