import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { endEvent, fileLines, openSession, testLog, writeLines, writeSession } from "./helpers.ts";

// A lenient UTF-8 decode maps every invalid byte to U+FFFD: a line whose EF BF BD was replaced by
// FF would decode to the same text and still verify. Verify reads the exact bytes instead.
describe("verify: the bytes of a line, not a lenient decoding of them", () => {
  it("U+FFFD in a recorded path replaced by an invalid byte is a corrupt line (tampered, exit 6)", async () => {
    const log = testLog();
    const session = openSession(log);
    session.recorder.turnStart();
    const args = { path: "u\ufffd.txt" };
    session.recorder.callStart({ toolCallId: "U", toolName: "read", args });
    session.recorder.callEnd(endEvent("U", "read", args));
    session.commit();
    await session.close();
    expect((await log.verify()).verdict).toBe("intact");

    const bytes = readFileSync(log.file);
    const at = bytes.indexOf(Buffer.from("u\ufffd.txt"));
    expect(at).toBeGreaterThan(0);
    const altered = Buffer.concat([bytes.subarray(0, at + 1), Buffer.from([0xff]), bytes.subarray(at + 4)]);
    // The lenient decoding of the altered bytes is the original text: only the bytes tell them apart.
    expect(altered.toString("utf8")).toBe(bytes.toString("utf8"));
    writeFileSync(log.file, altered);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem).toMatchObject({ kind: "corrupt_line", line: 2 });
    expect(report.problem?.message).toContain("UTF-8");
  });
});

describe("verify: fields of a record are unverified input", () => {
  it("a forged gap record whose cause is an object with its own toString is tampered, not a crash (unreadable)", async () => {
    const log = testLog();
    await writeSession(log, { calls: 1 });
    const lines = fileLines(log.file);
    const start = JSON.parse(lines[0] ?? "{}") as { session: string };
    const gap = { v: 2, session: start.session, seq: 1, prev: "0".repeat(64), ts: "x", kind: "gap", turn: 0, pid: 1 };
    const forged = `${JSON.stringify({ ...gap, cause: { toString: 1 }, lost: 1 }).slice(0, -1)},"mac":"${"a".repeat(64)}"}`;
    writeLines(log.file, [...lines, forged]);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problems.some((p) => p.kind === "unreadable")).toBe(false);
  });
});
