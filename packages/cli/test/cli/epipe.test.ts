import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CLI, collect, runCli, writeScript } from "./cli-helpers.ts";

/** Runs `gatehouse ARGS | head -1` in bash and returns gatehouse's own exit status and stderr. */
function throughHead(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number; first: string; stderr: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `${quoted} 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}"`], {
      env: { ...process.env, NO_COLOR: "1", ...env, ERR: join(env.GATEHOUSE_HOME as string, "stderr.txt") },
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", async () => {
      const { readFileSync } = await import("node:fs");
      const [first = "", status = ""] = out.split("\n");
      resolve({
        first,
        status: Number(status.replace("status=", "")),
        stderr: readFileSync(join(env.GATEHOUSE_HOME as string, "stderr.txt"), "utf8"),
      });
    });
  });
}

/** Starts the CLI with a stdout (or stderr) whose reader is gone before the first write: every write fails with EPIPE. */
function withClosedPipe(
  args: string[],
  env: NodeJS.ProcessEnv,
  which: "stdout" | "stderr",
): Promise<{ code: number | null; other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child[which].destroy();
    let other = "";
    child[which === "stdout" ? "stderr" : "stdout"].on("data", (d) => {
      other += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, other }));
  });
}

function auditedProject(): { dir: string; env: NodeJS.ProcessEnv; script: string } {
  const dir = tempDir();
  const home = mkdtempSync(join(tmpdir(), "gh-epipe-home-"));
  mkdirSync(join(dir, ".gatehouse"));
  writeFileSync(join(dir, ".gatehouse/settings.json"), JSON.stringify({ extensions: ["@gatehouse/tool-audit"] }));
  const calls = Array.from({ length: 30 }, (_, i) => ({
    type: "toolCall",
    id: `W${i}`,
    name: "write",
    arguments: { path: `f${i}.txt`, content: "x" },
  }));
  const script = writeScript(dir, [{ content: calls }, { content: [{ type: "text", text: "done" }] }]);
  return { dir, env: { GATEHOUSE_HOME: home }, script };
}

describe("output piped into a command that closes early", () => {
  it("gatehouse run --script s.json --json | head -1: exit 0, the first event, no stack trace", async () => {
    const p = auditedProject();
    const result = await throughHead(["run", "--script", p.script, "--cwd", p.dir, "--json"], p.env);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.first)).toMatchObject({ type: "extension_loaded" });
    expect(result.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  });

  it("gatehouse audit stats | head -1: exit 0, no stack trace", async () => {
    const p = auditedProject();
    expect((await runCli(["run", "--script", p.script, "--cwd", p.dir, "--json"], { env: p.env })).code).toBe(0);
    const result = await throughHead(["audit", "stats", "--cwd", p.dir], p.env);
    expect(result.status).toBe(0);
    expect(result.first).toMatch(/audit\.jsonl: \d+ records, 1 session, 30 calls ended, 0 unfinished$/);
    expect(result.stderr).toBe("");
  });

  it.each([
    ["stdout", "run --json"],
    ["stderr", "run (the live view on stdout, notices on a closed stderr)"],
  ] as const)("a %s closed before the first write (%s) ends quietly with exit 0", async (which, _what) => {
    const p = auditedProject();
    const json = which === "stdout" ? ["--json"] : [];
    const result = await withClosedPipe(["run", "--script", p.script, "--cwd", p.dir, ...json], p.env, which);
    expect(result.code).toBe(0);
    expect(result.other).not.toMatch(/EPIPE|\n\s+at /);
  });

  it("audit tail and stats with a closed stdout end quietly with exit 0", async () => {
    const p = auditedProject();
    await runCli(["run", "--script", p.script, "--cwd", p.dir, "--json"], { env: p.env });
    for (const sub of ["tail", "stats", "verify"]) {
      const result = await withClosedPipe(["audit", sub, "--cwd", p.dir], p.env, "stdout");
      expect([sub, result.code, result.other]).toEqual([sub, 0, ""]);
    }
  });
});

/** Runs the CLI with stdout on /dev/full: every write to it fails with ENOSPC. */
function withFullStdout(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const full = openSync("/dev/full", "w");
  try {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", full, "pipe"],
    });
    return collect(child, "").then(({ code, stderr }) => ({ code, stderr }));
  } finally {
    closeSync(full);
  }
}

describe("a stdout that cannot be written (> /dev/full)", () => {
  it("says so in one line and exits 1, no stack trace, for a command and for a run that then stops cleanly", async () => {
    const p = auditedProject();
    for (const args of [
      ["tools", "--cwd", p.dir],
      ["--help"],
      ["run", "--script", p.script, "--cwd", p.dir, "--json"],
    ]) {
      const result = await withFullStdout(args, p.env);
      expect([args[0], result.code]).toEqual([args[0], 1]);
      // Said once, last (a run's notices come before it), with no stack trace.
      expect(result.stderr.split("cannot write to stdout")).toHaveLength(2);
      expect(result.stderr).toMatch(/(^|\n)gatehouse: cannot write to stdout: ENOSPC\n$/);
      expect(result.stderr).not.toMatch(/\n\s+at |Error/);
    }
    // The run stopped as on any stop: its audit log is whole and sealed.
    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.stderr).toBe("");
    expect(verify.code).toBe(0);
  });
});
