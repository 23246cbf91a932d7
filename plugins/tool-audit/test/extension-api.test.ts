import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI, GuardedToolCallEvent, HandlerContext, ToolCallEnforceResult } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { auditLocation } from "../src/audit-location.ts";
import { createToolAudit } from "../src/extension.ts";
import { tempDir } from "./helpers.ts";

type Handler = (event: unknown, ctx: HandlerContext) => unknown;

/** The extension API as the host gives it, reduced to what the audit uses, with handlers kept for the test to call. */
function fakeApi(cwd: string, section: unknown) {
  const home = tempDir("gh-home-");
  const handlers = new Map<string, Handler>();
  const aborts: string[] = [];
  const warnings: unknown[] = [];
  const reserved: { path: string; hide: boolean }[] = [];
  const disposers: (() => unknown)[] = [];
  const api = {
    cwd,
    gatehouseHome: home,
    privateDir: (...segments: string[]) => {
      const dir = join(home, ...segments);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
    registerTool() {},
    reservePath: (path: string, options: { hide?: boolean }) =>
      void reserved.push({ path, hide: options.hide === true }),
    reservedPaths: () => [],
    on(event: string, handler: Handler, opts?: { stage?: string }) {
      handlers.set(event === "tool_call" ? `tool_call:${opts?.stage ?? "transform"}` : event, handler);
    },
    onDispose: (dispose: () => unknown) => void disposers.push(dispose),
    hostVersion: "1.0.0",
    config: <S extends z.ZodType>(schema: S) => schema.parse(section),
    abortRun: (reason: string) => void aborts.push(reason),
    logger: { debug() {}, info() {}, error() {}, warn: (obj: unknown) => void warnings.push(obj) },
  };
  const log = () => auditLocation({ home, cwd }).file;
  const ctx: HandlerContext = { signal: new AbortController().signal };
  const emit = async (event: string, payload: object = {}) => handlers.get(event)?.({ type: event, ...payload }, ctx);
  const guard = (toolName: string) => {
    const event: GuardedToolCallEvent = {
      toolCallId: "X",
      toolName,
      input: {},
      effects: undefined,
      pin() {},
      confine() {},
      restrictReads() {},
    };
    return handlers.get("tool_call:enforce")?.(event, ctx) as ToolCallEnforceResult;
  };
  /** What the host does on unload: the disposers, latest first. */
  const dispose = async () => {
    for (const d of disposers.splice(0).reverse()) await d();
  };
  return { api: api as unknown as ExtensionAPI, handlers, aborts, warnings, emit, guard, log, dispose, reserved };
}

/** A project, and an audit file outside it that cannot be created (a regular file is in the way). */
function blockedFile(): { cwd: string; file: string } {
  const elsewhere = tempDir();
  writeFileSync(join(elsewhere, "blocker"), "file");
  return { cwd: tempDir(), file: join(elsewhere, "blocker", "audit.jsonl") };
}

describe("fail closed", () => {
  it('with "stop", an unwritable audit aborts the run once and the enforce guard blocks every call', async () => {
    const { cwd, file } = blockedFile();
    const fake = fakeApi(cwd, { file });
    await createToolAudit().setup(fake.api);
    expect(fake.guard("write")).toBeUndefined();
    await fake.emit("agent_start");
    expect(fake.aborts).toHaveLength(1);
    expect(fake.aborts[0]).toMatch(new RegExp(`^audit log ${file} cannot be written: E[A-Z]+: `));
    const verdict = fake.guard("bash");
    expect(verdict).toMatchObject({ block: true });
    expect(verdict?.reason).toMatch(new RegExp(`^Blocked bash: the audit log ${file} cannot be written \\(E[A-Z]+: `));
    // One sentence: a single full stop, at the end.
    expect(verdict?.reason?.match(/\.(\s|$)/g)).toHaveLength(1);
    await fake.emit("agent_end", { messages: [] });
    expect(fake.aborts).toHaveLength(1);
  });

  it('with "warn", the guard never blocks and the failure is logged once', async () => {
    const { cwd, file } = blockedFile();
    const fake = fakeApi(cwd, { file, onWriteError: "warn", fsync: "every" });
    await createToolAudit().setup(fake.api);
    await fake.emit("agent_start");
    await fake.emit("tool_execution_start", { toolCallId: "A", toolName: "ls", args: {} });
    expect(fake.guard("write")).toBeUndefined();
    expect(fake.aborts).toEqual([]);
    expect(fake.warnings).toEqual([expect.objectContaining({ file, op: "open" })]);
  });

  for (const onWriteError of ["stop", "warn"] as const) {
    it(`a log unlinked mid-run stops the run and blocks every call, even with onWriteError "${onWriteError}"`, async () => {
      const fake = fakeApi(tempDir(), { onWriteError });
      await createToolAudit().setup(fake.api);
      await fake.emit("agent_start");
      await fake.emit("turn_start");
      await fake.emit("tool_execution_start", { toolCallId: "A", toolName: "ls", args: {} });
      unlinkSync(fake.log());
      await fake.emit("turn_end");
      expect(fake.aborts).toEqual([
        `audit stopped: the audit file ${fake.log()} was deleted while the run was writing to it`,
      ]);
      expect(fake.guard("write")?.reason).toContain("was deleted while the run was writing to it");
    });
  }

  it("a seal deleted mid-run stops the run: a seal nobody can find vouches for nothing", async () => {
    const fake = fakeApi(tempDir(), {});
    await createToolAudit().setup(fake.api);
    await fake.emit("agent_start");
    const seals = auditLocation({ home: fake.api.gatehouseHome, cwd: fake.api.cwd }).sealDir;
    for (const name of readdirSync(seals)) unlinkSync(join(seals, name));
    await fake.emit("turn_start");
    await fake.emit("turn_end");
    expect(fake.aborts).toHaveLength(1);
    expect(fake.aborts[0]).toMatch(
      /cannot be written: the seal .*00000001\.seal was deleted while the run was writing to it/,
    );
  });

  it("a healthy audit never blocks, and the guard is registered in the enforce stage", async () => {
    const fake = fakeApi(tempDir(), {});
    await createToolAudit().setup(fake.api);
    expect([...fake.handlers.keys()].sort()).toEqual(
      [
        "agent_end",
        "agent_start",
        "tool_call:enforce",
        "tool_execution_end",
        "tool_execution_start",
        "turn_end",
        "turn_start",
      ].sort(),
    );
    await fake.emit("agent_start");
    expect(fake.guard("write")).toBeUndefined();
    await fake.emit("agent_end", { messages: [] });
    expect(fake.aborts).toEqual([]);
    // The log and the key are reserved: guards deny the agent's writes to both and reads of the key.
    const location = auditLocation({ home: fake.api.gatehouseHome, cwd: fake.api.cwd });
    expect(fake.reserved).toEqual([
      { path: location.file, hide: false },
      { path: location.keyFile, hide: true },
    ]);
  });
});

describe("sessions", () => {
  it("tool events without agent_start (a reload mid-run) open a session marked midRun, closed at agent_end", async () => {
    const cwd = tempDir();
    const fake = fakeApi(cwd, { fsync: "every" });
    await createToolAudit().setup(fake.api);
    await fake.emit("tool_execution_start", { toolCallId: "A", toolName: "ls", args: { path: "." } });
    await fake.emit("agent_end", { messages: [] });
    const lines = readFileSync(fake.log(), "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ kind: "session_start", seq: 0, midRun: true }),
      expect.objectContaining({ kind: "call_start", seq: 1, toolCallId: "A" }),
      expect.objectContaining({ kind: "session_end", seq: 2, counts: expect.objectContaining({ unfinished: 1 }) }),
    ]);
  });

  it("an unload mid-run (reload, disable, close) ends and seals the session and closes the log", async () => {
    const cwd = tempDir();
    const fake = fakeApi(cwd, { fsync: "batch" });
    await createToolAudit().setup(fake.api);
    await fake.emit("agent_start");
    await fake.emit("tool_execution_start", { toolCallId: "A", toolName: "ls", args: { path: "." } });
    await fake.dispose();
    const kinds = readFileSync(fake.log(), "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds).toEqual(["session_start", "call_start", "session_end"]);
    // Nothing is left to close: a later agent_end of the old version writes nothing more.
    await fake.emit("agent_end", { messages: [] });
    expect(readFileSync(fake.log(), "utf8").trim().split("\n")).toHaveLength(3);
  });
});
