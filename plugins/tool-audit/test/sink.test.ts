import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AuditWriteFailure, openAuditSink } from "../src/sink.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { fileLines, recorderFor, tempDir, writeSession } from "./helpers.ts";

const line = (i: number, size = 40) => JSON.stringify({ i, pad: "x".repeat(size) });

describe("AuditSink", () => {
  it('fsync "every" writes each record as a whole line before write returns', async () => {
    const file = join(tempDir(), "nested", "dir", "audit.jsonl");
    const sink = openAuditSink({ file, fsync: "every" });
    for (let i = 0; i < 50; i++) {
      expect(sink.write(line(i, i * 100))).toBe(true);
      // Durable on return: the file already ends with this record.
      expect(fileLines(file)).toHaveLength(i + 1);
    }
    expect(await sink.close()).toBe(true);
    expect(fileLines(file).map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([...Array(50).keys()]);
  });

  it('fsync "batch" buffers, and flush writes every record as whole lines', async () => {
    const file = join(tempDir(), "audit.jsonl");
    const sink = openAuditSink({ file, fsync: "batch", batchBytes: 4096 });
    // Mixed sizes, some far larger than the batch and sonic-boom's 16 KB chunks.
    const sizes = Array.from({ length: 300 }, (_, i) => (i % 37 === 0 ? 40_000 : (i * 53) % 3000));
    sizes.forEach((size, i) => {
      sink.write(line(i, size));
    });
    expect(await sink.flush()).toBe(true);
    const lines = fileLines(file);
    expect(lines).toHaveLength(300);
    lines.forEach((l, i) => {
      expect((JSON.parse(l) as { i: number }).i).toBe(i);
    });
    sink.write(line(300));
    expect(await sink.close()).toBe(true);
    expect(readFileSync(file, "utf8").endsWith(`${line(300)}\n`)).toBe(true);
    expect(sink.write(line(301))).toBe(false);
    expect(sink.dropped).toBe(1);
  });

  for (const fsync of ["every", "batch"] as const) {
    it(`${fsync}: a file whose parent is a regular file fails with a typed error, healthy false`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "blocker"), "I am a file");
      const file = join(dir, "blocker", "audit.jsonl");
      const failures: AuditWriteFailure[] = [];
      const sink = openAuditSink({ file, fsync, onError: (f) => failures.push(f) });
      expect(await sink.ready()).toBe(false);
      expect(sink.healthy).toBe(false);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ code: "GH_AUDIT_WRITE", file, op: "open" });
      expect(failures[0]?.errno).toMatch(/^E[A-Z]+$/);
      expect(sink.failure).toEqual(failures[0]);
      expect(sink.write(line(1))).toBe(false);
      expect(await sink.flush()).toBe(false);
      expect(await sink.close()).toBe(false);
      expect(sink.dropped).toBe(1);
      expect(failures).toHaveLength(1);
    });

    it.skipIf(!existsSync("/dev/full"))(`${fsync}: a write that fails after the open (ENOSPC) surfaces`, async () => {
      const failures: AuditWriteFailure[] = [];
      const sink = openAuditSink({ file: "/dev/full", fsync, onError: (f) => failures.push(f) });
      expect(await sink.ready()).toBe(true);
      const accepted = sink.write(line(1));
      const flushed = await sink.flush();
      expect(fsync === "every" ? accepted : flushed).toBe(false);
      expect(sink.healthy).toBe(false);
      expect(failures).toEqual([expect.objectContaining({ errno: "ENOSPC", file: "/dev/full" })]);
      expect(failures[0]?.op).toBe("write");
      await sink.close();
    });
  }

  it("a torn last line left by a crash is sealed, so the next session's lines stay whole", async () => {
    const file = join(tempDir(), "audit.jsonl");
    await writeSession(file, { calls: 1 });
    writeFileSync(file, `${readFileSync(file, "utf8")}{"v":1,"session":"torn`);
    const sink = openAuditSink({ file, fsync: "batch" });
    const recorder = recorderFor(sink);
    recorder.start();
    recorder.end();
    await sink.close();
    const report = await verifyAuditFile(file);
    expect(report.problems.map((p) => [p.kind, p.line])).toEqual([["corrupt_line", 5]]);
    expect(report.sessions.map((s) => [s.records, s.ended])).toEqual([
      [4, true],
      [2, true],
    ]);
  });
});
