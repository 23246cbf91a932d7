import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gatehouseHome } from "../../src/config/index.ts";
import { tempDir } from "../helpers/scenario.ts";

// Finding: the suite read the developer's machine. With a user-level ~/.gatehouse holding an
// extension, a test's host loaded and ran it (discovery falls back to ~/.gatehouse), and with
// GATEHOUSE_LOG_LEVEL=debug in the shell, CLI tests that expect a quiet stderr failed (hook, init,
// extensions, crash-resume, provider streams). scripts/test-env.mjs, a global setup, gives the
// tests a HOME of their own and unsets the variables Gatehouse reads.

const SETUP = resolve(fileURLToPath(import.meta.url), "../../../../../scripts/test-env.mjs");

describe("the tests' environment", () => {
  it("has a HOME of its own, with no Gatehouse state of the developer's, and none of Gatehouse's variables", () => {
    expect(process.env.GATEHOUSE_TEST_HOME).toBeDefined();
    expect(homedir()).toBe(process.env.GATEHOUSE_TEST_HOME);
    expect(gatehouseHome({ HOME: homedir() })).toBe(join(homedir(), ".gatehouse"));
    for (const name of ["GATEHOUSE_HOME", "GATEHOUSE_LOG_LEVEL", "GATEHOUSE_MANAGED_SETTINGS", "CLAUDE_PROJECT_DIR"]) {
      expect(process.env[name], name).toBeUndefined();
    }
    expect(readFileSync(join(homedir(), ".gitconfig"), "utf8")).toContain("name = Gatehouse Tests");
  });

  it("the global setup unsets the developer's variables and restores them afterwards", () => {
    const root = tempDir("gh-env-");
    const script = `
      const { default: setup } = await import(${JSON.stringify(SETUP)});
      const teardown = setup();
      const during = { ...process.env };
      teardown();
      console.log(JSON.stringify({ during, after: process.env }));`;
    const polluted = {
      PATH: process.env.PATH,
      HOME: "/home/developer",
      GATEHOUSE_TEST_TEMP_ROOT: root,
      GATEHOUSE_TEST_CORPUS: "1",
      GATEHOUSE_LOG_LEVEL: "debug",
      GATEHOUSE_HOME: "/home/developer/.gatehouse",
      GATEHOUSE_MANAGED_SETTINGS: "/etc/gatehouse/managed.json",
      ANTHROPIC_API_KEY: "sk-ant-developer",
      FORCE_COLOR: "1",
    };
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      env: polluted,
      encoding: "utf8",
    });
    const { during, after } = JSON.parse(out) as Record<"during" | "after", Record<string, string | undefined>>;
    expect(during.HOME).toBe(join(root, "home"));
    expect(existsSync(join(root, "home", ".gitconfig"))).toBe(true);
    expect(during.GATEHOUSE_TEST_CORPUS).toBe("1");
    for (const name of [
      "GATEHOUSE_LOG_LEVEL",
      "GATEHOUSE_HOME",
      "GATEHOUSE_MANAGED_SETTINGS",
      "ANTHROPIC_API_KEY",
      "FORCE_COLOR",
    ]) {
      expect(during[name], name).toBeUndefined();
      expect(after[name], name).toBe(polluted[name as keyof typeof polluted]);
    }
    expect(after.HOME).toBe("/home/developer");
  });
});
