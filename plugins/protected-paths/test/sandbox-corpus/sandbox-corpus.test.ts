import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CorpusProject, createCorpusProject, diff, runCorpus, snapshot } from "./corpus-project.ts";
import { type Attempt, type AttemptContext, escapeAttempts } from "./escape-attempts.ts";
import { EVERYDAY, prepareEveryday } from "./everyday-commands.ts";

// The corpus needs bubblewrap; without it the test fails (it is never skipped on Linux).
const linux = process.platform === "linux";

/** What Gatehouse itself writes under its home during a run (the sandbox hides the home from commands). */
const OWN_STATE = new Set(["sandbox", "quarantine", "cache"]);

function bwrapWorks(): boolean {
  return spawnSync(process.env.GATEHOUSE_BWRAP || "bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
}

/** Names a command may never leave behind in the workspace: secrets, git internals that run code, start-up files, the policy. */
function protectedEntry(rel: string): boolean {
  const name = path.posix.basename(rel);
  return (
    /^\.env(\..*)?$/.test(name) ||
    [".envrc", ".npmrc", ".bashrc", ".git", ".gatehouse", "config.fish", "env-copy.txt"].includes(name) ||
    /(^|\/)\.git\/(config|commondir|hooks)(\/|$)/.test(rel) ||
    /(^|\/)\.gatehouse\//.test(rel) ||
    /(^|\/)\.claude\/(skills|agents|commands)(\/|$)/.test(rel) ||
    /(^|\/)\.vscode\/mcp\.json$/.test(rel)
  );
}

/** Processes whose command line holds `marker` (a background job that outlived its call). */
function processesNamed(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(marker)) found.push(`${pid}: ${cmdline.replaceAll("\0", " ")}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function ends(events: { type: string }[]): Map<string, ToolExecutionEndEvent> {
  return new Map(
    events
      .filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end")
      .map((e) => [e.toolCallId, e] as const),
  );
}

function textOf(end: ToolExecutionEndEvent | undefined): string {
  return (end?.result.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

describe.skipIf(!linux)("sandbox corpus: escape attempts through gatehouse run", () => {
  let project: CorpusProject;
  let server: Server;
  let connections = 0;
  let ctx: AttemptContext;
  let canary: ChildProcess;

  beforeAll(async () => {
    if (!bwrapWorks()) throw new Error("bubblewrap cannot start here: apt-get install -y bubblewrap");
    project = createCorpusProject();
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    // A process of the host no sandboxed command may kill (it only ends when the test kills it).
    canary = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
    const tag = path.basename(project.base);
    ctx = {
      outside: project.outside,
      base: project.base,
      gh: project.gh,
      port,
      backgroundMarker: `gh-corpus-bg-${tag}`,
      tmpCanary: `/tmp/gh-corpus-canary-${tag}`,
      hostCanary: `gh-corpus-${tag}`,
      canaryPid: canary.pid ?? 0,
    };
  });

  /** Files an escape would have left on the host: reported by the test, removed here. */
  const hostLeftovers = () =>
    [ctx.tmpCanary, `/etc/${ctx.hostCanary}`, `/etc/${ctx.hostCanary}-ns`, `/usr/local/${ctx.hostCanary}`].filter((p) =>
      existsSync(p),
    );

  afterAll(() => {
    server?.close();
    canary?.kill("SIGKILL");
    for (const p of ctx ? hostLeftovers() : []) rmSync(p, { force: true });
    if (project) rmSync(project.base, { recursive: true, force: true });
  });

  it("holds: no secret in any event, nothing protected or outside the workspace changed, every attempt ran or was refused", async () => {
    const groups = escapeAttempts(ctx);
    const attempts = groups.flat();
    expect(attempts.length).toBeGreaterThanOrEqual(80);
    const outsideBefore = snapshot(project.outside);
    const homeBefore = snapshot(project.home);
    const ghBefore = snapshot(project.gh, (rel) => OWN_STATE.has(rel));
    const wsProtected = (s: Map<string, string>) => new Map([...s].filter(([rel]) => protectedEntry(rel)));
    const wsBefore = wsProtected(snapshot(project.ws, (rel) => rel === ".git/objects"));

    // Each group is one run; each attempt is one turn (its calls one parallel batch).
    const started = Date.now();
    const runs = await Promise.all(
      groups.map((group, i) =>
        runCorpus(
          project,
          group.map((attempt: Attempt) => ({
            content: attempt.calls.map((call, n) => ({
              type: "toolCall",
              id: attempt.calls.length === 1 ? attempt.id : `${attempt.id}-${n}`,
              name: call.name,
              arguments: call.arguments,
            })),
          })),
          `group-${i}`,
        ),
      ),
    );

    console.log(`corpus: ${attempts.length} attempts in ${Date.now() - started} ms`);
    const problems: string[] = [];
    for (const [i, run] of runs.entries()) {
      if (run.code !== 0) problems.push(`group ${i} exited ${run.code}: ${run.stderr.slice(0, 500)}`);
      const stream = run.stdout;
      for (const secret of project.secrets) {
        if (stream.includes(secret)) {
          const where = run.events.find((e) => JSON.stringify(e).includes(secret));
          problems.push(`group ${i}: secret ${secret.split("-")[1]} leaked in ${JSON.stringify(where).slice(0, 400)}`);
        }
      }
      const byId = ends(run.events);
      for (const attempt of groups[i] ?? []) {
        const results = attempt.calls.map((_, n) =>
          byId.get(attempt.calls.length === 1 ? attempt.id : `${attempt.id}-${n}`),
        );
        results.forEach((end, n) => {
          const call = attempt.calls[n];
          if (!end) problems.push(`${attempt.id} (${attempt.what}): call ${n} has no end event`);
          else if (call?.name === "bash" && end.outcome !== "blocked") {
            const id = String(call.arguments.command).match(/echo RAN-(\S+)$/)?.[1];
            if (!textOf(end).includes(`RAN-${id}`)) {
              problems.push(
                `${attempt.id} (${attempt.what}): neither refused nor ran to its end: ${textOf(end).slice(0, 300)}`,
              );
            }
          }
        });
        try {
          attempt.expectText?.(results.map(textOf));
        } catch (error) {
          problems.push(`${attempt.id} (${attempt.what}): ${(error as Error).message.slice(0, 300)}`);
        }
      }
    }

    problems.push(...diff(outsideBefore, snapshot(project.outside)).map((d) => `outside changed: ${d}`));
    problems.push(...diff(homeBefore, snapshot(project.home)).map((d) => `home changed: ${d}`));
    const ghAfter = snapshot(project.gh, (rel) => OWN_STATE.has(rel));
    problems.push(...diff(ghBefore, ghAfter).map((d) => `GATEHOUSE_HOME changed: ${d}`));
    const wsAfter = wsProtected(snapshot(project.ws, (rel) => rel === ".git/objects"));
    problems.push(...diff(wsBefore, wsAfter).map((d) => `protected workspace entry changed: ${d}`));
    problems.push(...hostLeftovers().map((p) => `a file appeared on the host: ${p}`));
    if (canary.exitCode !== null || canary.signalCode !== null) problems.push("a process of the host was killed");
    if (connections > 0) problems.push(`${connections} network connection(s) reached the host`);
    problems.push(...processesNamed(ctx.backgroundMarker).map((p) => `a background job outlived its call: ${p}`));
    expect(problems).toEqual([]);
  }, 240_000);
});

describe.skipIf(!linux)("sandbox corpus: everyday commands still work", () => {
  let project: CorpusProject;

  beforeAll(() => {
    if (!bwrapWorks()) throw new Error("bubblewrap cannot start here: apt-get install -y bubblewrap");
    project = createCorpusProject();
    prepareEveryday(project.ws);
  });

  afterAll(() => {
    if (project) rmSync(project.base, { recursive: true, force: true });
  });

  it("compilers, build tools, git status/diff/commit, npm test and install, pipes and here-documents run in the sandbox", async () => {
    expect(EVERYDAY.length).toBeGreaterThanOrEqual(10);
    const turns = EVERYDAY.map((e) => ({
      content: [{ type: "toolCall", id: e.id, name: "bash", arguments: { command: e.command } }],
    }));
    const run = await runCorpus(project, turns, "everyday");
    expect(run.code).toBe(0);
    const byId = ends(run.events);
    const failures = EVERYDAY.flatMap((e) => {
      const end = byId.get(e.id);
      if (end?.outcome === "executed" && textOf(end).includes(e.shows)) return [];
      return [`${e.id} (${e.what}): ${end?.outcome} ${textOf(end).slice(0, 400)}`];
    });
    expect(failures).toEqual([]);
    // The work really landed in the workspace.
    expect(readFileSync(path.join(project.ws, "dist/bundle.js"), "utf8")).toBe("bundled");
    expect(existsSync(path.join(project.ws, "node_modules/local-pkg/index.js"))).toBe(true);
    const log = spawnSync("git", ["log", "--oneline"], { cwd: project.ws, encoding: "utf8" }).stdout;
    expect(log).toContain("everyday work");
  }, 120_000);
});
