import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CA_CERTS_CARRIER } from "../../src/hook/ca-certs.ts";
import { hookCommand, isGatehouseHook } from "../../src/hook/hook-install.ts";
import { recorded } from "../hook/payloads.ts";
import { CLI, type CliRun, collect } from "./cli-helpers.ts";

// Node prints this at start when NODE_EXTRA_CA_CERTS names a file it cannot read: a process that
// prints it has paid for loading the certificates.
const LOADED_CERTS = /Ignoring extra certs from/;
const MISSING_CERTS = "/nonexistent/gatehouse-test-ca.pem";

/** Runs the hook command exactly as installed, through `sh -c` as the agents run it. */
function runInstalled(command: string, stdin: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn("sh", ["-c", command], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  return collect(child, stdin);
}

function project(): { dir: string; home: string } {
  const dir = tempDir("gh-hook-certs-");
  mkdirSync(join(dir, ".gatehouse"));
  const settings = { extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] };
  writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify(settings));
  return { dir, home: tempDir("gh-hook-certs-home-") };
}

const command = hookCommand("claude-code", `"${process.execPath}" "${CLI}"`, "linux");
const writeTo = (dir: string, file: string) =>
  JSON.stringify({
    ...recorded("claude-code", "Write", dir),
    tool_input: { file_path: join(dir, file), content: "x" },
  });

describe("the installed hook command and NODE_EXTRA_CA_CERTS", () => {
  it("is still recognised as Gatehouse's own hook, and stays a plain command on Windows", () => {
    expect(isGatehouseHook(command, "claude-code")).toBe(true);
    expect(command.startsWith(`${CA_CERTS_CARRIER}=`)).toBe(true);
    expect(hookCommand("codex", "gatehouse", "win32")).toBe("gatehouse hook codex || exit 2");
  });

  it("starts Node without the certificates and decides as the plain command does", async () => {
    const p = project();
    const env = { GATEHOUSE_HOME: p.home, CLAUDE_PROJECT_DIR: p.dir, NODE_EXTRA_CA_CERTS: MISSING_CERTS };
    // The plain command loads them (the check below could fail).
    const plain = await runInstalled(`"${process.execPath}" "${CLI}" hook claude-code`, writeTo(p.dir, "a.md"), env);
    expect(plain.stderr).toMatch(LOADED_CERTS);
    for (const [file, denied] of [
      ["notes.md", false],
      [".env", true],
      ["other.md", false],
    ] as const) {
      const run = await runInstalled(command, writeTo(p.dir, file), env);
      expect(run.stderr).not.toMatch(LOADED_CERTS);
      expect(run.code).toBe(0);
      if (denied) expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
      else expect(run.stdout).toBe("");
    }
  });

  it("gives the certificates back to the full evaluation, which runs the project's extensions", async () => {
    const p = project();
    mkdirSync(join(p.home, "extensions"), { recursive: true });
    // An extension that would call a server through the proxy those certificates are for.
    writeFileSync(
      join(p.home, "extensions", "sees-certs.mjs"),
      `export default { name: "sees-certs", setup(api) {
        api.on("tool_call", () => ({ block: true, reason: "certs=" + (process.env.NODE_EXTRA_CA_CERTS || "none") + " carrier=" + (process.env.${CA_CERTS_CARRIER} || "none") }), { stage: "enforce" });
      } };`,
    );
    const env = { GATEHOUSE_HOME: p.home, CLAUDE_PROJECT_DIR: p.dir, NODE_EXTRA_CA_CERTS: MISSING_CERTS };
    const run = await runInstalled(command, writeTo(p.dir, "notes.md"), env);
    expect(run.code).toBe(0);
    const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toContain(`certs=${MISSING_CERTS} carrier=none`);
    // Without a value to carry, nothing is relayed and nothing is set.
    const unset = await runInstalled(command, writeTo(p.dir, "notes.md"), { ...env, NODE_EXTRA_CA_CERTS: "" });
    expect(JSON.parse(unset.stdout).hookSpecificOutput.permissionDecisionReason).toContain("certs=none carrier=none");
  });
});
