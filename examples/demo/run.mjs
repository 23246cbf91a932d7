#!/usr/bin/env node
// `pnpm demo`: copies the demo project into a fresh workspace (so the repository stays clean and
// every run starts from the same files), then runs the scripted agent on it through the real CLI.
// Extra arguments are passed to `gatehouse run`, e.g. `pnpm demo --json`.
import { spawnSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const workspace = join(here, "workspace");

rmSync(workspace, { recursive: true, force: true });
cpSync(join(here, "project"), workspace, { recursive: true });

const extra = process.argv.slice(2).filter((arg) => arg !== "--");
if (!extra.includes("--json")) console.log(`demo workspace: ${relative(process.cwd(), workspace)}\n`);
const cli = join(root, "packages", "host", "bin", "gatehouse.mjs");
const args = [cli, "run", "--script", join(here, "script.json"), "--cwd", workspace, ...extra];
const result = spawnSync(process.execPath, args, { stdio: "inherit" });
process.exitCode = result.status ?? 1;
