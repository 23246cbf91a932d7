import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bestSealLine } from "../src/seal.ts";
import { bucketName, listSeals, sealFromBuckets } from "../src/seal-buckets.ts";
import { readSeal } from "../src/seal-lookup.ts";
import { sealFile } from "../src/seal-store.ts";
import { fileLines, type TestLog, testLog, writeLines, writeSession } from "./helpers.ts";

// Buckets of 5 sessions here (256 in use): session n starts once n-1 have finished, so the
// session that starts after a bucket's last one has finished folds that bucket.
const PER_BUCKET = 5;

async function closedSessions(count: number, log: TestLog = testLog()): Promise<TestLog> {
  for (let i = 0; i < count; i++) await writeSession(log, { calls: 1, sealsPerBucket: PER_BUCKET });
  return log;
}

// The seal files and buckets of a folder (it also holds the log's id, log.id).
const names = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name !== "log.id")
    .sort();

describe("folding finished sessions' seals into buckets", () => {
  it("a seal folded into a bucket after the folder was listed is still found (a session starting meanwhile reads it there)", async () => {
    const log = await closedSessions(PER_BUCKET);
    const stale = listSeals(log.sealDir);
    expect(stale.buckets).toEqual([]);
    await closedSessions(1, log); // session 6 folds 1–5 and removes their files
    expect(names(log.sealDir)[0]).toBe(bucketName(1, PER_BUCKET));
    expect(readSeal(log.sealDir, PER_BUCKET, stale.buckets, log.key.seals)).toMatchObject({
      ordinal: PER_BUCKET,
      closed: true,
    });
  });

  it("keeps the seal folder small and verify intact: buckets for finished ranges, files for the rest", async () => {
    const log = await closedSessions(23);
    // Session 23 started with 1–22 finished: every full bucket up to 20 is folded.
    expect(names(log.sealDir)).toEqual([
      bucketName(1, 5),
      bucketName(6, 10),
      bucketName(11, 15),
      bucketName(16, 20),
      "00000021.seal",
      "00000022.seal",
      "00000023.seal",
    ]);
    // One line per session, each a whole MAC-ed seal of a closed session.
    const bucket = fileLines(join(log.sealDir, bucketName(6, 10))).map((line) => JSON.parse(line));
    expect(bucket.map((s) => [s.ordinal, s.closed, s.count])).toEqual([6, 7, 8, 9, 10].map((n) => [n, true, 4]));
    const report = await log.verify();
    expect(report).toMatchObject({ verdict: "intact", problemCount: 0, seals: 23 });
    expect(report.sessions).toHaveLength(23);
  });

  it("numbers go on after the folded ones, with only buckets left in the folder", async () => {
    const log = await closedSessions(11);
    // Leave only buckets behind: a new session must still take the next number.
    for (const name of names(log.sealDir)) if (name.endsWith(".seal")) rmSync(join(log.sealDir, name));
    expect(names(log.sealDir)).toEqual([bucketName(1, 5), bucketName(6, 10)]);
    await writeSession(log, { calls: 1, sealsPerBucket: PER_BUCKET });
    expect(listSeals(log.sealDir).ordinals).toEqual([11]);
    // The deleted seal of session 11 is reported; nothing else.
    const report = await log.verify();
    expect(report.verdict).not.toBe("intact");
    expect(report.problems.map((p) => p.session)).toEqual([report.sessions[10]?.session]);
  });

  it("the sessions after a bucket, deleted with their seals, are found: a bucket is folded by a later session", async () => {
    const log = await closedSessions(11);
    expect((await log.verify()).verdict).toBe("intact");
    // Sessions 11 (the one that folded 6–10) deleted from the log, and its seal with it.
    const lines = fileLines(log.file);
    const eleventh = (JSON.parse(lines.at(-1) as string) as { session: string }).session;
    writeLines(
      log.file,
      lines.filter((l) => (JSON.parse(l) as { session: string }).session !== eleventh),
    );
    for (const name of names(log.sealDir)) if (name.endsWith(".seal")) rmSync(join(log.sealDir, name));
    const report = await log.verify();
    expect(report.verdict).toBe("session_deleted");
    expect(report.problem?.message).toBe(
      "session #11, which folded the seals of sessions up to #10, is missing from both the seals and the log: deleted",
    );
  });

  it("a session that has not finished stops the folding of its bucket and of every later one", async () => {
    const log = testLog();
    await closedSessions(2, log);
    // Left open by a process that is still alive (this one): not finished.
    await writeSession(log, { calls: 1, end: false, sealsPerBucket: PER_BUCKET });
    await closedSessions(10, log);
    expect(names(log.sealDir).filter((n) => n.endsWith(".seals"))).toEqual([]);
    expect(listSeals(log.sealDir).ordinals).toHaveLength(13);
  });

  it("a forged seal file is never folded: it stays where verify names it", async () => {
    const log = await closedSessions(3);
    const forged = sealFile(log.sealDir, 2);
    // Every slot forged (a MAC made without the key), so no authentic seal is left in the file.
    writeFileSync(forged, readFileSync(forged, "utf8").replace(/"mac":"[0-9a-f]{64}"/g, `"mac":"${"0".repeat(64)}"`));
    await closedSessions(10, log);
    expect(names(log.sealDir)).toContain("00000002.seal");
    const report = await log.verify();
    expect(report.verdict).not.toBe("intact");
    expect(report.problems.some((p) => p.kind === "seal_invalid" && p.seal === forged)).toBe(true);
  });

  it("tampering with a bucket is found: a deleted bucket, a changed line, a dropped line", async () => {
    const log = await closedSessions(8);
    const bucket = join(log.sealDir, bucketName(1, 5));
    const original = readFileSync(bucket, "utf8");

    rmSync(bucket);
    let report = await log.verify();
    expect(report.problems.filter((p) => p.kind === "seal_missing")).toHaveLength(5);

    writeFileSync(bucket, original.replace('"count":4', '"count":3'));
    report = await log.verify();
    expect(report.problems.some((p) => p.kind === "seal_invalid" && p.seal === `${bucket}:1`)).toBe(true);

    const lines = original.trimEnd().split("\n");
    writeLines(bucket, [...lines.slice(0, 2), ...lines.slice(3)]);
    report = await log.verify();
    expect(report.problems.map((p) => p.kind)).toEqual(["seal_missing"]);
    expect(report.problems[0]?.session).toBe(report.sessions[2]?.session);
  });

  it("a bucket another process wrote first is kept: only seal files whose line it holds are removed", async () => {
    const log = await closedSessions(5);
    // As if a process folded sessions 1–4 and stopped before removing their files.
    const lines = [1, 2, 3, 4].map(
      (n) => bestSealLine(readFileSync(sealFile(log.sealDir, n), "utf8"), log.key.seals)?.line ?? "",
    );
    writeLines(join(log.sealDir, bucketName(1, 5)), lines);
    await closedSessions(1, log);
    const left = names(log.sealDir);
    expect(left).toContain("00000005.seal");
    for (const n of [1, 2, 3, 4]) expect(left).not.toContain(`0000000${n}.seal`);
    expect(await log.verify()).toMatchObject({ verdict: "intact", problemCount: 0 });
  });

  it("a seal folded since the folder was listed is still found in its bucket", async () => {
    const log = await closedSessions(7);
    const listing = listSeals(log.sealDir);
    expect(sealFromBuckets(log.sealDir, listing.buckets, 3, log.key.seals)).toMatchObject({ ordinal: 3, closed: true });
    expect(sealFromBuckets(log.sealDir, listing.buckets, 6, log.key.seals)).toBeUndefined();
  });
});
