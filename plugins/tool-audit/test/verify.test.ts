import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashLine } from "../src/record.ts";
import { openAuditSink } from "../src/sink.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { endEvent, fileLines, recorderFor, tempDir, writeLines, writeSession } from "./helpers.ts";

// writeSession with 3 calls: line 1 session_start (seq 0), lines 2–7 call_start/call_end (seq 1–6),
// line 8 session_end (seq 7).
async function sessionFile(options: { end?: boolean } = {}): Promise<string> {
  const file = join(tempDir(), "audit.jsonl");
  await writeSession(file, { calls: 3, ...options });
  return file;
}

function edit(line: string, change: (record: Record<string, unknown>) => void): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  change(record);
  return JSON.stringify(record);
}

describe("verifyAuditFile", () => {
  it("an intact file is ok", async () => {
    const file = await sessionFile();
    const report = await verifyAuditFile(file);
    expect(report).toMatchObject({ status: "ok", lines: 8, records: 8, problemCount: 0, incomplete: [] });
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ records: 8, lastSeq: 7, ended: true });
    expect(report.summary).toBe(`${file}: OK: 8 records in 1 session, every chain intact and closed.`);
  });

  it("an empty file is ok with no records", async () => {
    const file = join(tempDir(), "audit.jsonl");
    writeFileSync(file, "");
    expect(await verifyAuditFile(file)).toMatchObject({ status: "ok", records: 0 });
  });

  it("a modified field breaks the chain at the modified line", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    lines[3] = edit(lines[3]!, (r) => {
      r.toolCallId = "call-forged";
    });
    writeLines(file, lines);
    const report = await verifyAuditFile(file);
    expect(report.status).toBe("failed");
    expect(report.problem).toMatchObject({ kind: "broken_chain", line: 4, seq: 3, detectedAt: 5 });
    expect(report.summary).toMatch(/FAILED at line 4: broken chain/);
  });

  it("a modified prev is blamed on its own line, not on the record before it", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    lines[3] = edit(lines[3]!, (r) => {
      r.prev = "f".repeat(64);
    });
    writeLines(file, lines);
    expect((await verifyAuditFile(file)).problem).toMatchObject({ kind: "broken_chain", line: 4, seq: 3 });
  });

  it("a deleted line is reported as missing records where the gap is", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    lines.splice(3, 1);
    writeLines(file, lines);
    const report = await verifyAuditFile(file);
    expect(report.problem).toMatchObject({ kind: "missing_records", line: 4, seq: 3 });
    expect(report.problem?.message).toContain("between line 3 and line 4");
    expect(report.problemCount).toBe(1);
  });

  it("a deleted first line (session_start) is reported as missing records", async () => {
    const file = await sessionFile();
    writeLines(file, fileLines(file).slice(1));
    expect((await verifyAuditFile(file)).problem).toMatchObject({ kind: "missing_records", line: 1, seq: 0 });
  });

  it("two swapped lines are reported as reordered at the first of them", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    writeLines(file, lines);
    const report = await verifyAuditFile(file);
    expect(report.problem).toMatchObject({ kind: "reordered", line: 4, seq: 3 });
    expect(report.problems.map((p) => p.kind)).not.toContain("missing_records");
  });

  it("a forged copy inserted after a record is reported as inserted at its line", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    const forged = edit(lines[3]!, (r) => {
      r.args = { path: "innocent.txt" };
    });
    lines.splice(4, 0, forged);
    writeLines(file, lines);
    expect((await verifyAuditFile(file)).problem).toMatchObject({ kind: "reordered", line: 5, seq: 3 });
  });

  it("a forged record with the next seq and a correct prev is caught at its line", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    const forged = edit(lines[4]!, (r) => {
      r.prev = hashLine(lines[3]!);
      r.toolCallId = "call-forged";
    });
    lines.splice(4, 0, forged);
    writeLines(file, lines);
    const report = await verifyAuditFile(file);
    expect(report.problem).toMatchObject({ kind: "broken_chain", line: 5 });
    expect(report.problems.map((p) => [p.kind, p.line])).toContainEqual(["reordered", 6]);
  });

  it("an exact duplicate of a line is reported as inserted", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    lines.splice(2, 0, lines[1]!);
    writeLines(file, lines);
    expect((await verifyAuditFile(file)).problem).toMatchObject({ kind: "reordered", line: 3, seq: 1 });
  });

  it("a record appended after session_end is reported as inserted", async () => {
    const file = await sessionFile();
    const lines = fileLines(file);
    const extra = edit(lines[6]!, (r) => {
      r.seq = 8;
      r.prev = hashLine(lines[7]!);
    });
    appendFileSync(file, `${extra}\n`);
    const report = await verifyAuditFile(file);
    expect(report.problem).toMatchObject({ kind: "reordered", line: 9 });
    expect(report.problem?.message).toContain("after the session ended at line 8");
  });

  it("a last line truncated mid-way is a torn last line, never ok", async () => {
    const file = await sessionFile();
    const size = readFileSync(file).length;
    truncateSync(file, size - 20);
    const report = await verifyAuditFile(file);
    expect(report.status).toBe("failed");
    expect(report.problem).toMatchObject({ kind: "torn_last_line", line: 8 });
  });

  it("a last line with a newline but not JSON is a torn last line; in the middle it is a corrupt line", async () => {
    const file = await sessionFile();
    appendFileSync(file, '{"v":1,"session":"abc\n');
    expect((await verifyAuditFile(file)).problem).toMatchObject({ kind: "torn_last_line", line: 9 });

    const middle = await sessionFile();
    const lines = fileLines(middle);
    lines[2] = lines[2]!.slice(0, 40);
    writeLines(middle, lines);
    const report = await verifyAuditFile(middle);
    expect(report.problem).toMatchObject({ kind: "corrupt_line", line: 3 });
  });

  it("a session without session_end is incomplete, not failed, and says where it stopped", async () => {
    const file = await sessionFile({ end: false });
    const report = await verifyAuditFile(file);
    expect(report.status).toBe("incomplete");
    expect(report.problem).toBeUndefined();
    expect(report.incomplete).toEqual([expect.objectContaining({ lastSeq: 6, lastLine: 7, pid: process.pid })]);
    expect(report.summary).toContain("INCOMPLETE");
    expect(report.summary).toContain("at most its unflushed batch was lost");
  });

  it("two sessions interleaved in one file each keep their own chain", async () => {
    const file = join(tempDir(), "audit.jsonl");
    const aSink = openAuditSink({ file, fsync: "every" });
    const bSink = openAuditSink({ file, fsync: "every" });
    const a = recorderFor(aSink);
    const b = recorderFor(bSink);
    a.start();
    b.start();
    for (let i = 0; i < 5; i++) {
      for (const r of [a, b]) {
        r.callStart({ toolCallId: `c${i}`, toolName: "ls", args: { path: "." } });
        r.callEnd(endEvent(`c${i}`, "ls", { path: "." }));
      }
    }
    a.end();
    b.end();
    await Promise.all([aSink.close(), bSink.close()]);
    const sessions = fileLines(file).map((l) => (JSON.parse(l) as { session: string }).session);
    expect(sessions.slice(0, 6)).toEqual([a.session, b.session, a.session, a.session, b.session, b.session]);
    const report = await verifyAuditFile(file);
    expect(report).toMatchObject({ status: "ok", records: 24 });
    expect(report.sessions.map((s) => s.session).sort()).toEqual([a.session, b.session].sort());
  });

  it("an interleaved file with one session tampered names that session's line", async () => {
    const file = join(tempDir(), "audit.jsonl");
    const first = join(tempDir(), "a.jsonl");
    const second = join(tempDir(), "b.jsonl");
    await writeSession(first);
    await writeSession(second);
    const la = fileLines(first);
    const lb = fileLines(second);
    const merged = la.flatMap((line, i) => [line, lb[i]!]);
    merged[6] = edit(merged[6]!, (r) => {
      r.tool = "bash";
    });
    writeLines(file, merged);
    const report = await verifyAuditFile(file);
    expect(report.problem).toMatchObject({ kind: "broken_chain", line: 7, detectedAt: 9 });
  });

  it("a file that cannot be read fails with the cause", async () => {
    const report = await verifyAuditFile(join(tempDir(), "missing.jsonl"));
    expect(report.status).toBe("failed");
    expect(report.problem).toMatchObject({ kind: "unreadable", line: 0 });
    expect(report.problem?.message).toContain("ENOENT");
  });
});
