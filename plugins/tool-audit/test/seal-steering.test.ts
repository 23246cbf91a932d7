import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sealFile } from "../src/seal-store.ts";
import { fileLines, openSession, testLog, writeLines, writeSession } from "./helpers.ts";

// writeSession with 3 calls writes 8 lines per session.
const PER_SESSION = 8;

describe("a seal folder steered while a session starts, then put back", () => {
  it("a middle session deleted whole, its seal rolled back to its first slot (0 records), is SESSION DELETED: the next session vouched for it", async () => {
    const log = testLog();
    await writeSession(log);
    // What someone watching the seal folder copies while #2 starts: its first seal, no records yet.
    const second = openSession(log);
    const firstSlot = readFileSync(sealFile(log.sealDir, 2), "utf8").split("\n")[0] as string;
    second.recorder.turnStart();
    second.commit();
    await second.close();
    await writeSession(log);
    expect((await log.verify()).verdict).toBe("intact");

    const lines = fileLines(log.file);
    const id2 = (JSON.parse(lines[PER_SESSION] as string) as { session: string }).session;
    writeLines(
      log.file,
      lines.filter((l) => (JSON.parse(l) as { session: string }).session !== id2),
    );
    writeFileSync(sealFile(log.sealDir, 2), `${firstSlot}\n`);
    const report = await log.verify();
    expect(report.verdict).toBe("session_deleted");
    expect(report.summary).toMatch(
      /session #2 had 2 records and had closed when session #3 started \(line \d+\), but it is not in the log: deleted/,
    );
  });

  it("the previous seal hidden while a session starts, then restored, is TAMPERED, so the two sessions cannot be swapped unseen", async () => {
    const log = testLog();
    for (let i = 0; i < 3; i++) await writeSession(log);
    const third = sealFile(log.sealDir, 3);
    const saved = readFileSync(third);
    writeFileSync(third, "not a seal\n"); // keeps the number taken, so #4 reads #3's seal and finds none
    await writeSession(log);
    writeFileSync(third, saved);
    // #4 counted #3 as unfinished (settled 2): moving #3 after #4 breaks no order it recorded.
    const lines = fileLines(log.file);
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => lines.slice(i * PER_SESSION, (i + 1) * PER_SESSION));
    writeLines(log.file, [...(a ?? []), ...(b ?? []), ...(d ?? []), ...(c ?? [])]);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.summary).toMatch(
      /\(#4\) found no authentic seal of session #3 when it started \(line 17\): the seal folder was tampered with/,
    );
  });

  it("another session's authentic seal put in the previous one's place is named too", async () => {
    const log = testLog();
    for (let i = 0; i < 2; i++) await writeSession(log);
    const second = sealFile(log.sealDir, 2);
    const saved = readFileSync(second);
    writeFileSync(second, readFileSync(sealFile(log.sealDir, 1)));
    await writeSession(log);
    writeFileSync(second, saved);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.summary).toMatch(/\(#3\) took the seal of session #1 for that of session #2 when it started/);
  });
});
