import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openAuditSession } from "../src/audit-session.ts";
import { macOf, splitMac } from "../src/record.ts";
import { sealFile } from "../src/seal-store.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { VERDICT_EXIT_CODES } from "../src/verify-report.ts";
import {
  endEvent,
  fileLines,
  openSession,
  type TestLog,
  tempDir,
  testKey,
  testLog,
  writeLines,
  writeSession,
} from "./helpers.ts";

// writeSession with 3 calls: line 1 session_start (seq 0), lines 2–7 call_start/call_end (seq 1–6),
// line 8 session_end (seq 7). Two sessions: lines 1–8 and 9–16.
async function sessions(count = 2, options: { end?: boolean } = {}): Promise<TestLog> {
  const log = testLog();
  for (let i = 0; i < count; i++) await writeSession(log, { calls: 3, ...(i === count - 1 ? options : {}) });
  return log;
}

/** Parses a line, changes it, serializes it again (key order kept, so `mac` stays last). */
function edit(line: string, change: (record: Record<string, unknown>) => void): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  change(record);
  return JSON.stringify(record);
}

/**
 * What an attacker without the key does: rewrites lines `from..` of one session and recomputes
 * every `prev` and `mac` after it with a key of their own, so the chain is consistent again.
 */
function forge(lines: string[], from: number, change: (record: Record<string, unknown>) => void): string[] {
  const wrong = testKey().records;
  const session = (JSON.parse(lines[from]!) as { session: string }).session;
  let prev = (JSON.parse(lines[from]!) as { prev: string }).prev;
  return lines.map((line, i) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (i < from || record.session !== session) return line;
    if (i === from) change(record);
    record.prev = prev;
    delete record.mac;
    const body = JSON.stringify(record);
    prev = macOf(body, wrong);
    return `${body.slice(0, -1)},"mac":"${prev}"}`;
  });
}

const exitOf = async (log: TestLog) => VERDICT_EXIT_CODES[(await log.verify()).verdict];

describe("verify: an intact log", () => {
  it("is intact (exit 0) with its key and seals, and says what it checked", async () => {
    const log = await sessions();
    const report = await log.verify();
    expect(report).toMatchObject({ verdict: "intact", status: "ok", records: 16, seals: 2, problemCount: 0 });
    expect(report.summary).toBe(
      `${log.file}: INTACT: 16 records in 2 sessions, 2 seals; every MAC, chain and seal verified.`,
    );
    expect(await exitOf(log)).toBe(0);
  });

  it("without the key, verify checks structure only and says so plainly (exit 4)", async () => {
    const log = await sessions();
    const report = await log.verify({ key: undefined });
    expect(report).toMatchObject({ verdict: "unauthenticated", authenticated: false, status: "incomplete" });
    expect(report.summary).toContain("NOT AUTHENTICATED (no key)");
    expect(report.summary).toContain("without the key a rewritten or forged log would look the same");
    expect(VERDICT_EXIT_CODES.unauthenticated).toBe(4);
  });

  it("no log and no seals is 'no log' (exit 5), whether the file is missing or empty", async () => {
    const log = testLog();
    expect((await log.verify()).verdict).toBe("no_log");
    writeFileSync(log.file, "");
    const report = await log.verify();
    expect(report.verdict).toBe("no_log");
    expect(report.summary).toContain("no run has been audited here yet");
    expect(VERDICT_EXIT_CODES.no_log).toBe(5);
  });
});

describe("verify: tampering, each with its verdict and exit code", () => {
  for (const [where, index] of [
    ["first", 0],
    ["middle", 3],
    ["last", 7],
  ] as const) {
    it(`an edited ${where} record is tampered at its line (exit 6)`, async () => {
      const log = await sessions(1);
      const lines = fileLines(log.file);
      lines[index] = edit(lines[index]!, (r) => {
        r.turn = 99;
      });
      writeLines(log.file, lines);
      const report = await log.verify();
      expect(report.verdict).toBe("tampered");
      expect(report.problem).toMatchObject({ kind: "modified", line: index + 1, seq: index });
      expect(report.summary).toMatch(new RegExp(`TAMPERED at line ${index + 1}: seq ${index} of session`));
      expect(await exitOf(log)).toBe(6);
    });
  }

  it("a blocked call rewritten to executed, with every later MAC recomputed without the key, is tampered at that line", async () => {
    const log = testLog();
    const session = openSession(log);
    session.recorder.turnStart();
    session.recorder.callStart({ toolCallId: "A", toolName: "write", args: { path: ".env" } });
    session.recorder.callEnd({ ...endEvent("A", "write", { path: ".env" }), outcome: "blocked", isError: true });
    session.commit();
    await session.close();
    const lines = fileLines(log.file);
    const forged = forge(lines, 2, (r) => {
      r.outcome = "executed";
      r.isError = false;
    });
    expect(forged[2]).toContain('"outcome":"executed"');
    writeLines(log.file, forged);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem).toMatchObject({ kind: "modified", line: 3 });
    // Without the key the forged chain is consistent: only the seal's head gives it away.
    const structural = await log.verify({ key: undefined });
    expect(structural.verdict).toBe("tampered");
    expect(structural.problem?.message).toContain("not the one its seal vouches for");
  });

  it("a deleted middle record is tampered where the gap is (exit 6)", async () => {
    const log = await sessions(1);
    const lines = fileLines(log.file);
    lines.splice(3, 1);
    writeLines(log.file, lines);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem).toMatchObject({ kind: "missing_records", line: 4, seq: 3 });
    expect(report.problem?.message).toContain("between line 3 and line 4");
  });

  it("a deleted session is 'session deleted' (exit 8), with or without the key", async () => {
    const log = await sessions(3);
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(0, 8), ...lines.slice(16)]);
    for (const options of [{}, { key: undefined }]) {
      const report = await log.verify(options);
      expect(report.verdict).toBe("session_deleted");
      expect(report.problem?.message).toMatch(/\(#2, 8 records, closed\) is sealed but not in the log: deleted/);
    }
    expect(await exitOf(log)).toBe(8);
  });

  it("a session deleted together with its seal is still found by the hole in the numbers", async () => {
    const log = await sessions(3);
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(0, 8), ...lines.slice(16)]);
    rmSync(sealFile(log.sealDir, 2));
    const report = await log.verify();
    expect(report.verdict).toBe("session_deleted");
    expect(report.problem?.message).toBe("session #2 is missing from both the seals and the log: deleted");
  });

  it("a seal file too large to be one, or a FIFO in its place, is reported without being read whole or blocking", async () => {
    const log = await sessions(3);
    writeFileSync(sealFile(log.sealDir, 2), " ".repeat(200_000));
    rmSync(sealFile(log.sealDir, 3));
    execFileSync("mkfifo", [sealFile(log.sealDir, 3)]);
    const report = await log.verify();
    const invalid = report.problems.filter((p) => p.kind === "seal_invalid").map((p) => p.message);
    expect(invalid).toHaveLength(2);
    expect(invalid[0]).toContain("holds 200000 bytes, more than a seal file can");
    expect(invalid[1]).toContain("is not a regular file");
    // A session still starts next to them (it reads the previous seal to work out `settled`).
    await writeSession(log, { calls: 1 });
    expect(readdirSync(log.sealDir)).toContain("00000004.seal");
  });

  it("a seal renamed to a huge number is one report of the numbers it skips, not one per number", async () => {
    const log = await sessions(2);
    renameSync(sealFile(log.sealDir, 2), sealFile(log.sealDir, 99_999_999));
    const report = await log.verify();
    expect(report.verdict).not.toBe("intact");
    const deleted = report.problems.filter((p) => p.kind === "session_deleted").map((p) => p.message);
    expect(deleted).toEqual(["sessions #3–#99999998 (99999996) are missing from both the seals and the log: deleted"]);
    expect(report.problems.some((p) => p.kind === "seal_invalid" && /were renamed/.test(p.message))).toBe(true);
    // Sessions started after it go on from there (nine digits), and verify sees their seals.
    await writeSession(log, { calls: 1 });
    await writeSession(log, { calls: 1 });
    expect(readdirSync(log.sealDir).filter((n) => n.length > "00000000.seal".length)).toEqual([
      "100000000.seal",
      "100000001.seal",
    ]);
    const later = await log.verify();
    expect(later.seals).toBe(4);
    expect(later.problems.filter((p) => p.kind === "seal_missing")).toEqual([]);
  });

  it("a truncated tail is 'truncated: seal says N, log has M' (exit 7), whole lines or mid-line", async () => {
    const log = await sessions(1);
    const lines = fileLines(log.file);
    writeLines(log.file, lines.slice(0, 5));
    let report = await log.verify();
    expect(report.verdict).toBe("truncated");
    expect(report.problem?.message).toContain("its seal says 8 records, the log has 5");
    expect(await exitOf(log)).toBe(7);

    writeLines(log.file, lines);
    truncateSync(log.file, readFileSync(log.file).length - 30);
    report = await log.verify();
    expect(report.verdict).toBe("truncated");
    expect(report.problems.map((p) => p.kind).sort()).toEqual(["torn_last_line", "truncated"]);
  });

  it("an emptied or deleted log is 'emptied or replaced' (exit 9)", async () => {
    const log = await sessions();
    writeFileSync(log.file, "");
    let report = await log.verify();
    expect(report.verdict).toBe("replaced");
    expect(report.problem).toMatchObject({ kind: "log_emptied" });
    expect(report.summary).toContain("the log is empty, but 2 session(s) with 16 records were sealed: it was emptied");
    rmSync(log.file);
    report = await log.verify();
    expect(report.problem).toMatchObject({ kind: "log_missing" });
    expect(await exitOf(log)).toBe(9);
  });

  it("a log replaced by a forged chain made without the key is 'replaced'", async () => {
    const log = await sessions();
    const forger = testLog();
    await writeSession({ ...forger, sealDir: forger.sealDir }, { calls: 5 });
    writeFileSync(log.file, readFileSync(forger.file));
    const report = await log.verify();
    expect(report.verdict).toBe("replaced");
    expect(report.problem?.message).toContain("none of the 2 sealed session(s) is in the log: it was replaced");
    expect(report.problems.some((p) => p.kind === "foreign_key")).toBe(true);
  });

  it("sessions moved out of the order they were written in are 'reordered' (exit 10)", async () => {
    const log = await sessions(2);
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(8), ...lines.slice(0, 8)]);
    const report = await log.verify();
    expect(report.verdict).toBe("reordered");
    expect(report.problem?.message).toMatch(
      /\(#2\) started at line 1 after session #1 had finished, yet that session has records down to line 16: sessions were reordered/,
    );
    expect(await exitOf(log)).toBe(10);
  });

  it("two records of a session swapped are 'reordered' at the first of them", async () => {
    const log = await sessions(1);
    const lines = fileLines(log.file);
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    writeLines(log.file, lines);
    const report = await log.verify();
    expect(report.verdict).toBe("reordered");
    expect(report.problem).toMatchObject({ kind: "reordered", line: 4, seq: 3 });
  });

  it("a duplicated record, and a record appended after session_end, are tampered", async () => {
    const log = await sessions(1);
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(0, 3), lines[1]!, ...lines.slice(3)]);
    expect((await log.verify()).problem).toMatchObject({ kind: "inserted", line: 4, seq: 1 });
    writeLines(log.file, lines);
    appendFileSync(log.file, `${lines[6]}\n`);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem?.message).toContain("after the session ended at line 8");
  });

  it("a session inserted without a seal is tampered, even when its MACs were made with the right key", async () => {
    const log = await sessions(1);
    const other = { ...testLog(log.key) };
    await writeSession(other);
    appendFileSync(log.file, readFileSync(other.file));
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem).toMatchObject({ kind: "seal_missing", line: 9 });
  });

  it("a deleted seal, a forged seal and a log without any seal are tampered", async () => {
    const log = await sessions(2);
    const seal = sealFile(log.sealDir, 2);
    const text = readFileSync(seal, "utf8");
    // Both slots of the seal file rewritten without the key (a record count raised).
    writeFileSync(seal, text.replaceAll('"count":', '"count":1'));
    expect((await log.verify()).problem).toMatchObject({ kind: "seal_invalid" });
    rmSync(seal);
    expect((await log.verify()).problem).toMatchObject({ kind: "seal_missing", line: 9 });
    for (const name of readdirSync(log.sealDir)) rmSync(join(log.sealDir, name));
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem?.message).toContain("no seals were found for this log");
  });

  it("a session and its seal taken from another project's log (the same key) are tampered, replacing or added", async () => {
    const key = testKey();
    const a = testLog(key);
    const b = testLog(key);
    for (let i = 0; i < 3; i++) await writeSession(a, { calls: 1 });
    for (let i = 0; i < 2; i++) await writeSession(b, { calls: 1 });
    expect((await b.verify()).verdict).toBe("intact");
    const [aLines, bLines] = [fileLines(a.file), fileLines(b.file)];
    const sessionLines = (lines: string[], n: number) => lines.slice((n - 1) * 4, n * 4);
    // B's session #1 replaced by A's, seal and all.
    writeLines(b.file, [...sessionLines(aLines, 1), ...sessionLines(bLines, 2)]);
    copyFileSync(sealFile(a.sealDir, 1), sealFile(b.sealDir, 1));
    let report = await b.verify();
    expect(report.verdict).not.toBe("intact");
    expect(report.problems.map((p) => p.message).join("\n")).toContain(
      `was written for the log ${a.file}, not for this one: copied from another log`,
    );
    // A's session #3 replayed into another log of two sessions as its #3, seal and all.
    const c = testLog(key);
    for (let i = 0; i < 2; i++) await writeSession(c, { calls: 1 });
    writeLines(c.file, [...fileLines(c.file), ...sessionLines(aLines, 3)]);
    copyFileSync(sealFile(a.sealDir, 3), sealFile(c.sealDir, 3));
    report = await c.verify();
    expect(report.verdict).not.toBe("intact");
    expect(report.problems.map((p) => p.message).join("\n")).toContain("copied from another log");
    // A copy of the log checked against its original's seals still verifies (--seals).
    const copy = join(tempDir(), "copy.jsonl");
    copyFileSync(a.file, copy);
    expect((await verifyAuditFile(copy, { key, sealDir: a.sealDir, logPath: false })).verdict).toBe("intact");
    expect((await verifyAuditFile(copy, { key, sealDir: a.sealDir })).verdict).not.toBe("intact");
  });

  it("a log other users can write is not relied on: unreadable (exit 1), saying why", async () => {
    const log = await sessions(1);
    chmodSync(log.file, 0o666);
    const report = await log.verify();
    expect(report.verdict).toBe("unreadable");
    expect(report.problem?.message).toMatch(/is writable by other users \(mode 666\)/);
    chmodSync(log.file, 0o600);
    expect((await log.verify()).verdict).toBe("intact");
  });

  it("a line too long to be a record is reported by its length, never held or parsed whole", async () => {
    const log = await sessions(1);
    appendFileSync(log.file, `[${"{},".repeat(12 * 1024 * 1024)}{}]\n`);
    const report = await log.verify();
    expect(report.verdict).not.toBe("intact");
    expect(report.problems.find((p) => p.kind === "corrupt_line")?.message).toMatch(
      /^a line of \d+ bytes, longer than any record the audit writes: not a record$/,
    );
  });

  it("arguments too large for a record are written as their size, so the log stays verifiable", async () => {
    const log = testLog();
    // A library user's redactor that keeps everything (ToolAuditOptions.redactors).
    const session = openAuditSession({
      file: log.file,
      sealDir: log.sealDir,
      key: log.key,
      fsync: "batch",
      cwd: "/project",
      config: { fsync: "batch", onWriteError: "stop" },
      redact: (_tool, value) => value,
    });
    session.recorder.turnStart();
    const args = { path: "x", data: "é".repeat(9 * 1024 * 1024) };
    session.recorder.callStart({ toolCallId: "c1", toolName: "custom", args });
    session.recorder.callEnd(endEvent("c1", "custom", args));
    session.commit();
    await session.close();
    const start = JSON.parse(fileLines(log.file)[1] as string) as { args: unknown };
    expect(start.args).toMatchObject({ redacted: true });
    expect((await log.verify()).verdict).toBe("intact");
  });

  it("a session MAC-ed with another key is tampered, named with both key ids", async () => {
    const log = await sessions(1);
    const report = await log.verify({ key: testKey() });
    expect(report.verdict).toBe("tampered");
    const foreign = report.problems.find((p) => p.kind === "foreign_key");
    expect(foreign).toMatchObject({ line: 1 });
    expect(foreign?.message).toContain(`was MAC-ed with key ${log.key.id}, not with`);
    // Its seal was MAC-ed with the same other key: it does not verify either.
    expect(report.problems.map((p) => p.kind)).toContain("seal_invalid");
  });
});

describe("verify: a closed session rolled back to look like a crash", () => {
  it("its end cut and its newer seal slot blanked: the next session's record of it says it had closed (exit 7)", async () => {
    const log = await sessions(3);
    // Session #2's newer slot blanked: the older slot (one record fewer, not closed) is what is left.
    const seal = sealFile(log.sealDir, 2);
    const text = readFileSync(seal, "utf8");
    const slots = text.split("\n").slice(0, 2);
    const gens = slots.map((line) => Number(/"gen":(\d+)/.exec(line)?.[1] ?? -1));
    const newer = gens[0]! > gens[1]! ? 0 : 1;
    slots[newer] = " ".repeat(slots[newer]!.length);
    writeFileSync(seal, `${slots.join("\n")}\n`);
    // ...and its session_end cut from the log (line 16 of 24).
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(0, 15), ...lines.slice(16)]);
    const report = await log.verify();
    expect(report.verdict).toBe("truncated");
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(
      /\(#2\) had 8 records and had closed when session #3 started \(line 16\); the log has 7 and no session_end: its end was cut/,
    );
  });

  it("an intact log with the previous sessions recorded still verifies", async () => {
    const log = await sessions(3);
    const third = JSON.parse(fileLines(log.file)[16]!) as { previous?: unknown };
    expect(third.previous).toMatchObject({ ordinal: 2, count: 8, closed: true });
    expect((await log.verify()).verdict).toBe("intact");
  });
});

describe("verify: a run that did not close", () => {
  it("a session left open after a committed turn is an unsealed tail (exit 3), its sealed part verified", async () => {
    const log = await sessions(2, { end: false });
    const report = await log.verify();
    expect(report.verdict).toBe("unsealed_tail");
    expect(report.status).toBe("incomplete");
    expect(report.summary).toContain("UNSEALED TAIL: every sealed record verifies, but a run did not close");
    expect(report.summary).toContain("its 7 sealed record(s) verify; nothing follows its last seal");
    expect(VERDICT_EXIT_CODES.unsealed_tail).toBe(3);
  });

  it("records written after the last seal are named as the unsealed tail", async () => {
    const log = testLog();
    const session = openSession(log, "every");
    session.recorder.turnStart();
    session.recorder.callStart({ toolCallId: "A", toolName: "ls", args: { path: "." } });
    session.commit();
    // Written (fsync "every") but not sealed: the process dies before the turn ends.
    session.recorder.callEnd(endEvent("A", "ls", { path: "." }));
    session.recorder.callStart({ toolCallId: "B", toolName: "ls", args: { path: "." } });
    await session.sink.close();
    const report = await log.verify();
    expect(report.verdict).toBe("unsealed_tail");
    expect(report.summary).toContain(
      "its 2 sealed record(s) verify; 2 record(s) after the last seal (seq 2–3, up to line 4)",
    );
  });

  it("an unsealed tail whose last line was torn by the crash is still an unsealed tail", async () => {
    const log = await sessions(1, { end: false });
    appendFileSync(log.file, '{"v":2,"session":"torn');
    const report = await log.verify();
    expect(report.verdict).toBe("unsealed_tail");
  });

  it("a torn last line after closed sessions is tampered", async () => {
    const log = await sessions(1);
    appendFileSync(log.file, '{"v":2,"session":"torn');
    expect((await log.verify()).verdict).toBe("tampered");
  });
});

describe("record format", () => {
  it("each line ends with the HMAC of the rest of it, and prev is the MAC of the session's previous line", async () => {
    const log = await sessions(1);
    const lines = fileLines(log.file);
    let prev = "0".repeat(64);
    for (const line of lines) {
      const split = splitMac(line);
      expect(split?.mac).toBe(macOf(split?.body ?? "", log.key.records));
      expect((JSON.parse(line) as { prev: string }).prev).toBe(prev);
      prev = split?.mac ?? "";
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: "session_start", keyId: log.key.id, ordinal: 1, settled: 0 });
  });
});
