import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AuditWriteFailure, openAuditSink } from "../src/sink.ts";
import { fileLines, tempDir, testLog, writeSession } from "./helpers.ts";

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

  it('fsync "batch" keeps every byte of lines in any script, whatever their size against the batch', async () => {
    const file = join(tempDir(), "audit.jsonl");
    const sink = openAuditSink({ file, fsync: "batch", batchBytes: 1024 });
    // Two-, three- and four-byte UTF-8 (a surrogate pair), lines just under, at and far over the batch.
    const texts = ["é", "€", "日本語", "🔒", "a"];
    const written: string[] = [];
    for (let i = 0; i < 400; i++) {
      const text = texts[i % texts.length] as string;
      const l = JSON.stringify({ i, text: text.repeat(i % 50 === 0 ? 3000 : (i * 7) % 400) });
      written.push(l);
      expect(sink.write(l)).toBe(true);
      if (i % 97 === 0) expect(sink.commit()).toBe(true);
    }
    expect(await sink.close()).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(`${written.join("\n")}\n`);
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
  }

  it("a log with a second hard link is refused at open: another name could reach it", async () => {
    const file = join(tempDir(), "audit.jsonl");
    writeFileSync(file, "");
    linkSync(file, join(tempDir(), "elsewhere"));
    const failures: AuditWriteFailure[] = [];
    const sink = openAuditSink({ file, fsync: "batch", onError: (f) => failures.push(f) });
    expect(await sink.ready()).toBe(false);
    expect(failures[0]?.message).toBe(
      `${file} has 2 hard links: another name (perhaps in a workspace) reaches the audit log`,
    );
  });

  // Finding: a configured log in a shared folder, made beforehand by another account with mode 666,
  // was appended to and the run exited 0; its owner could rewrite it at will, and
  // `gatehouse audit verify` refuses such a log (exit 1), so nothing the run recorded could be verified.
  it("a log others may write, or another user's, is refused at open, as verify refuses it", async () => {
    const dir = tempDir();
    const open = join(dir, "open.jsonl");
    writeFileSync(open, "");
    chmodSync(open, 0o666);
    const cases: [string, RegExp][] = [
      [open, /open\.jsonl is writable by other users \(mode 666\): anyone could rewrite it/],
    ];
    if (process.getuid?.() === 0) {
      const foreign = join(dir, "foreign.jsonl");
      writeFileSync(foreign, "", { mode: 0o600 });
      chownSync(foreign, 4242, 4242);
      cases.push([foreign, /foreign\.jsonl is owned by uid 4242, not by you \(uid 0\)/]);
    }
    for (const [file, error] of cases) {
      const failures: AuditWriteFailure[] = [];
      const sink = openAuditSink({ file, fsync: "batch", onError: (f) => failures.push(f) });
      expect(await sink.ready()).toBe(false);
      expect(failures[0]?.op).toBe("open");
      expect(failures[0]?.message).toMatch(error);
      expect(readFileSync(file, "utf8")).toBe("");
    }
  });

  it("a FIFO, a directory, a symbolic link and a device are refused at once, never waited on", async () => {
    const dir = tempDir();
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    symlinkSync(join(dir, "elsewhere.jsonl"), join(dir, "link.jsonl"));
    mkdirSync(join(dir, "folder"));
    for (const [file, error] of [
      [fifo, /is not a regular file|ENXIO/],
      [join(dir, "folder"), /EISDIR|is not a regular file/],
      [join(dir, "link.jsonl"), /ELOOP/],
      ["/dev/full", /kernel file system \/dev/],
      ["/proc/self/attr/audit.jsonl", /kernel file system \/proc/],
    ] as const) {
      const failures: AuditWriteFailure[] = [];
      const sink = openAuditSink({ file, fsync: "batch", onError: (f) => failures.push(f) });
      expect([file, await sink.ready()]).toEqual([file, false]);
      expect(failures[0]?.op).toBe("open");
      expect(failures[0]?.message).toMatch(error);
    }
    expect(existsSync(join(dir, "elsewhere.jsonl"))).toBe(false);
  });

  for (const fsync of ["every", "batch"] as const) {
    for (const [what, change, cause] of [
      ["unlinked", (file: string) => unlinkSync(file), "was deleted"],
      ["renamed", (file: string) => renameSync(file, `${file}.moved`), "was renamed or moved away"],
      [
        "replaced",
        (file: string) => {
          writeFileSync(`${file}.new`, "");
          renameSync(`${file}.new`, file);
        },
        "was replaced by another file",
      ],
      ["truncated", (file: string) => truncateSync(file, 0), `was truncated (from ${line(1).length + 1} to 0 bytes)`],
      [
        "hard-linked",
        (file: string) => linkSync(file, `${file}.link`),
        "gained a hard link (another name now reaches it)",
      ],
    ] as const) {
      it(`${fsync}: a file ${what} under the sink fails closed at the next write, naming the cause`, async () => {
        const file = join(tempDir(), "audit.jsonl");
        const failures: AuditWriteFailure[] = [];
        const sink = openAuditSink({ file, fsync, onError: (f) => failures.push(f) });
        sink.write(line(1));
        expect(sink.commit()).toBe(true);
        change(file);
        sink.write(line(2));
        expect(sink.commit()).toBe(false);
        expect(failures).toEqual([
          expect.objectContaining({
            op: "replaced",
            message: `the audit file ${file} ${cause} while the run was writing to it`,
          }),
        ]);
        // Nothing went into the void: the file that was lost holds only the first line.
        const lost = what === "renamed" ? `${file}.moved` : undefined;
        if (lost) expect(fileLines(lost)).toEqual([line(1)]);
        expect(sink.write(line(3))).toBe(false);
        await sink.close();
      });
    }

    it(`${fsync}: with onFileReplaced "reopen" the sink opens the path anew and says how many lines were lost`, async () => {
      const file = join(tempDir(), "audit.jsonl");
      const reopened: [string, number][] = [];
      const sink = openAuditSink({
        file,
        fsync,
        onFileReplaced: "reopen",
        onReopened: (cause, lost) => reopened.push([cause, lost]),
      });
      sink.write(line(1));
      sink.write(line(2));
      sink.commit();
      unlinkSync(file);
      sink.write(line(3));
      expect(sink.commit()).toBe(true);
      expect(reopened).toEqual([["the audit file was deleted; reopened", 2]]);
      expect(fileLines(file)).toEqual([line(3)]);
      await sink.close();
    });
  }

  it("a torn last line left by a crash is sealed, so the next session's lines stay whole", async () => {
    const log = testLog();
    await writeSession(log, { calls: 1 });
    writeFileSync(log.file, `${readFileSync(log.file, "utf8")}{"v":2,"session":"torn`);
    await writeSession(log, { calls: 0 });
    const report = await log.verify();
    expect(report.problems.map((p) => [p.kind, p.line])).toEqual([["corrupt_line", 5]]);
    expect(report.sessions.map((s) => [s.records, s.ended])).toEqual([
      [4, true],
      [2, true],
    ]);
  });
});
