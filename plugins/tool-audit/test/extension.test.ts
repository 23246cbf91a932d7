import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, defineTool, type ExtensionDefinition } from "@gatehouse/sdk";
import { createTestHost, type TestHost } from "@gatehouse/testing";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readAuditKey } from "../src/audit-key.ts";
import { auditLocation } from "../src/audit-location.ts";
import { createToolAudit, type ToolAuditOptions } from "../src/extension.ts";
import type { AuditRecord, CallEndRecord, CallStartRecord } from "../src/record.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { fileLines, tempDir } from "./helpers.ts";

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
});
const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });

const explode = defineTool({
  name: "explode",
  description: "always throws",
  parameters: z.object({}),
  execute: () => {
    throw new Error("boom");
  },
});

interface RunOptions {
  cwd?: string;
  home?: string;
  turns: unknown[];
  config?: Record<string, unknown>;
  extensions?: ExtensionDefinition[];
  audit?: ToolAuditOptions;
  logger?: pino.Logger;
}

/** Verifies a project's log the way `gatehouse audit verify` does: with the home's key and seals. */
function verifyIn(home: string, cwd: string, file?: string) {
  const location = auditLocation({ home, cwd, file });
  const key = readAuditKey(location.keyFile);
  return verifyAuditFile(location.file, { key, sealDir: location.sealDir });
}

/** A test host with tool-audit first, over `cwd` and `home` (fresh unless given). */
async function auditedHost(options: Omit<RunOptions, "turns"> & { turns?: unknown[] }) {
  const cwd = options.cwd ?? tempDir();
  const home = options.home ?? tempDir("gh-home-");
  const t = await createTestHost({
    cwd,
    home,
    turns: (options.turns ?? []) as never,
    ...(options.logger ? { logger: options.logger } : {}),
    tools: [explode],
    extensions: [createToolAudit(options.audit), ...(options.extensions ?? [])],
    config: { "tool-audit": options.config ?? {} },
  });
  hosts.push(t);
  return t;
}

async function run(options: RunOptions) {
  const t = await auditedHost(options);
  const { cwd, home } = t;
  const configured = options.config?.file;
  const result = await t.run("go");
  const file = auditLocation({ home, cwd, file: typeof configured === "string" ? configured : undefined }).file;
  return { cwd, home, host: t.host, events: t.events, result, file, verify: () => verifyIn(home, cwd) };
}

const records = (file: string) => fileLines(file).map((l) => JSON.parse(l) as AuditRecord);
const starts = (rs: AuditRecord[]) => rs.filter((r): r is CallStartRecord => r.kind === "call_start");
const ends = (rs: AuditRecord[]) => rs.filter((r): r is CallEndRecord => r.kind === "call_end");

const SECRETS = {
  write: "W-SECRET-41f0c9",
  unknown: "U-SECRET-8a22d1",
  edit: "E-SECRET-77b3e0",
  bash: "B-SECRET-c5d2aa",
  blocked: "X-SECRET-19ee04",
};

const guard = defineExtension({
  name: "guard",
  setup: (api) =>
    api.on(
      "tool_call",
      (e) =>
        e.input.path === "blocked.txt"
          ? { block: true, reason: `blocked.txt is read-only by team policy. ${"Details. ".repeat(100)}` }
          : undefined,
      { stage: "enforce" },
    ),
});

describe("tool-audit in a real host", () => {
  for (const fsync of ["batch", "every"] as const) {
    it(`${fsync}: every call has a start and an end with its id, outcomes are right, and no secret is written`, async () => {
      const { file, result, events, cwd, verify } = await run({
        config: { fsync },
        extensions: [guard],
        turns: [
          {
            content: [
              call("A", "write", { path: "notes/secret.txt", content: SECRETS.write }),
              call("B", "teleport", { target: SECRETS.unknown }),
              call("C", "edit", { path: "notes/secret.txt", oldText: SECRETS.edit }),
              call("D", "bash", { command: `echo ${SECRETS.bash}` }),
              call("E", "write", { path: "blocked.txt", content: SECRETS.blocked }),
              call("F", "explode"),
            ],
          },
          say("done"),
        ],
      });
      expect(result.stoppedBy).toBeUndefined();
      // The secrets did flow through the run (the bash output echoes one) …
      expect(JSON.stringify(events)).toContain(SECRETS.bash);
      // … but none of them reached the audit.
      const text = readFileSync(file, "utf8");
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);

      const rs = records(file);
      expect(rs[0]?.kind).toBe("session_start");
      expect(rs.at(-1)).toMatchObject({
        kind: "session_end",
        counts: { calls: 6, ended: 6, unfinished: 0 },
      });
      const ids = ["A", "B", "C", "D", "E", "F"];
      expect(
        starts(rs)
          .map((r) => r.toolCallId)
          .sort(),
      ).toEqual(ids);
      expect(
        ends(rs)
          .map((r) => r.toolCallId)
          .sort(),
      ).toEqual(ids);
      const outcome = Object.fromEntries(ends(rs).map((r) => [r.toolCallId, r.outcome]));
      expect(outcome).toEqual({
        A: "executed",
        B: "unknown",
        C: "invalid",
        D: "executed",
        E: "blocked",
        F: "failed",
      });
      for (const end of ends(rs)) {
        const start = starts(rs).find((s) => s.toolCallId === end.toolCallId)!;
        expect(rs.indexOf(start)).toBeLessThan(rs.indexOf(end));
        expect(end).toMatchObject({ tool: start.tool, turn: 1 });
        expect(end.durationMs).toBeGreaterThanOrEqual(0);
      }

      const byId = (id: string) => ({
        start: starts(rs).find((r) => r.toolCallId === id)!,
        end: ends(rs).find((r) => r.toolCallId === id)!,
      });
      expect(byId("A").start.args).toEqual({
        path: "notes/secret.txt",
        content: { redacted: true, length: SECRETS.write.length },
      });
      expect(byId("A").end).toMatchObject({
        isError: false,
        paths: [{ kind: "write", path: "notes/secret.txt" }],
        resultSize: { blocks: 1, imageBytes: 0 },
      });
      expect(byId("A").end.args).toBeUndefined();
      expect(byId("B").start.args).toEqual({ target: { redacted: true, length: SECRETS.unknown.length } });
      expect(byId("D").end.paths).toEqual([{ kind: "exec", commandLength: `echo ${SECRETS.bash}`.length }]);
      const blocked = byId("E").end;
      expect(blocked).toMatchObject({ outcome: "blocked", blockedBy: "guard", isError: true });
      expect(blocked.reason?.startsWith("blocked.txt is read-only by team policy.")).toBe(true);
      expect(blocked.reason).toHaveLength(500);
      expect(existsSync(join(cwd, "blocked.txt"))).toBe(false);
      // The log is not in the workspace.
      expect(file.startsWith(cwd)).toBe(false);
      expect(existsSync(join(cwd, ".gatehouse"))).toBe(false);

      const report = await verify();
      expect(report.verdict).toBe("intact");
      expect(report.sessions).toHaveLength(1);
    });
  }

  it("arguments changed by a transform are recorded (redacted) on the end record", async () => {
    const redirect = defineExtension({
      name: "redirect",
      setup: (api) =>
        api.on("tool_call", (e) => (e.input.path === "a.txt" ? { input: { ...e.input, path: "b.txt" } } : undefined)),
    });
    const { file } = await run({
      extensions: [redirect],
      turns: [{ content: [call("A", "read", { path: "a.txt" }), call("B", "ls", { path: "." })] }, say("done")],
    });
    const rs = ends(records(file));
    expect(rs.find((r) => r.toolCallId === "A")?.args).toEqual({ path: "b.txt" });
    expect(rs.find((r) => r.toolCallId === "B")?.args).toBeUndefined();
  });

  it("custom redactors from createToolAudit decide for their tools; a throwing one records redactionFailed", async () => {
    const deploy = defineTool({
      name: "deploy",
      description: "deploys",
      parameters: z.object({ env: z.string(), token: z.string() }),
      execute: () => ({ content: [{ type: "text", text: "deployed" }] }),
    });
    const withTool = defineExtension({ name: "deployer", setup: (api) => api.registerTool(deploy) });
    const { file } = await run({
      extensions: [withTool],
      audit: {
        redactors: {
          deploy: (args) => ({ env: args.env, tokenLength: String(args.token).length }),
          teleport: () => {
            throw new Error("cannot redact");
          },
        },
      },
      turns: [
        {
          content: [
            call("A", "deploy", { env: "staging", token: SECRETS.write }),
            call("B", "teleport", { target: SECRETS.unknown }),
          ],
        },
        say("done"),
      ],
    });
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(SECRETS.write);
    expect(text).not.toContain(SECRETS.unknown);
    const rs = starts(records(file));
    expect(rs.find((r) => r.toolCallId === "A")?.args).toEqual({ env: "staging", tokenLength: SECRETS.write.length });
    expect(rs.find((r) => r.toolCallId === "B")?.args).toEqual({ redactionFailed: true });
  });

  it("two runs on one host are two sessions, each closed, both chains intact", async () => {
    const t = await auditedHost({
      turns: [{ content: [call("A", "ls")] }, say("one"), { content: [call("B", "ls")] }, say("two")],
    });
    const { cwd, home } = t;
    await t.run("first");
    await t.run("second");
    const { file } = auditLocation({ home, cwd });
    const report = await verifyIn(home, cwd);
    expect(report.verdict).toBe("intact");
    expect(report.sessions.map((s) => [s.records, s.ended])).toEqual([
      [4, true],
      [4, true],
    ]);
    const turns = records(file).map((r) => `${r.kind}@${r.turn}`);
    expect(turns.slice(0, 4)).toEqual(["session_start@0", "call_start@1", "call_end@1", "session_end@2"]);
  });

  it("bad configuration stops the host (a required guard), naming the field", async () => {
    for (const [config, field] of [
      [{ fsynk: "every" }, "fsynk"],
      [{ verbatim: { bash: ["command"] } }, "verbatim"],
      [{ fsync: "sometimes" }, "fsync"],
    ] as const) {
      const creating = createTestHost({ extensions: [createToolAudit()], config: { "tool-audit": config } });
      await expect(creating).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
      await expect(creating).rejects.toThrow(
        new RegExp(`Invalid configuration for extension "tool-audit"[\\s\\S]*${field}`),
      );
    }
  });
});

describe("tool-audit when the audit cannot be written", () => {
  /** A regular file where the audit folder should be, outside the workspace. */
  const unwritable = () => {
    const dir = tempDir("gh-elsewhere-");
    writeFileSync(join(dir, "blocker"), "a regular file where the audit folder should be");
    return join(dir, "blocker", "audit.jsonl");
  };

  for (const fsync of ["every", "batch"] as const) {
    it(`${fsync}, a path under a regular file: the run stops, named by tool-audit, and no tool runs`, async () => {
      const cwd = tempDir();
      const file = unwritable();
      const { result, events } = await run({
        cwd,
        config: { file, fsync },
        turns: [{ content: [call("A", "write", { path: "marker.txt", content: "m" })] }, say("done")],
      });
      expect(result.stoppedBy?.extension).toBe("tool-audit");
      expect(result.stoppedBy?.reason).toMatch(new RegExp(`^audit log ${file} cannot be written: E[A-Z]+`));
      expect(existsSync(join(cwd, "marker.txt"))).toBe(false);
      const executed = events.filter((e) => e.type === "tool_execution_end" && e.outcome === "executed");
      expect(executed).toEqual([]);
    });
  }

  for (const [what, file, expected] of [
    ["a file inside the workspace", "logs/audit.jsonl", /is inside the workspace .*where the agent's own commands/],
    ["a file on /proc", "/proc/self/audit.jsonl", /is on the kernel file system \/proc/],
    ["a device", "/dev/full", /is on the kernel file system \/dev/],
  ] as const) {
    it(`${what} is refused: the host does not start (a required guard), so no tool runs`, async () => {
      const cwd = tempDir();
      const started = run({
        cwd,
        config: { file },
        turns: [{ content: [call("A", "write", { path: "marker.txt", content: "m" })] }, say("done")],
      });
      await expect(started).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
      await expect(started).rejects.toThrow(expected);
      expect(existsSync(join(cwd, "marker.txt"))).toBe(false);
      expect(existsSync(join(cwd, "logs"))).toBe(false);
    });
  }

  it("a file inside the workspace is accepted when the settings say so explicitly", async () => {
    const cwd = tempDir();
    const { result, file, home } = await run({
      cwd,
      config: { file: "logs/audit.jsonl", allowWorkspaceFile: true },
      turns: [{ content: [call("A", "ls", { path: "." })] }, say("done")],
    });
    expect(result.stoppedBy).toBeUndefined();
    expect(file).toBe(join(cwd, "logs", "audit.jsonl"));
    expect((await verifyIn(home, cwd, "logs/audit.jsonl")).verdict).toBe("intact");
  });

  it('with onWriteError "warn" it logs the failure and the run goes on', async () => {
    const cwd = tempDir();
    const logs: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void logs.push(line) });
    const { result } = await run({
      cwd,
      logger,
      config: { file: unwritable(), onWriteError: "warn" },
      turns: [{ content: [call("A", "write", { path: "marker.txt", content: "m" })] }, say("done")],
    });
    expect(result.stoppedBy).toBeUndefined();
    expect(readFileSync(join(cwd, "marker.txt"), "utf8")).toBe("m");
    const warning = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.extension === "tool-audit");
    expect(warning).toMatchObject({ msg: "audit log cannot be written; continuing unaudited", op: "open" });
  });
});
