import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeSettings } from "../../src/config/merge-settings.ts";
import { type SettingsFixture, settingsFixture } from "./settings-fixture.ts";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.remove());

const protectedPaths = (config: Record<string, unknown>) => config["protected-paths"] as Record<string, unknown>;

describe("mergeSettings: values", () => {
  it("takes each scalar from the strongest level that sets it", () => {
    fx.write("managed", { toolExecution: "sequential" });
    fx.write("projectLocal", { hookTimeoutMs: 100 });
    fx.write("project", { hookTimeoutMs: 200, watch: true });
    fx.write("user", { toolExecution: "parallel", hookTimeoutMs: 300, watch: false });
    const merged = mergeSettings(fx.load());
    expect([merged.toolExecution, merged.hookTimeoutMs, merged.watch]).toEqual(["sequential", 100, true]);
  });

  it("leaves scalars no level sets undefined and config empty", () => {
    const merged = mergeSettings(fx.load());
    expect([merged.toolExecution, merged.hookTimeoutMs, merged.watch]).toEqual([undefined, undefined, undefined]);
    expect(merged.config).toEqual({});
    expect(merged.extensions).toEqual([]);
  });

  it("merges config objects key by key, the strongest level winning each leaf", () => {
    fx.write("managed", { config: { audit: { fsync: "always", nested: { p: 1 } } } });
    fx.write("project", { config: { audit: { fsync: "batch", file: "a.jsonl", nested: { p: 9, q: 2 } } } });
    fx.write("user", { config: { hello: { greeting: "hi" }, audit: { mode: 5 } } });
    expect(mergeSettings(fx.load()).config).toEqual({
      audit: { fsync: "always", nested: { p: 1, q: 2 }, file: "a.jsonl", mode: 5 },
      hello: { greeting: "hi" },
    });
  });

  it("keeps the stronger level's value when a weaker level sets a different kind at the same key", () => {
    fx.write("managed", { config: { guard: { mode: "strict", roots: ["/srv"] } } });
    fx.write("project", { config: { guard: { mode: { off: true }, roots: { all: true } } } });
    expect(mergeSettings(fx.load()).config).toEqual({ guard: { mode: "strict", roots: ["/srv"] } });
  });

  it("unions deny arrays at any depth, so a weaker level can add denies but not remove a stronger one's", () => {
    fx.write("managed", {
      config: { "protected-paths": { denyWrite: [".env", "secrets/**"], rules: { denyExec: ["rm"] } } },
    });
    fx.write("project", { config: { "protected-paths": { denyWrite: [], rules: { denyExec: ["curl"] } } } });
    fx.write("user", { config: { "protected-paths": { denyWrite: [".env", "id_rsa"] } } });
    const config = protectedPaths(mergeSettings(fx.load()).config);
    expect(config.denyWrite).toEqual([".env", "secrets/**", "id_rsa"]);
    expect(config.rules).toEqual({ denyExec: ["rm", "curl"] });
  });

  it("takes other arrays whole from the strongest level, so a weaker level cannot widen them", () => {
    fx.write("managed", { config: { "protected-paths": { workspace: ["/srv/app"] } } });
    fx.write("project", { config: { "protected-paths": { workspace: ["/srv/app", "/"], allow: ["a"] } } });
    fx.write("user", { config: { "protected-paths": { allow: ["a", "b"] } } });
    expect(protectedPaths(mergeSettings(fx.load()).config)).toEqual({ workspace: ["/srv/app"], allow: ["a"] });
  });

  it("returns a frozen copy that shares nothing with the levels", () => {
    fx.write("project", { config: { audit: { list: [1] } } });
    const levels = fx.load();
    const original = levels.project?.settings.config?.audit as { list: number[] };
    const merged = mergeSettings(levels).config.audit as { list: number[] };
    expect(merged).toEqual(original);
    expect(Object.isFrozen(merged.list)).toBe(true);
    expect(Object.isFrozen(original.list)).toBe(false);
    expect(merged.list).not.toBe(original.list);
  });
});

describe("mergeSettings: extensions", () => {
  it("lists every level's extensions in load order managed, project, projectLocal, user", () => {
    fx.write("managed", { extensions: ["@corp/guard"] });
    fx.write("projectLocal", { extensions: ["./local.ts"] });
    fx.write("project", { extensions: ["./shared.ts", { spec: "@gatehouse/tool-audit", required: true }] });
    fx.write("user", { extensions: ["./mine.ts"] });
    const etc = join(fx.root, "etc");
    const at = (level: string, file: string, line: number, column: number) => ({ level, file, line, column });
    expect(mergeSettings(fx.load()).extensions).toEqual([
      {
        spec: "@corp/guard",
        level: "managed",
        file: fx.files.managed,
        dir: etc,
        required: false,
        at: at("managed", fx.files.managed, 3, 5),
      },
      {
        spec: "./shared.ts",
        level: "project",
        file: fx.files.project,
        dir: fx.cwd,
        required: false,
        at: at("project", fx.files.project, 3, 5),
      },
      {
        spec: "@gatehouse/tool-audit",
        level: "project",
        file: fx.files.project,
        dir: fx.cwd,
        required: true,
        at: at("project", fx.files.project, 4, 5),
      },
      {
        spec: "./local.ts",
        level: "projectLocal",
        file: fx.files.projectLocal,
        dir: fx.cwd,
        required: false,
        at: at("projectLocal", fx.files.projectLocal, 3, 5),
      },
      {
        spec: "./mine.ts",
        level: "user",
        file: fx.files.user,
        dir: fx.home,
        required: false,
        at: at("user", fx.files.user, 3, 5),
      },
    ]);
  });

  it("keeps a spec listed twice from the same directory once, the first in load order", () => {
    fx.write("managed", { extensions: [join(fx.cwd, "shared.ts")] });
    fx.write("project", { extensions: ["./shared.ts", "pkg", "pkg", "./a.ts"] });
    fx.write("projectLocal", { extensions: ["./a.ts", "pkg", "./b.ts"] });
    fx.write("user", { extensions: ["pkg", "./a.ts"] });
    const listed = mergeSettings(fx.load()).extensions.map((e) => `${e.level}:${e.spec}`);
    expect(listed).toEqual([
      `managed:${join(fx.cwd, "shared.ts")}`,
      "project:pkg",
      "project:./a.ts",
      "projectLocal:./b.ts",
      "user:pkg",
      "user:./a.ts",
    ]);
  });
});

describe("mergeSettings: configSource", () => {
  beforeEach(() => {
    fx.write("managed", { config: { "protected-paths": { denyWrite: [".env"], mode: "strict" } } });
    fx.write("project", {
      config: { "protected-paths": { denyWrite: ["dist/**"], mode: "loose", extra: true }, audit: { fsync: 1 } },
    });
  });

  it("names the managed file for a value managed sets, even when the project sets it too", () => {
    const merged = mergeSettings(fx.load());
    expect(merged.configSource("protected-paths", ["mode"])).toEqual({
      level: "managed",
      file: fx.files.managed,
      line: 7,
      column: 15,
    });
    expect(merged.configSource("protected-paths", ["denyWrite", 0])).toMatchObject({ file: fx.files.managed, line: 5 });
  });

  it("names the project file for a value only the project sets, including its entry of a deny union", () => {
    const merged = mergeSettings(fx.load());
    expect(merged.configSource("protected-paths", ["extra"])).toEqual({
      level: "project",
      file: fx.files.project,
      line: 8,
      column: 16,
    });
    expect(merged.configSource("protected-paths", ["denyWrite", 1])).toEqual({
      level: "project",
      file: fx.files.project,
      line: 5,
      column: 9,
    });
    expect(merged.configSource("audit", ["fsync"])).toEqual({
      level: "project",
      file: fx.files.project,
      line: 11,
      column: 16,
    });
  });

  it("points a missing key at its section and an unknown section at nothing", () => {
    const merged = mergeSettings(fx.load());
    expect(merged.configSource("protected-paths", ["missing", "deeper"])).toEqual({
      level: "managed",
      file: fx.files.managed,
      line: 3,
      column: 24,
    });
    expect(merged.configSource("audit", [])).toMatchObject({ file: fx.files.project, line: 10, column: 14 });
    expect(merged.configSource("nobody", [])).toBeUndefined();
  });
});
