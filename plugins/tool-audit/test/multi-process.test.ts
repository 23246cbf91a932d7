import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRecord } from "../src/record.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { fileLines, startWriter, tempDir } from "./helpers.ts";

const seqOf = (line: string) => Number(line.slice("seq ".length));

// Real child processes (each loads the sources through jiti): give them more than the default 5 s.
const SLOW = { timeout: 30_000 };

describe("several processes and crashes", () => {
  it("two processes appending concurrently never interleave lines, and both chains verify", SLOW, async () => {
    const file = join(tempDir(), "audit.jsonl");
    const calls = 1500;
    const writers = [
      startWriter([file, "batch", String(calls)], { WAIT_GO: "1" }),
      startWriter([file, "every", String(calls)], { WAIT_GO: "1" }),
    ];
    await Promise.all(writers.map((w) => w.waitFor((l) => l === "ready")));
    for (const w of writers) w.send("go\n");
    const exits = await Promise.all(writers.map((w) => w.exited));
    expect(exits.map((e) => [e.code, e.stderr])).toEqual([
      [0, ""],
      [0, ""],
    ]);

    const lines = fileLines(file);
    expect(lines).toHaveLength(2 * (2 * calls + 2));
    const sessions = lines.map((l) => {
      const parsed = parseRecord(l);
      if (!parsed.ok) throw new Error(`interleaved or torn line: ${l.slice(0, 120)}…`);
      return parsed.record.session;
    });
    // The writers really ran at the same time: the file switches between sessions more than once.
    const switches = sessions.filter((s, i) => i > 0 && s !== sessions[i - 1]).length;
    expect(switches).toBeGreaterThan(1);

    const report = await verifyAuditFile(file);
    expect(report.summary).toContain("OK");
    expect(report).toMatchObject({ status: "ok", problemCount: 0 });
    expect(report.sessions.map((s) => s.records)).toEqual([2 * calls + 2, 2 * calls + 2]);
  });

  it(
    'SIGKILL while writing with fsync "every": verify says incomplete, and every reported record is there',
    SLOW,
    async () => {
      const file = join(tempDir(), "audit.jsonl");
      const writer = startWriter([file, "every", "0"]);
      const reported = seqOf(await writer.waitFor((l) => l.startsWith("seq ") && seqOf(l) >= 300));
      writer.kill("SIGKILL");
      expect((await writer.exited).signal).toBe("SIGKILL");

      const report = await verifyAuditFile(file);
      expect(report.status).not.toBe("ok");
      if (report.status === "failed") expect(report.problem?.kind).toBe("torn_last_line");
      else {
        expect(report.status).toBe("incomplete");
        expect(report.incomplete).toHaveLength(1);
        expect(report.incomplete[0]?.lastSeq).toBeGreaterThanOrEqual(reported);
        expect(report.summary).toContain("at most its unflushed batch was lost");
      }
    },
  );

  it('SIGKILL with fsync "batch": at most the records after the last flush are lost', SLOW, async () => {
    const file = join(tempDir(), "audit.jsonl");
    const writer = startWriter([file, "batch", "0", "100"]);
    const flushed = seqOf(await writer.waitFor((l) => l.startsWith("seq ") && seqOf(l) >= 400));
    writer.kill("SIGKILL");
    await writer.exited;

    const report = await verifyAuditFile(file);
    expect(report.status).not.toBe("ok");
    if (report.status === "failed") expect(report.problem?.kind).toBe("torn_last_line");
    else expect(report.incomplete[0]?.lastSeq).toBeGreaterThanOrEqual(flushed);
  });
});
