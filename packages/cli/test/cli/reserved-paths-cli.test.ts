import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { events, runCli, writeScript } from "./cli-helpers.ts";

// Files Gatehouse keeps for itself wherever the settings put them: the managed settings file (even
// inside the workspace), the audit log and the team audit key. The agent may change none of them,
// through any tool, and may not read the key. Each attempt is blocked by protected-paths with the
// reservation's reason, or (bash) fails inside the sandbox; the files are unchanged afterwards.

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
type Ends = Map<string, { outcome?: string; blockedBy?: string; reason?: string; result?: unknown }>;

function endsOf(stdout: string): Ends {
  const ends: Ends = new Map();
  for (const e of events(stdout)) if (e.type === "tool_execution_end") ends.set(e.toolCallId as string, e as never);
  return ends;
}

const resultText = (end: { result?: unknown } | undefined) => JSON.stringify(end?.result ?? "");

describe("reserved paths: Gatehouse's own files are out of the agent's reach", () => {
  it("the managed settings file inside the workspace cannot be written, edited or replaced by bash", async () => {
    const p = makeProject({ "README.md": "hello\n" });
    const managedBody = pretty({ extensions: ["@gatehouse/protected-paths"] });
    const managed = p.write("team/managed.json", managedBody);
    const script = writeScript(p.dir, [
      {
        content: [
          call("W", "write", { path: "team/managed.json", content: "{}" }),
          call("E", "edit", { path: "team/managed.json", oldText: "protected-paths", newText: "hello-tool" }),
          call("B", "bash", { command: "echo '{}' > team/managed.json; rm -f team/managed.json" }),
          call("R", "read", { path: "team/managed.json" }),
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const env = { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed };
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env });
    expect(run.stderr).not.toContain("GH_GUARD_FAILED");
    const ends = endsOf(run.stdout);
    for (const id of ["W", "E"]) {
      expect(ends.get(id)).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(ends.get(id)?.reason).toContain("managed settings file");
      expect(ends.get(id)?.reason).toContain("reserved by gatehouse");
    }
    // Bash runs confined: the write fails inside the sandbox (or the analysis refuses it up front).
    expect(["blocked", "error", "executed"]).toContain(ends.get("B")?.outcome);
    expect(ends.get("R")).toMatchObject({ outcome: "executed" });
    expect(readFileSync(managed, "utf8")).toBe(managedBody);
  });

  it("the audit log and the team key outside the workspace: no write, no read of the key, in any tool", async () => {
    const outside = tempDir("gh-team-");
    const key = join(outside, "keys", "audit.key");
    mkdirSync(join(outside, "keys"), { recursive: true });
    writeFileSync(key, randomBytes(48).toString("hex"), { mode: 0o600 });
    const log = join(outside, "logs", "audit.jsonl");
    mkdirSync(join(outside, "logs"), { recursive: true });
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"],
        config: {
          // The outside is readable and writable for this project, so only the reservations stand in the way.
          "protected-paths": { allowOutsideWorkspace: { read: true, write: true } },
          "tool-audit": { file: log, key },
        },
      }),
    });
    const script = writeScript(p.dir, [
      {
        content: [
          call("RK", "read", { path: key }),
          call("GK", "grep", { pattern: ".", path: join(outside, "keys") }),
          call("WL", "write", { path: log, content: "forged\n" }),
          call("EL", "edit", { path: log, oldText: "blocked", newText: "executed" }),
          call("BK", "bash", { command: `cat ${key}` }),
          call("BL", "bash", { command: `echo forged >> ${log}` }),
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(run.stderr).not.toContain("GH_GUARD_FAILED");
    const ends = endsOf(run.stdout);
    const secret = readFileSync(key, "utf8");
    expect(ends.get("RK")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(ends.get("RK")?.reason).toContain("reserved by tool-audit");
    expect(ends.get("WL")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(ends.get("EL")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    for (const id of ["RK", "GK", "BK"]) expect(resultText(ends.get(id))).not.toContain(secret.slice(0, 24));
    expect(readFileSync(log, "utf8")).not.toContain("forged");

    // policy check explains the refusal with the same rule the run applied.
    const check = await runCli(
      ["policy", "check", "--cwd", p.dir, "--tool", "read", "--args", JSON.stringify({ path: key }), "--explain"],
      { env: p.env },
    );
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`(denied: reserved by tool-audit ${key})`);

    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.stdout + verify.stderr).not.toMatch(/tampered/i);
    expect(verify.code).toBe(0);
  });
});
