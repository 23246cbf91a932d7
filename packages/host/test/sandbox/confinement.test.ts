import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  defineExtension,
  defineTool,
  type SandboxLayout,
  type SandboxProfile,
  type SandboxViolation,
  type ToolExecutionEndEvent,
} from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sandboxSupport } from "../../src/sandbox/sandbox-support.ts";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";

const linux = process.platform === "linux";

/** A guard that confines every call with an exec effect to `layout`, and reports `violations` after each run. */
function confiner(name: string, options: { layout: (ws: string) => SandboxLayout; violations?: SandboxViolation[] }) {
  return (ws: string) =>
    defineExtension({
      name,
      setup(api) {
        api.on(
          "tool_call",
          (event) => {
            if (!event.effects?.some((e) => e.kind === "exec")) return;
            const profile: SandboxProfile = {
              prepare: () => ({ layout: options.layout(ws), review: () => options.violations ?? [] }),
            };
            event.confine(profile);
          },
          { stage: "enforce" },
        );
      },
    });
}

const plain = (ws: string, over: Partial<SandboxLayout> = {}): SandboxLayout => ({
  writable: [ws],
  outside: "read-only",
  readOnly: [],
  masked: [],
  pinned: [],
  network: false,
  ...over,
});

function ends(events: { type: string }[]): Map<string, ToolExecutionEndEvent> {
  const list = events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");
  return new Map(list.map((e) => [e.toolCallId, e]));
}

function text(end: ToolExecutionEndEvent | undefined): string {
  return (end?.result.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Processes whose command line holds `marker`. */
function processesNamed(marker: string): string[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
}

const created: string[] = [];
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project() {
  const ws = tempDir("gh-confine-");
  const gh = tempDir("gh-confine-home-");
  created.push(ws, gh);
  writeFileSync(path.join(ws, "secret.txt"), "TOP-SECRET\n");
  writeFileSync(path.join(ws, "locked.txt"), "locked\n");
  return { ws, gh, env: { ...process.env, GATEHOUSE_HOME: gh } };
}

describe.skipIf(!linux)("confined calls run in bubblewrap with the guard's layout", () => {
  it("masked files read empty, read-only files stay, the workspace is writable, /tmp is private", async () => {
    const { ws, env } = project();
    const guard = confiner("jail", {
      layout: (w) => plain(w, { masked: [path.join(w, "secret.txt")], readOnly: [path.join(w, "locked.txt")] }),
    });
    const command = `cat secret.txt; echo changed > locked.txt; echo ok > new.txt; echo gone > /tmp/${path.basename(ws)}-canary`;
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command })] }, say("done")],
    });
    const a = ends(s.events).get("A");
    expect(text(a)).not.toContain("TOP-SECRET");
    expect(text(a)).toContain("Read-only file system");
    expect(readFileSync(path.join(ws, "locked.txt"), "utf8")).toBe("locked\n");
    expect(readFileSync(path.join(ws, "new.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(`/tmp/${path.basename(ws)}-canary`)).toBe(false);
  });

  it("mktemp works in the sandbox whatever TMPDIR the host has (a folder the sandbox hides or cannot write)", async () => {
    const { ws, env } = project();
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const hostTmp = path.join(ws, "..", `${path.basename(ws)}-tmp`);
    mkdirSync(hostTmp);
    created.push(hostTmp);
    const s = await runScenario({
      cwd: ws,
      env: { ...env, TMPDIR: hostTmp },
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command: 'f=$(mktemp) && echo "made $f"' })] }, say("done")],
    });
    const a = ends(s.events).get("A");
    expect(a?.isError).toBe(false);
    expect(text(a)).toMatch(/made \/tmp\/tmp\./);
    expect(readdirSync(hostTmp)).toEqual([]);
  });

  it("Gatehouse's home is hidden and credentials are not in the environment, whatever the layout says", async () => {
    const { ws, env } = project();
    const gh = path.join(ws, "state");
    mkdirSync(gh);
    writeFileSync(path.join(gh, "audit.key"), "KEY-MATERIAL\n");
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const s = await runScenario({
      cwd: ws,
      env: { ...env, GATEHOUSE_HOME: gh, OPENAI_API_KEY: "sk-should-not-show" },
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command: "cat state/audit.key; ls state; env" })] }, say("done")],
    });
    const out = text(ends(s.events).get("A"));
    expect(out).not.toContain("KEY-MATERIAL");
    expect(out).not.toContain("sk-should-not-show");
    expect(readFileSync(path.join(gh, "audit.key"), "utf8")).toBe("KEY-MATERIAL\n");
  });

  it("a background job ends with its command (a process namespace of its own)", async () => {
    const { ws, env } = project();
    const marker = `gh-confine-bg-${path.basename(ws)}`;
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [guard(ws)],
      turns: [
        { content: [call("A", "bash", { command: `(exec -a ${marker} sleep 1000) & echo started` })] },
        say("done"),
      ],
    });
    expect(text(ends(s.events).get("A"))).toContain("started");
    expect(processesNamed(marker)).toEqual([]);
  });

  it("a timeout kills the sandbox and everything in it", async () => {
    const { ws, env } = project();
    const marker = `gh-confine-timeout-${path.basename(ws)}`;
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const command = `(exec -a ${marker}-child sleep 1000) & exec -a ${marker} sleep 1000`;
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command, timeout: 0.5 })] }, say("done")],
    });
    expect(text(ends(s.events).get("A"))).toContain("Command timed out after 0.5s");
    expect(processesNamed(marker)).toEqual([]);
  });

  it("what the guard's review undid makes the call blocked in the guard's name", async () => {
    const { ws, env } = project();
    const violation = {
      path: path.join(ws, ".env"),
      rule: "no env",
      reason: "The command created .env; it was removed.",
    };
    const guard = confiner("jail", { layout: (w) => plain(w), violations: [violation] });
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command: "echo hi" })] }, say("done")],
    });
    const a = ends(s.events).get("A");
    expect(a).toMatchObject({ outcome: "blocked", blockedBy: "jail", isError: true, reason: violation.reason });
    expect(text(a)).toContain("Blocked by jail:\nThe command created .env; it was removed.");
    expect(a?.result.details).toMatchObject({ violations: [{ path: violation.path, rule: "no env" }] });
  });
});

describe("fail closed at the host", () => {
  it("a confined call to a tool that does not declare honoursSandbox is refused in the guard's name", async () => {
    const { ws, env } = project();
    const runner = defineTool({
      name: "runner",
      description: "runs a command its own way",
      parameters: z.object({ command: z.string() }),
      effects: (args) => [{ kind: "exec", command: args.command }],
      execute: () => ({ content: [{ type: "text", text: "ran unconfined" }] }),
    });
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const s = await runScenario({
      cwd: ws,
      env,
      tools: [runner],
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "runner", { command: "id" })] }, say("done")],
    });
    const a = ends(s.events).get("A");
    expect(a).toMatchObject({ outcome: "blocked", blockedBy: "jail" });
    expect(a?.reason).toBe(
      "Call to tool runner refused: jail confines its processes to a sandbox, but the tool does not declare honoursSandbox (it would start them without ctx.sandbox).",
    );
  });

  it("where no sandbox can start, a confined call is refused with the command that installs one", async () => {
    const { ws, env } = project();
    const guard = confiner("jail", { layout: (w) => plain(w) });
    const s = await runScenario({
      cwd: ws,
      env: { ...env, GATEHOUSE_BWRAP: path.join(ws, "no-such-bwrap") },
      extensions: [guard(ws)],
      turns: [{ content: [call("A", "bash", { command: "echo ran > ran.txt" })] }, say("done")],
    });
    const a = ends(s.events).get("A");
    expect(a).toMatchObject({ outcome: "blocked", blockedBy: "jail" });
    expect(a?.reason).toContain("which cannot start here");
    expect(a?.reason).toContain("apt-get install -y bubblewrap");
    expect(existsSync(path.join(ws, "ran.txt"))).toBe(false);
  });

  it("a second confinement of one call blocks it", async () => {
    const { ws, env } = project();
    const a = confiner("first", { layout: (w) => plain(w) });
    const b = confiner("second", { layout: (w) => plain(w) });
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [a(ws), b(ws)],
      turns: [{ content: [call("A", "bash", { command: "echo hi" })] }, say("done")],
    });
    expect(ends(s.events).get("A")).toMatchObject({ outcome: "blocked", blockedBy: "second" });
  });

  it("off Linux there is no sandbox, and the answer says so without trying", async () => {
    const answer = await sandboxSupport({ bwrap: "bwrap", platform: "darwin" });
    expect(answer).toEqual({
      ok: false,
      reason: "no sandbox is available on darwin yet (Gatehouse confines commands with bubblewrap, which needs Linux)",
      fix: "run on Linux",
    });
  });
});

describe("read filters", () => {
  it("grep, find and ls withhold what any guard's filter refuses, and a filter that throws withholds too", async () => {
    const { ws, env } = project();
    const filter = (name: string, canRead: (p: string) => boolean) =>
      defineExtension({
        name,
        setup(api) {
          api.on("tool_call", (event) => event.restrictReads(canRead), { stage: "enforce" });
        },
      });
    const s = await runScenario({
      cwd: ws,
      env,
      extensions: [
        filter("no-secret", (p) => !p.endsWith("secret.txt")),
        filter("crashes-on-locked", (p) => {
          if (p.endsWith("locked.txt")) throw new Error("boom");
          return true;
        }),
      ],
      turns: [
        {
          content: [
            call("L", "ls", {}),
            call("F", "find", { pattern: "*.txt" }),
            call("G", "grep", { pattern: "SECRET|locked" }),
          ],
        },
        say("done"),
      ],
    });
    const e = ends(s.events);
    expect(text(e.get("L"))).toBe("(. has no entries you may see)\n\n[2 entries withheld by the path policy]");
    expect(text(e.get("F"))).toContain("[2 entries withheld by the path policy]");
    expect(text(e.get("G"))).not.toContain("TOP-SECRET");
    expect(text(e.get("G"))).toContain("[2 entries withheld by the path policy]");
  });
});
