#!/usr/bin/env node
// `pnpm demo`: copies the demo project into a fresh workspace (so the repository stays clean and
// every run starts from the same files), then runs the scripted agent on it through the real CLI.
// Extra arguments are passed to `gatehouse run`, e.g. `pnpm demo --json`.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const workspace = join(here, "workspace");

rmSync(workspace, { recursive: true, force: true });
cpSync(join(here, "project"), workspace, { recursive: true });

const extra = process.argv.slice(2).filter((arg) => arg !== "--");
if (!extra.includes("--json")) console.log(`demo workspace: ${relative(process.cwd(), workspace)}\n`);
const cli = join(root, "packages", "cli", "bin", "gatehouse.js");
const args = [cli, "run", "--script", join(here, "script.json"), "--cwd", workspace, ...extra];
const result = spawnSync(process.execPath, args, { stdio: "inherit" });
process.exitCode = result.status ?? 1;

// The second half of the classic experiment: what the audit recorded about the two writes. The
// audit lives in the per-user Gatehouse directory, one log per project; `audit verify --cwd` finds it.
if (!extra.includes("--json") && result.status === 0) {
  const verifyArgs = [cli, "audit", "verify", "--cwd", workspace];
  const verify = spawnSync(process.execPath, verifyArgs, { encoding: "utf8" });
  const report = JSON.parse(spawnSync(process.execPath, [...verifyArgs, "--json"], { encoding: "utf8" }).stdout);
  const auditFile = report.file;
  console.log(`\n${verify.stdout.trim()}`); // the verdict, then the log it is about
  const text = readFileSync(auditFile, "utf8");
  const records = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  // The log keeps every run of this workspace: show this run's session (the last one started).
  const session = records.findLast((r) => r.kind === "session_start")?.session;
  for (const record of records) {
    if (record.session !== session) continue;
    if (record.toolCallId !== "write-env" && record.toolCallId !== "write-allowed") continue;
    const outcome =
      record.kind === "call_end" ? ` → ${record.outcome}${record.blockedBy ? ` (by ${record.blockedBy})` : ""}` : "";
    console.log(
      `  ${record.kind.padEnd(10)} ${record.toolCallId.padEnd(13)} ${JSON.stringify(record.args ?? record.paths)}${outcome}`,
    );
  }
  const leaked = text.includes("sk-demo-0000-never-in-the-audit");
  console.log(
    `  the text the model tried to write to .env is ${leaked ? "IN THE AUDIT (bug!)" : "not in the audit"}; .env ${existsSync(join(workspace, ".env")) ? "EXISTS (bug!)" : "was never created"}`,
  );
  // 0: intact. 3 (an unsealed tail) can only come from an earlier run of this workspace that was
  // killed: this run closed its session. Anything else is a broken audit.
  if (leaked || (verify.status !== 0 && verify.status !== 3)) process.exitCode = 1;
}
