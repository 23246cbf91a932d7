import { describe, expect, it } from "vitest";
import { endEvent, fileLines, openSession, testLog } from "./helpers.ts";

describe("closing a session", () => {
  it("hands session_end and the closing seal to the kernel before it first awaits: the log verifies closed while its fsyncs are still pending", async () => {
    const log = testLog();
    const session = openSession(log, "batch");
    session.recorder.turnStart();
    session.recorder.callStart({ toolCallId: "c1", toolName: "read", args: { path: "a.txt" } });
    session.recorder.callEnd(endEvent("c1", "read", { path: "a.txt" }));
    session.commit();
    // Not awaited yet: what a run returns with while the disk catches up.
    const closing = session.close();
    expect(fileLines(log.file).map((line) => JSON.parse(line).kind)).toEqual([
      "session_start",
      "call_start",
      "call_end",
      "session_end",
    ]);
    const before = await log.verify();
    expect(before).toMatchObject({ verdict: "intact", records: 4, problemCount: 0 });
    expect(await closing).toBe(true);
    expect(await log.verify()).toEqual(before);
  });
});
