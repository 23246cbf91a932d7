import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { keyFromSecret } from "../src/audit-key.ts";
import { parseRecord } from "../src/record.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { fileLines, startWriter, tempDir, WRITER_SCRIPT } from "./helpers.ts";

/** A log, its seal folder and a key the writer children share through their environment. */
function sharedLog() {
  const dir = tempDir();
  const secret = randomBytes(32);
  const key = keyFromSecret(secret, "test.key");
  const file = join(dir, "audit.jsonl");
  const sealDir = join(dir, "seals");
  return {
    file,
    env: { SEAL_DIR: sealDir, KEY_HEX: secret.toString("hex") },
    verify: () => verifyAuditFile(file, { key, sealDir }),
  };
}

const seqOf = (line: string) => Number(line.slice("seq ".length));

// Real child processes (each loads the sources through jiti): give them more than the default 5 s.
const SLOW = { timeout: 30_000 };

describe("several processes and crashes", () => {
  it("two processes appending concurrently never interleave lines, and both chains verify", SLOW, async () => {
    const { file, env, verify } = sharedLog();
    const calls = 500;
    const writers = [
      // Batches of 10 turns, each written and fsynced: the batch writer then runs as long as the
      // other (all at once it could finish before the other process got the CPU, and nothing interleaved).
      startWriter([file, "batch", String(calls), "10"], { ...env, WAIT_GO: "1" }),
      startWriter([file, "every", String(calls)], { ...env, WAIT_GO: "1" }),
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

    const report = await verify();
    expect(report.summary).toContain("INTACT");
    expect(report).toMatchObject({ verdict: "intact", problemCount: 0, seals: 2 });
    expect(report.sessions.map((s) => s.records)).toEqual([2 * calls + 2, 2 * calls + 2]);
  });

  it(
    'SIGKILL while writing with fsync "every": verify says "unsealed tail", the sealed part verified, every reported record there',
    SLOW,
    async () => {
      const { file, env, verify } = sharedLog();
      const writer = startWriter([file, "every", "0"], env);
      const reported = seqOf(await writer.waitFor((l) => l.startsWith("seq ") && seqOf(l) >= 300));
      writer.kill("SIGKILL");
      expect((await writer.exited).signal).toBe("SIGKILL");

      const report = await verify();
      expect(report.verdict).toBe("unsealed_tail");
      expect(report.sessions).toHaveLength(1);
      expect(report.sessions[0]?.lastSeq).toBeGreaterThanOrEqual(reported);
      expect(report.sessions[0]?.sealed).toBeGreaterThan(reported);
      expect(report.summary).toMatch(
        /did not close \(killed or crashed, or still running\): its \d+ sealed record\(s\) verify/,
      );
    },
  );

  it(
    'SIGKILL with fsync "batch": an unsealed tail; at most the records after the last commit are lost',
    SLOW,
    async () => {
      const { file, env, verify } = sharedLog();
      const writer = startWriter([file, "batch", "0", "100"], env);
      const flushed = seqOf(await writer.waitFor((l) => l.startsWith("seq ") && seqOf(l) >= 400));
      writer.kill("SIGKILL");
      await writer.exited;

      const report = await verify();
      expect(report.verdict).toBe("unsealed_tail");
      expect(report.sessions[0]?.lastSeq).toBeGreaterThanOrEqual(flushed);
      expect(report.sessions[0]?.sealed).toBeGreaterThan(flushed);
    },
  );

  it(
    "a write that fails after the open (EFBIG under a file size limit) is a write failure: nothing more is written or sealed",
    SLOW,
    async () => {
      const { file, env, verify } = sharedLog();
      // bash's `ulimit -f 16` caps files at 16 KB; node ignores SIGXFSZ, so the write fails with EFBIG.
      const command = `ulimit -f 16; exec "${process.execPath}" "${WRITER_SCRIPT}" "${file}" batch 200 5`;
      const outcome = await promisify(execFile)("bash", ["-c", command], { env: { ...process.env, ...env } }).then(
        () => ({ code: 0, stdout: "" }),
        (error: { code: number; stdout: string }) => error,
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toMatch(/^error EFBIG: file too large/m);
      expect(outcome.stdout).not.toContain("done ");
      const report = await verify();
      // The last batch was cut at the limit; everything sealed before it verifies.
      expect(report.verdict).toBe("unsealed_tail");
      expect(report.sessions[0]?.sealed).toBeGreaterThan(0);
    },
  );

  it(
    "processes that start and end at the same time fold finished seals into buckets, and every session verifies",
    SLOW,
    async () => {
      const { file, env, verify } = sharedLog();
      const waves = 4;
      const perWave = 4;
      for (let wave = 0; wave < waves; wave++) {
        const writers = Array.from({ length: perWave }, () =>
          startWriter([file, "batch", "2"], { ...env, SEALS_PER_BUCKET: "3", WAIT_GO: "1" }),
        );
        await Promise.all(writers.map((w) => w.waitFor((l) => l === "ready")));
        for (const w of writers) w.send("go\n");
        const exits = await Promise.all(writers.map((w) => w.exited));
        expect(exits.map((e) => [e.code, e.stderr])).toEqual(writers.map(() => [0, ""]));
      }
      const folder = readdirSync(env.SEAL_DIR);
      // Sessions that started while others of their wave ran fold less; the later waves fold the earlier.
      expect(folder.filter((name) => name.endsWith(".seals")).length).toBeGreaterThan(0);
      const report = await verify();
      expect(report).toMatchObject({ verdict: "intact", problemCount: 0, seals: waves * perWave });
      expect(report.sessions).toHaveLength(waves * perWave);
    },
  );
});
