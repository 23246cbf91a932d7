import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SandboxLayout, SandboxPlan, SandboxRunResult } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxRuntime, SETUP_ATTEMPTS } from "../../src/sandbox/sandbox-runtime.ts";
import { tempDir } from "../helpers/scenario.ts";

const linux = process.platform === "linux";

const created: string[] = [];
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const layoutOf = (ws: string, masked: string[]): SandboxLayout => ({
  writable: [ws],
  outside: "read-only",
  readOnly: [],
  masked,
  pinned: [],
  network: false,
});

/**
 * A workspace whose `d/secret` a guard masks. `spoil()` replaces the directory `d` by a plain file
 * (as another process may, between the plan and bwrap's mounts): bwrap then cannot create the
 * mount point and fails while setting up, before the command starts.
 */
function workspace() {
  const ws = tempDir("gh-setup-");
  const gh = tempDir("gh-setup-home-");
  created.push(ws, gh);
  const secret = path.join(ws, "d", "secret");
  mkdirSync(path.dirname(secret));
  writeFileSync(secret, "TOP-SECRET\n");
  const spoil = () => {
    rmSync(path.join(ws, "d"), { recursive: true, force: true });
    writeFileSync(path.join(ws, "d"), "now a file\n");
  };
  const runtime = new SandboxRuntime({ gatehouseHome: gh, env: { ...process.env, GATEHOUSE_HOME: gh } });
  return { ws, secret, spoil, runtime };
}

/** A guard's profile over `plan` that counts its plans and reviews. */
function counted(plan: (n: number) => SandboxLayout) {
  const counts = { prepared: 0, reviewed: 0 };
  const profile = {
    prepare: (): SandboxPlan => {
      counts.prepared += 1;
      return {
        layout: plan(counts.prepared),
        review: () => {
          counts.reviewed += 1;
          return [];
        },
      };
    },
  };
  return { profile, counts };
}

async function run(
  runtime: SandboxRuntime,
  profile: { prepare: () => SandboxPlan },
  options: { ws: string; command: string; abortOn?: string },
): Promise<SandboxRunResult & { output: string }> {
  let output = "";
  const controller = new AbortController();
  const result = await runtime.confine(profile, "test-guard").run({
    command: options.command,
    cwd: options.ws,
    timeoutMs: 60_000,
    signal: controller.signal,
    onData: (chunk) => {
      output += Buffer.from(chunk).toString("utf8");
      if (options.abortOn !== undefined && output.includes(options.abortOn)) controller.abort();
    },
  });
  return { ...result, output };
}

/** Appends to ran.log in the workspace: how often the command really started. */
const COUNTING = "echo ran >> ran.log";
const timesRun = (ws: string) => (readFileSync(path.join(ws, "ran.log"), "utf8").match(/ran/g) ?? []).length;

describe.skipIf(!linux)("a sandbox bwrap fails to set up is planned afresh; its command never runs twice", () => {
  it("a masked path that can no longer be mounted when bwrap starts: planned again, the command runs once", async () => {
    const { ws, secret, spoil, runtime } = workspace();
    const { profile, counts } = counted((n) => {
      // The first plan is made while d/secret exists; the directory turns into a file right after.
      const layout = layoutOf(ws, existsSync(secret) ? [secret] : []);
      if (n === 1) spoil();
      return layout;
    });
    const r = await run(runtime, profile, { ws, command: `${COUNTING}; echo RAN; echo to-stderr >&2` });
    expect(r.spawnError).toBeUndefined();
    expect(r.exitCode).toBe(0);
    expect(counts).toEqual({ prepared: 2, reviewed: 2 });
    expect(timesRun(ws)).toBe(1);
    expect(r.output).toBe("RAN\nto-stderr\n");
  });

  it("a sandbox that cannot be set up however often it is planned fails closed with bwrap's reason; nothing runs", async () => {
    const { ws, secret, spoil, runtime } = workspace();
    spoil();
    const { profile, counts } = counted(() => layoutOf(ws, [secret]));
    const r = await run(runtime, profile, { ws, command: `${COUNTING}; echo RAN` });
    expect(r.exitCode).toBeNull();
    expect(r.spawnError?.message).toMatch(/bubblewrap could not set up the sandbox test-guard asked for \(bwrap: .+\)/);
    expect(r.spawnError?.message).toContain(`tried ${SETUP_ATTEMPTS} times`);
    expect(r.spawnError?.message).toContain("nothing ran");
    expect(counts).toEqual({ prepared: SETUP_ATTEMPTS, reviewed: SETUP_ATTEMPTS });
    expect(existsSync(path.join(ws, "ran.log"))).toBe(false);
    // bwrap's own message is the error, never the command's output.
    expect(r.output).toBe("");
  });

  it("a command that fails printing what looks like a bwrap error, or failing silently, ran: it is not started again", async () => {
    const { ws, runtime } = workspace();
    const lookalike = "bwrap: Can't bind mount /oldroot/x on /newroot/y: No such file or directory";
    const loud = counted(() => layoutOf(ws, []));
    const r1 = await run(runtime, loud.profile, { ws, command: `${COUNTING}; echo "${lookalike}" >&2; exit 1` });
    expect(r1.exitCode).toBe(1);
    expect(r1.spawnError).toBeUndefined();
    expect(r1.output).toBe(`${lookalike}\n`);
    expect(loud.counts.prepared).toBe(1);
    expect(timesRun(ws)).toBe(1);

    const silent = counted(() => layoutOf(ws, []));
    const r2 = await run(runtime, silent.profile, { ws, command: `${COUNTING}; exit 1` });
    expect(r2.exitCode).toBe(1);
    expect(r2.output).toBe("");
    expect(silent.counts.prepared).toBe(1);
    expect(timesRun(ws)).toBe(2);
  });

  it("a command killed while it runs (abort) ran: it is not started again", async () => {
    const { ws, runtime } = workspace();
    const { profile, counts } = counted(() => layoutOf(ws, []));
    const r = await run(runtime, profile, {
      ws,
      command: `${COUNTING}; echo STARTED; exec sleep 30`,
      abortOn: "STARTED",
    });
    expect(r.aborted).toBe(true);
    expect(r.exitSignal).toBe("SIGKILL");
    expect(counts.prepared).toBe(1);
    expect(timesRun(ws)).toBe(1);
  });
});
