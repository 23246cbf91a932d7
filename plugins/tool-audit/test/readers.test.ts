import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/read-records.ts";
import { readRecords } from "../src/read-records.ts";
import { auditStats } from "../src/stats.ts";
import { tailAudit } from "../src/tail.ts";
import { endEvent, openSession, tempDir, testLog, writeSession } from "./helpers.ts";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Resolves once `count` entries have arrived. */
function entrySink() {
  const entries: AuditEntry[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    entries,
    onRecord(entry: AuditEntry) {
      entries.push(entry);
      for (const w of waiters.filter((w) => entries.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    until(count: number) {
      if (entries.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
  };
}

describe("readRecords", () => {
  it("yields every line in order with its number; lines that are not records come back as errors", async () => {
    const log = testLog();
    const { file } = log;
    await writeSession(log, { calls: 1 });
    appendFileSync(file, "garbage\n{}\n");
    const entries = await collect(readRecords(file));
    expect(entries.map((e) => [e.line, e.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, false],
      [6, false],
    ]);
    expect(entries[1]).toMatchObject({ ok: true, record: { kind: "call_start", tool: "read", seq: 1 } });
    expect(entries[4]).toMatchObject({ ok: false, text: "garbage" });
  });
});

describe("auditStats", () => {
  it("counts call ends by tool and outcome, and starts without an end", async () => {
    const log = testLog();
    const { file } = log;
    const session = openSession(log);
    const r = session.recorder;
    const end = (id: string, tool: string, outcome: "executed" | "blocked" | "unknown") => {
      r.callStart({ toolCallId: id, toolName: tool, args: {} });
      r.callEnd({ ...endEvent(id, tool, {}), outcome, isError: outcome !== "executed" });
    };
    end("1", "write", "executed");
    end("2", "write", "blocked");
    end("3", "write", "blocked");
    end("4", "teleport", "unknown");
    r.callStart({ toolCallId: "5", toolName: "bash", args: {} });
    await session.sink.close();
    await writeSession(log, { calls: 2 });
    appendFileSync(file, "not json\n");

    const stats = await auditStats(file);
    expect(stats).toMatchObject({
      records: 10 + 6,
      sessions: 2,
      badLines: 1,
      ended: 6,
      unfinished: 1,
      outcomes: { executed: 3, blocked: 2, unknown: 1 },
    });
    expect(stats.tools).toEqual({
      bash: { ended: 0, outcomes: {}, unfinished: 1 },
      read: { ended: 2, outcomes: { executed: 2 }, unfinished: 0 },
      teleport: { ended: 1, outcomes: { unknown: 1 }, unfinished: 0 },
      write: { ended: 3, outcomes: { executed: 1, blocked: 2 }, unfinished: 0 },
    });
    expect(Object.keys(stats.tools)).toEqual(["bash", "read", "teleport", "write"]);
  });
});

describe("tailAudit", () => {
  it("emits the last N lines with their line numbers", async () => {
    const log = testLog();
    const { file } = log;
    await writeSession(log, { calls: 3 });
    const sink = entrySink();
    const result = await tailAudit(file, { lines: 2, onRecord: sink.onRecord });
    expect(result).toEqual({ file, emitted: 2, missing: false });
    expect(sink.entries.map((e) => [e.line, e.ok && e.record.kind])).toEqual([
      [7, "call_end"],
      [8, "session_end"],
    ]);
  });

  it("without follow, a torn last line is emitted as an error; a missing file emits nothing", async () => {
    const log = testLog();
    const { file } = log;
    await writeSession(log, { calls: 1 });
    appendFileSync(file, '{"v":1');
    const sink = entrySink();
    await tailAudit(file, { lines: 1, onRecord: sink.onRecord });
    expect(sink.entries).toEqual([{ ok: false, line: 5, error: "torn line (no newline)", text: '{"v":1' }]);
    expect(await tailAudit(join(tempDir(), "none.jsonl"), { onRecord: sink.onRecord })).toMatchObject({
      emitted: 0,
      missing: true,
    });
  });

  it("with follow, emits records as they are appended until the signal aborts", async () => {
    const log = testLog();
    const { file } = log;
    await writeSession(log, { calls: 1 });
    const sink = entrySink();
    const controller = new AbortController();
    const tail = tailAudit(file, {
      lines: 1,
      follow: true,
      signal: controller.signal,
      onRecord: sink.onRecord,
      pollMs: 20,
    });
    await sink.until(1);
    expect(sink.entries[0]).toMatchObject({ line: 4, record: { kind: "session_end" } });

    const appender = openSession(log, "every");
    await sink.until(2);
    appender.recorder.callStart({ toolCallId: "x", toolName: "ls", args: { path: "." } });
    await appender.close();
    await sink.until(4);
    controller.abort();
    const result = await tail;
    expect(result.emitted).toBe(4);
    expect(sink.entries.map((e) => [e.line, e.ok && e.record.kind])).toEqual([
      [4, "session_end"],
      [5, "session_start"],
      [6, "call_start"],
      [7, "session_end"],
    ]);
  });

  it("with follow, waits for a file that does not exist yet, and never emits half a line", async () => {
    const file = join(tempDir(), "audit.jsonl");
    const sink = entrySink();
    const controller = new AbortController();
    let following!: () => void;
    const watching = new Promise<void>((resolve) => {
      following = resolve;
    });
    const tail = tailAudit(file, {
      follow: true,
      signal: controller.signal,
      onRecord: sink.onRecord,
      pollMs: 20,
      onFollow: following,
    });
    await watching;
    writeFileSync(file, '{"v":2,"session":"s","seq":0,');
    appendFileSync(
      file,
      `"prev":"${"0".repeat(64)}","ts":"t","kind":"session_start","turn":0,"pid":1,"mac":"${"a".repeat(64)}"}\n`,
    );
    await sink.until(1);
    controller.abort();
    const result = await tail;
    expect(result.missing).toBe(true);
    expect(sink.entries).toEqual([
      expect.objectContaining({ ok: true, line: 1, record: expect.objectContaining({ seq: 0 }) }),
    ]);
  });
});
