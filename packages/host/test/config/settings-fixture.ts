import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { loadSettings } from "../../src/config/load-settings.ts";
import type { SettingsLevelName, SettingsLevels } from "../../src/config/settings-levels.ts";

/** A real temp project, Gatehouse home and managed-settings directory. */
export interface SettingsFixture {
  root: string;
  cwd: string;
  home: string;
  /** Path of each level's file (the managed one under `<root>/etc`). */
  files: Record<SettingsLevelName, string>;
  /** Writes a level's file: objects as pretty JSON (one key per line), strings and buffers verbatim. */
  write(level: SettingsLevelName, content: unknown): string;
  /** Loads the fixture's settings, with `GATEHOUSE_MANAGED_SETTINGS` set when the managed file was written. */
  load(env?: NodeJS.ProcessEnv): SettingsLevels;
  remove(): void;
}

/** Creates the fixture under a fresh `mkdtemp` directory. */
export function settingsFixture(): SettingsFixture {
  const root = mkdtempSync(join(tmpdir(), "gatehouse-settings-"));
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd);
  const files: Record<SettingsLevelName, string> = {
    managed: join(root, "etc", "managed.json"),
    projectLocal: join(cwd, ".gatehouse", "settings.local.json"),
    project: join(cwd, ".gatehouse", "settings.json"),
    user: join(home, "settings.json"),
  };
  let managedWritten = false;
  return {
    root,
    cwd,
    home,
    files,
    write(level, content) {
      const file = files[level];
      mkdirSync(dirname(file), { recursive: true });
      const verbatim = typeof content === "string" || Buffer.isBuffer(content);
      writeFileSync(file, verbatim ? content : `${JSON.stringify(content, null, 2)}\n`);
      if (level === "managed") managedWritten = true;
      return file;
    },
    load(env) {
      const managed = managedWritten ? { GATEHOUSE_MANAGED_SETTINGS: files.managed } : {};
      return loadSettings({ cwd, home, env: env ?? managed });
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs `action`, expects a GatehouseError with `code`, and returns it. */
export function expectGatehouseError(action: () => unknown, code: GatehouseError["code"]): GatehouseError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe(code);
    return error as GatehouseError;
  }
  throw new Error(`expected a GatehouseError ${code}`);
}
