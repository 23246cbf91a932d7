import { existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestHost, toolCall, turn } from "@gatehouse/testing";
import { auditLocation, readAuditKey, verifyAuditFile } from "@gatehouse/tool-audit/readers";
import { afterEach, describe, expect, it } from "vitest";

/** How many of this process's descriptors are open on `file` (Linux: /proc/self/fd). */
function openDescriptors(file: string): number {
  const real = realpathSync(file);
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === real) count++;
    } catch {
      // the descriptor readdir itself used is gone by now
    }
  }
  return count;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const settings = (fsync: "batch" | "every") => ({
  extensions: ["@gatehouse/tool-audit"],
  config: { "tool-audit": { fsync } },
});

describe("tool-audit across reloads", () => {
  it("four reloads mid-run leave no descriptor on the audit file after host.close(), and the log verifies intact and sealed", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "audit-reload-"));
    const home = mkdtempSync(join(tmpdir(), "audit-reload-home-"));
    dirs.push(cwd, home);
    let reloads = 0;
    const t = await createTestHost({
      cwd,
      home,
      settings: settings("batch"),
      turns: [
        ...[1, 2, 3, 4, 5].map((n) =>
          turn(toolCall(`W${n}`, "write", { path: `notes/${n}.txt`, content: `note ${n}` })),
        ),
        turn("done"),
      ],
      onEvent: (event, th) => {
        // Each turn's end changes the audit's settings; the reload lands at the next turn boundary.
        if (event.type !== "turn_end" || reloads === 4) return;
        reloads++;
        th.write({ ".gatehouse/settings.json": JSON.stringify(settings(reloads % 2 === 1 ? "every" : "batch")) });
        void th.host.reload();
      },
    });
    await t.run();
    expect(t.eventsOf("extensions_reloaded").map((e) => e.loaded)).toEqual([
      ["tool-audit"],
      ["tool-audit"],
      ["tool-audit"],
      ["tool-audit"],
    ]);
    for (const n of [1, 2, 3, 4, 5]) t.expectExecuted(`W${n}`);
    const location = auditLocation({ home, cwd });
    await t.close();

    // Linux lists a process's descriptors in /proc (CI runs there); elsewhere only the log is checked.
    if (existsSync("/proc/self/fd")) expect(openDescriptors(location.file)).toBe(0);
    const key = readAuditKey(location.keyFile);
    const report = await verifyAuditFile(location.file, { key, sealDir: location.sealDir });
    expect(report.summary).toContain("INTACT");
    expect(report).toMatchObject({ verdict: "intact", status: "ok", authenticated: true });
    // One session per loaded version: the first, then one opened mid-run by each reloaded version.
    expect(report.sessions).toHaveLength(5);
    expect(report.sessions.map((s) => [s.ended, s.sealed === s.records])).toEqual(Array(5).fill([true, true]));
  });
});
