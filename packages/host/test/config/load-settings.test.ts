import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/common/json-depth.ts";
import { gatehouseHome } from "../../src/config/gatehouse-home.ts";
import { loadSettings } from "../../src/config/load-settings.ts";
import { mergeSettings } from "../../src/config/merge-settings.ts";
import { MAX_TIMER_MS } from "../../src/config/settings-schema.ts";
import { expectGatehouseError, type SettingsFixture, settingsFixture } from "./settings-fixture.ts";

let fx: SettingsFixture;
beforeEach(() => {
  fx = settingsFixture();
});
afterEach(() => fx.remove());

describe("gatehouseHome", () => {
  it("uses an absolute GATEHOUSE_HOME, normalized", () => {
    expect(gatehouseHome({ GATEHOUSE_HOME: "/opt/gh" })).toBe("/opt/gh");
    expect(gatehouseHome({ GATEHOUSE_HOME: "/opt/x/../gh/" })).toBe("/opt/gh");
  });

  it.each(["some/where", ".", "./gh", "../gh", "~/gh"])(
    "refuses the relative GATEHOUSE_HOME %j: it would resolve into the directory the run starts in",
    (value) => {
      const error = expectGatehouseError(() => gatehouseHome({ GATEHOUSE_HOME: value, HOME: "/h" }), "GH_STATE_DIR");
      expect(error.message).toContain("GATEHOUSE_HOME must be an absolute path");
      expect(error.message).toContain(JSON.stringify(value));
    },
  );

  it.each(["/", "//", "/tmp/.."])(
    "refuses GATEHOUSE_HOME %j, the root of the filesystem: its mode would be tightened to 0700 for every user",
    (value) => {
      const error = expectGatehouseError(() => gatehouseHome({ GATEHOUSE_HOME: value, HOME: "/h" }), "GH_STATE_DIR");
      expect(error.message).toContain("GATEHOUSE_HOME must name a folder of its own, not the root of the filesystem");
    },
  );

  it("falls back to ~/.gatehouse when GATEHOUSE_HOME is unset or empty", () => {
    expect(gatehouseHome({ HOME: "/home/ada" })).toBe("/home/ada/.gatehouse");
    expect(gatehouseHome({ HOME: "/home/ada", GATEHOUSE_HOME: "" })).toBe("/home/ada/.gatehouse");
  });
});

describe("loadSettings", () => {
  it("reads each level with its file, the directory its paths resolve against, and a locatable source", () => {
    fx.write("managed", { toolExecution: "sequential" });
    fx.write("projectLocal", { watch: true });
    fx.write("project", { hookTimeoutMs: 500 });
    fx.write("user", { extensions: ["./mine.ts"] });
    const levels = fx.load();
    expect(levels.managed).toMatchObject({
      level: "managed",
      file: fx.files.managed,
      dir: join(fx.root, "etc"),
      settings: { toolExecution: "sequential" },
    });
    expect(levels.projectLocal).toMatchObject({ file: fx.files.projectLocal, dir: fx.cwd, settings: { watch: true } });
    expect(levels.project).toMatchObject({ file: fx.files.project, dir: fx.cwd, settings: { hookTimeoutMs: 500 } });
    expect(levels.user).toMatchObject({ file: fx.files.user, dir: fx.home, settings: { extensions: ["./mine.ts"] } });
    expect(levels.user?.source.locate(["extensions", 0])).toEqual({ line: 3, column: 5 });
  });

  it("leaves out levels whose file does not exist, including a missing .gatehouse folder or home", () => {
    expect(fx.load()).toEqual({});
    fx.write("project", { watch: false });
    expect(Object.keys(fx.load())).toEqual(["project"]);
  });

  it("finds the user settings under GATEHOUSE_HOME when no home is passed", () => {
    fx.write("user", { watch: true });
    const levels = loadSettings({ cwd: fx.cwd, env: { GATEHOUSE_HOME: fx.home } });
    expect(levels.user?.file).toBe(fx.files.user);
  });

  it.each(["policy/m.json", "./policy/m.json", "m.json", "../m.json"])(
    "refuses the relative GATEHOUSE_MANAGED_SETTINGS %j even when the project holds that file (a project must not supply its own floor)",
    (value) => {
      mkdirSync(join(fx.cwd, "policy"));
      writeFileSync(join(fx.cwd, "policy", "m.json"), '{"watch": false}');
      writeFileSync(join(fx.cwd, "m.json"), '{"watch": false}');
      const error = expectGatehouseError(() => fx.load({ GATEHOUSE_MANAGED_SETTINGS: value }), "GH_SETTINGS_INVALID");
      expect(error.message).toContain("GATEHOUSE_MANAGED_SETTINGS must be an absolute path");
      expect(error.message).toContain(JSON.stringify(value));
    },
  );

  it("reads an absolute GATEHOUSE_MANAGED_SETTINGS, normalized", () => {
    mkdirSync(join(fx.cwd, "policy"));
    writeFileSync(join(fx.cwd, "policy", "m.json"), '{"watch": false}');
    const levels = fx.load({ GATEHOUSE_MANAGED_SETTINGS: join(fx.cwd, "x", "..", "policy", "m.json") });
    expect(levels.managed).toMatchObject({ file: join(fx.cwd, "policy", "m.json"), dir: join(fx.cwd, "policy") });
  });

  it("fails closed when GATEHOUSE_MANAGED_SETTINGS names a file that does not exist", () => {
    fx.write("project", { watch: true });
    const error = expectGatehouseError(
      () => fx.load({ GATEHOUSE_MANAGED_SETTINGS: fx.files.managed }),
      "GH_SETTINGS_INVALID",
    );
    expect(error.message).toContain(
      `Cannot read managed settings ${fx.files.managed}: no such file or directory (ENOENT)`,
    );
    expect(error.message).toContain("managed policy fails closed");
  });

  it("fails closed when GATEHOUSE_MANAGED_SETTINGS is set but empty", () => {
    const error = expectGatehouseError(() => fx.load({ GATEHOUSE_MANAGED_SETTINGS: "" }), "GH_SETTINGS_INVALID");
    expect(error.message).toMatch(/GATEHOUSE_MANAGED_SETTINGS is set but empty/);
  });

  it("reports an optional settings path that exists but cannot be read instead of skipping it", () => {
    mkdirSync(fx.files.project, { recursive: true });
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message).toBe(`Cannot read settings ${fx.files.project}: is a directory (EISDIR)`);
  });

  it.each(["project", "projectLocal", "user"] as const)(
    "refuses %s settings that are a symbolic link leading nowhere instead of reading them as absent (the guards they enable would vanish)",
    (level) => {
      const file = fx.files[level];
      mkdirSync(dirname(file), { recursive: true });
      symlinkSync(join(fx.root, "dotfiles", "settings.json"), file);
      const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
      expect(error.message).toBe(
        `Cannot read settings ${file}: ${file} is a symbolic link to ${JSON.stringify(join(fx.root, "dotfiles", "settings.json"))}, which does not exist`,
      );
    },
  );

  it("refuses project settings whose .gatehouse folder is a symbolic link leading nowhere, naming the link", () => {
    symlinkSync("../moved/.gatehouse", join(fx.cwd, ".gatehouse"));
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message).toContain(`${join(fx.cwd, ".gatehouse")} is a symbolic link to "../moved/.gatehouse"`);
  });

  it("still leaves out a settings file that is missing behind a link that resolves", () => {
    mkdirSync(join(fx.root, "real-config"));
    symlinkSync(join(fx.root, "real-config"), join(fx.cwd, ".gatehouse"));
    expect(fx.load()).toEqual({});
  });

  it("names file, line and column of malformed JSON", () => {
    fx.write("projectLocal", '{\n  "watch": true,\n}\n');
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    const [header, detail] = error.message.split("\n");
    expect(header).toBe(`Invalid settings ${fx.files.projectLocal} (malformed JSON):`);
    expect(detail?.trim()).toBe(
      `${fx.files.projectLocal}:2:16: trailing comma before '}' — expected a property name in double quotes`,
    );
    expect((error.cause as { code?: string }).code).toBe("GH_JSON_SYNTAX");
  });

  it("names file, line, column, field and expectation of each schema violation", () => {
    const file = fx.write("user", { extension: ["x"], hookTimeoutMs: -5, toolExecution: "fast", watch: "yes" });
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message.split("\n").map((line) => line.trim())).toEqual([
      `Invalid settings ${file} (4 problems):`,
      `${file}:2:16: extension: unknown key (allowed keys: extensions, disabledExtensions, config, toolExecution, hookTimeoutMs, watch, model, maxArgumentBytes, hooks, agentHooks)`,
      `${file}:5:20: hookTimeoutMs: must be > 0, received -5`,
      `${file}:6:20: toolExecution: expected one of "parallel", "sequential", received "fast"`,
      `${file}:7:12: watch: expected boolean, received string`,
    ]);
  });

  it("caps timer settings at what Node's timers can wait and says a number too large for JSON must be finite", () => {
    const file = fx.write(
      "project",
      '{\n"hookTimeoutMs": 1e12,\n"maxArgumentBytes": 1e400,\n"model": {"retryBaseMs": 2147483648, "temperature": -1e999}\n}',
    );
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message.split("\n").map((line) => line.trim())).toEqual([
      `Invalid settings ${file} (4 problems):`,
      `${file}:2:18: hookTimeoutMs: must be <= ${MAX_TIMER_MS}, received 1000000000000`,
      `${file}:3:21: maxArgumentBytes: expected a finite number, received Infinity (out of range)`,
      `${file}:4:26: model.retryBaseMs: must be <= ${MAX_TIMER_MS}, received 2147483648`,
      `${file}:4:53: model.temperature: expected a finite number, received -Infinity (out of range)`,
    ]);
    fx.write("project", { hookTimeoutMs: MAX_TIMER_MS, model: { retryBaseMs: MAX_TIMER_MS } });
    expect(fx.load().project?.settings.hookTimeoutMs).toBe(MAX_TIMER_MS);
  });

  it("rejects a managed file with a schema violation rather than ignoring the level", () => {
    fx.write("managed", { config: [] });
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message).toContain(`Invalid managed settings ${fx.files.managed} (1 problem):`);
    expect(error.message).toContain(`${fx.files.managed}:2:13: config: expected object, received array`);
  });

  it("refuses a key written twice in one object, naming where the second one is", () => {
    fx.write(
      "project",
      '{\n  "config": {\n    "protected-paths": { "denyWrite": ["secrets/**"], "denyWrite": [] }\n  }\n}\n',
    );
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message).toContain(`Invalid settings ${fx.files.project} (malformed JSON):`);
    expect(error.message).toContain(`${fx.files.project}:3:55: "denyWrite" a second time in one object`);
    fx.write("project", '{"extensions": ["@gatehouse/protected-paths"], "extensions": []}');
    expect(expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID").message).toContain(
      '"extensions" a second time',
    );
    // The same key in different objects, or a string that looks like a key, is fine.
    fx.write("project", '{"config": {"a": {"x": 1}, "b": {"x": ["\\"x\\": 1", "x"]}}, "watch": true}');
    expect(fx.load().project?.settings).toEqual({ config: { a: { x: 1 }, b: { x: ['"x": 1', "x"] } }, watch: true });
  });

  it.each(["managed", "project", "projectLocal", "user"] as const)(
    "refuses %s settings nested deeper than MAX_JSON_DEPTH, naming where, before anything recurses into them",
    (level) => {
      const n = 5000;
      fx.write(level, `{\n  "config": {"x": ${"[".repeat(n)}${"]".repeat(n)}}}`);
      const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
      const [header, detail] = error.message.split("\n");
      expect(header).toContain(fx.files[level]);
      // Root object and "config" are levels 1 and 2; the 255th "[" (column 19 + 254) is level 257.
      expect(detail?.trim()).toBe(
        `${fx.files[level]}:2:273: an array nested more than ${MAX_JSON_DEPTH} levels deep — expected at most ${MAX_JSON_DEPTH} levels of nested arrays and objects`,
      );
    },
  );

  it("accepts exactly MAX_JSON_DEPTH levels, merges them, and does not count brackets inside strings", () => {
    const inner = MAX_JSON_DEPTH - 2;
    const tricky = JSON.stringify(`${"[{".repeat(400)}\\"[[`);
    fx.write("project", `{"config": {"x": ${"[".repeat(inner)}${tricky}${"]".repeat(inner)}}}`);
    fx.write("user", `{"config": {"x": ${'{"a":'.repeat(inner)}1${"}".repeat(inner)}}}`);
    const merged = mergeSettings(fx.load());
    let value: unknown = merged.config.x;
    for (let i = 0; i < inner; i++) value = (value as unknown[])[0];
    expect(value).toBe(JSON.parse(tricky));
  });

  it("refuses a settings file that is a FIFO at once instead of waiting for a writer", () => {
    mkdirSync(join(fx.cwd, ".gatehouse"), { recursive: true });
    execFileSync("mkfifo", [fx.files.project]);
    const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
    expect(error.message).toBe(`Cannot read settings ${fx.files.project}: is not a regular file (ENOTREG)`);
  });

  it.each([
    ['{\n  "config": { "__proto__": { "protected-paths": { "bash": "allow" } } }\n}', "2:28", "config.__proto__"],
    ['{"model": {"headers": {"__proto__": {"x": "y"}}}}', "1:37", "model.headers.__proto__"],
    ['{"config": {"x": [{"__proto__": 1}]}}', "1:33", "config.x[0].__proto__"],
  ])(
    "refuses a key named __proto__ anywhere (a record would take it as its prototype and drop it unseen): %s",
    (text, at, path) => {
      fx.write("project", text);
      const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
      expect(error.message).toContain(`${fx.files.project}:${at}: ${path}: a key named "__proto__"`);
    },
  );

  it.each(["managed", "project", "user"] as const)(
    "refuses %s settings that are not UTF-8, naming the line: a Latin-1 deny glob must not become one that matches nothing",
    (level) => {
      fx.write(
        level,
        Buffer.from('{\n  "config": { "protected-paths": { "denyRead": ["caf\xe9/**"] } }\n}\n', "latin1"),
      );
      const error = expectGatehouseError(() => fx.load(), "GH_SETTINGS_INVALID");
      expect(error.message).toContain(`${fx.files[level]}:2: bytes that are not UTF-8 — expected UTF-8 text`);
    },
  );

  it("ignores a leading byte-order mark", () => {
    fx.write("project", '\ufeff{"watch": true}');
    expect(fx.load().project?.settings).toEqual({ watch: true });
  });
});
