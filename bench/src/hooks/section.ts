import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3, spread } from "../stats.ts";

/** Issue #15: one PreToolUse decision of `gatehouse hook claude-code`, process start included. */
const TARGET_MS = 150;

/** The built CLI, found through its package like a user's install would. */
function cliBin(): string {
  const manifest = createRequire(import.meta.url).resolve("@gatehouse/cli/package.json");
  return join(dirname(manifest), "bin", "gatehouse.js");
}

function payload(cwd: string, id: number, file: string): string {
  return JSON.stringify({
    session_id: "bench",
    transcript_path: join(cwd, "transcript.jsonl"),
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(cwd, file), content: "x" },
    tool_use_id: `toolu_bench_${id}`,
  });
}

/**
 * The command `gatehouse hook install claude-code` writes into the project's .claude/settings.json
 * (with the built bin as the command), read back from that file: what Claude Code runs.
 */
function installedCommand(bin: string, cwd: string, home: string): string {
  const install = spawnSync(
    process.execPath,
    [bin, "hook", "install", "claude-code", "--project", "--cwd", cwd, "--command", `"${process.execPath}" "${bin}"`],
    { env: { ...process.env, GATEHOUSE_HOME: home }, encoding: "utf8" },
  );
  if (install.status !== 0) throw new Error(`hook install failed: ${install.stderr}`);
  const settings = JSON.parse(readFileSync(join(cwd, ".claude", "settings.json"), "utf8"));
  return settings.hooks.PreToolUse[0].hooks[0].command as string;
}

/** Wall milliseconds of one process that answers one hook call; throws when the answer is not the expected one. */
function timeHook(options: {
  /** The installed command, run through `sh -c` as the agent runs it; else the bin started directly. */
  command?: string;
  bin: string;
  cwd: string;
  home: string;
  input: string;
  denied: boolean;
  env?: NodeJS.ProcessEnv;
}): number {
  const [file, args] = options.command
    ? ["sh", ["-c", options.command]]
    : [process.execPath, [options.bin, "hook", "claude-code"]];
  const started = performance.now();
  const child = spawnSync(file, args, {
    input: options.input,
    env: { ...(options.env ?? process.env), GATEHOUSE_HOME: options.home, CLAUDE_PROJECT_DIR: options.cwd },
    encoding: "utf8",
  });
  const ms = performance.now() - started;
  const denied = child.stdout.includes('"permissionDecision":"deny"');
  if (child.status !== 0 || denied !== options.denied) {
    throw new Error(`hook answered unexpectedly (exit ${child.status}): ${child.stdout}${child.stderr}`);
  }
  return ms;
}

function timeNode(env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  spawnSync(process.execPath, ["-e", "0"], { env });
  return performance.now() - started;
}

/** The hooks section: ms for one `gatehouse hook claude-code` PreToolUse decision, as Claude Code runs it. */
export const hooksSection: BenchSection = {
  name: "hooks",
  title:
    "Agent hooks: ms per `gatehouse hook claude-code` PreToolUse (one process per call, both guards enabled, audit written)",
  async run({ runs, warmups, verbose, log }) {
    const root = mkdtempSync(join(tmpdir(), "gatehouse-bench-hooks-"));
    try {
      const cwd = join(root, "project");
      const home = join(root, "home");
      mkdirSync(join(cwd, ".gatehouse"), { recursive: true });
      const settings = { extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] };
      writeFileSync(join(cwd, ".gatehouse", "settings.json"), JSON.stringify(settings));
      const bin = cliBin();
      const command = installedCommand(bin, cwd, home);
      let id = 0;
      // The first call loads the project fully and stores the plan the later calls decide from.
      const first = timeHook({ command, bin, cwd, home, input: payload(cwd, id++, "a.txt"), denied: false });
      const samples = {
        allowed: [] as number[],
        denied: [] as number[],
        directAllowed: [] as number[],
        directDenied: [] as number[],
        node: [] as number[],
      };
      const count = Math.max(runs * 3, 21);
      for (let i = 0; i < warmups + count; i++) {
        const allowed = timeHook({ command, bin, cwd, home, input: payload(cwd, id++, "a.txt"), denied: false });
        const denied = timeHook({ command, bin, cwd, home, input: payload(cwd, id++, ".env"), denied: true });
        const directAllowed = timeHook({ bin, cwd, home, input: payload(cwd, id++, "a.txt"), denied: false });
        const directDenied = timeHook({ bin, cwd, home, input: payload(cwd, id++, ".env"), denied: true });
        const node = timeNode();
        if (i < warmups) continue;
        samples.allowed.push(allowed);
        samples.denied.push(denied);
        samples.directAllowed.push(directAllowed);
        samples.directDenied.push(directDenied);
        samples.node.push(node);
      }
      // Node parses every certificate NODE_EXTRA_CA_CERTS names at each start, before any of our
      // code (~80 ms of `node -e 0` on the machine this was written on). The installed command
      // starts Node without it (packages/cli/src/hook/ca-certs.ts); the bin started directly, with
      // and without the variable, says what Gatehouse itself adds to Node's start.
      const withoutCerts = { allowed: [] as number[], node: [] as number[] };
      if (process.env.NODE_EXTRA_CA_CERTS) {
        const env = { ...process.env };
        delete env.NODE_EXTRA_CA_CERTS;
        for (let i = 0; i < warmups + count; i++) {
          const allowed = timeHook({ bin, cwd, home, input: payload(cwd, id++, "a.txt"), denied: false, env });
          const node = timeNode(env);
          if (i < warmups) continue;
          withoutCerts.allowed.push(allowed);
          withoutCerts.node.push(node);
        }
      }
      if (verbose) {
        for (const [name, xs] of Object.entries({ ...samples, ...withoutCerts })) {
          log(
            `  ${name.padEnd(14)} [${xs.map((x) => x.toFixed(1)).join(" ")}] ms spread ${(spread(xs) * 100).toFixed(0)}%`,
          );
        }
      }
      const certs = process.env.NODE_EXTRA_CA_CERTS ? " (this machine sets NODE_EXTRA_CA_CERTS)" : "";
      const figures: Figure[] = [
        {
          name: "PreToolUse decision, allowed Write, the installed command via sh -c (median ms, process included)",
          gatehouse: round3(median(samples.allowed)),
          target: `≤ ${TARGET_MS}`,
        },
        {
          name: "PreToolUse decision, denied Write to .env, the installed command via sh -c (median ms)",
          gatehouse: round3(median(samples.denied)),
          target: `≤ ${TARGET_MS}`,
        },
        { name: "first call: full project load, stores the plan (ms)", gatehouse: round3(first), target: "info" },
        {
          name: `allowed decision, bin started directly by node${certs} (median ms)`,
          gatehouse: round3(median(samples.directAllowed)),
          target: "info",
        },
        {
          name: `denied decision, bin started directly by node${certs} (median ms)`,
          gatehouse: round3(median(samples.directDenied)),
          target: "info",
        },
        {
          name: `node -e 0 on this machine${certs} (median ms)`,
          gatehouse: round3(median(samples.node)),
          target: "info",
        },
        ...(withoutCerts.allowed.length === 0
          ? []
          : [
              {
                name: "allowed decision, bin started directly without NODE_EXTRA_CA_CERTS (median ms)",
                gatehouse: round3(median(withoutCerts.allowed)),
                target: "info",
              },
              {
                name: "node -e 0 without NODE_EXTRA_CA_CERTS (median ms)",
                gatehouse: round3(median(withoutCerts.node)),
                target: "info",
              },
              {
                // What a decision adds to Node's own start, whatever the machine.
                name: "allowed decision ÷ node -e 0, both without NODE_EXTRA_CA_CERTS (ratio of medians)",
                gatehouse: round3(median(withoutCerts.allowed) / median(withoutCerts.node)),
                target: "info",
              },
            ]),
        {
          name: "allowed decision, bin started directly ÷ node -e 0 (ratio of medians)",
          gatehouse: round3(median(samples.directAllowed) / median(samples.node)),
          target: "info",
        },
      ];
      return { rows: [], figures, targets: {} };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
