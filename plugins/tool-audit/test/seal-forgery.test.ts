import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bucketName } from "../src/seal-buckets.ts";
import { sealFile } from "../src/seal-store.ts";
import { fileLines, type TestLog, testLog, writeLines, writeSession } from "./helpers.ts";

// Someone who can write the seal folder but has no key can append or overwrite seal lines with a
// made-up MAC. The writer must not decide anything from such a line (which sessions had finished),
// and verify must name every one of them instead of passing over it.

/** A seal line as a writer without the key makes it: well-formed, any MAC. */
function forgedSeal(base: Record<string, unknown>, change: Record<string, unknown>): string {
  const { mac: _mac, ...fields } = { ...base, ...change };
  return `${JSON.stringify(fields).slice(0, -1)},"mac":"${"b".repeat(64)}"}`;
}

/** The newest seal line of seal file `n`, parsed. */
function sealOf(log: TestLog, n: number): Record<string, unknown> {
  const lines = readFileSync(sealFile(log.sealDir, n), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return lines.sort((a, b) => Number(b.gen) - Number(a.gen))[0] ?? {};
}

const startOf = (log: TestLog, session: string) =>
  fileLines(log.file)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((r) => r.session === session && r.kind === "session_start");

describe("seal lines that do not verify", () => {
  it("a forged line appended to a closed session's seal (gen 999, not closed, pid 1) changes nothing the writer decides, and verify names it", async () => {
    const log = testLog();
    await writeSession(log, { calls: 1 });
    const forged = forgedSeal(sealOf(log, 1), { gen: 999, closed: false, pid: 1, host: hostname() });
    appendFileSync(sealFile(log.sealDir, 1), `${forged}\n`);
    const second = await writeSession(log, { calls: 1 });
    // Session #1 had closed: the forged line does not make the writer think it still runs.
    expect(startOf(log, second)).toMatchObject({ ordinal: 2, settled: 1 });

    // The sessions moved out of order: reported as such (settled says #1 had finished)...
    const lines = fileLines(log.file);
    writeLines(log.file, [...lines.slice(4), ...lines.slice(0, 4)]);
    const moved = await log.verify();
    expect(moved.verdict).toBe("reordered");
    // ...and the forged line is a finding of its own, naming the seal and its line.
    const messages = moved.problems.map((p) => p.message).join("\n");
    expect(messages).toMatch(/00000001\.seal:3 does not verify with the key: a forged seal line/);
    writeLines(log.file, lines);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem).toMatchObject({ kind: "seal_invalid" });
  });

  it("a forged line written over the older slot is tampering, though the newer slot still verifies", async () => {
    const log = testLog();
    await writeSession(log, { calls: 2 });
    const file = sealFile(log.sealDir, 1);
    const slots = readFileSync(file, "utf8").split("\n");
    const gens = slots.slice(0, 2).map((line) => Number(/"gen":(\d+)/.exec(line)?.[1] ?? -1));
    const older = gens[0]! < gens[1]! ? 0 : 1;
    const forged = forgedSeal(sealOf(log, 1), { gen: gens[older], closed: false, count: 1 });
    slots[older] = forged.padEnd(slots[older]!.length, " ");
    writeFileSync(file, slots.join("\n"));
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problem?.message).toMatch(new RegExp(`00000001\\.seal:${older + 1} does not verify with the key`));
  });

  it("a slot torn by a power loss mid-write (not JSON) is passed over: the other slot counts, the log is intact", async () => {
    const log = testLog();
    await writeSession(log, { calls: 2 });
    const file = sealFile(log.sealDir, 1);
    const slots = readFileSync(file, "utf8").split("\n");
    const gens = slots.slice(0, 2).map((line) => Number(/"gen":(\d+)/.exec(line)?.[1] ?? -1));
    const older = gens[0]! < gens[1]! ? 0 : 1;
    // Half of a new line over the older slot, the rest of the old one after it.
    const torn = slots[older]!.slice(0, 40).replace(/"gen":\d+/, '"gen":9') + "\u0000".repeat(8);
    slots[older] = torn.padEnd(slots[older]!.length, " ");
    writeFileSync(file, slots.join("\n"));
    const report = await log.verify();
    expect(report.verdict).toBe("intact");
    // Beyond the two slots the same bytes are no tear: a writer never puts a line there.
    writeFileSync(file, `${slots.join("\n")}\n${torn}\n`);
    expect((await log.verify()).verdict).toBe("tampered");
  });

  it("an authentic seal line of another session copied beyond the two slots is reported too", async () => {
    const log = testLog();
    await writeSession(log, { calls: 1 });
    await writeSession(log, { calls: 1 });
    const other = readFileSync(sealFile(log.sealDir, 2), "utf8").split("\n")[0]!.trim();
    appendFileSync(sealFile(log.sealDir, 1), `${other}\n`);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(
      /00000001\.seal:3 is a seal line a writer never puts there/,
    );
  });

  it("a seal file holding a forged line is never folded into a bucket (the evidence stays), and a forged bucket line is reported", async () => {
    const log = testLog();
    for (let i = 0; i < 3; i++) await writeSession(log, { calls: 1, sealsPerBucket: 2 });
    // Sessions 1–2 were folded when #3 started.
    expect(readdirSync(log.sealDir)).toContain(bucketName(1, 2));
    const bucket = join(log.sealDir, bucketName(1, 2));
    const first = JSON.parse(fileLines(bucket)[0]!) as Record<string, unknown>;
    appendFileSync(bucket, `${forgedSeal(first, { gen: 999, count: 0 })}\n`);
    const report = await log.verify();
    expect(report.verdict).toBe("tampered");
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(/\.seals:3 does not verify with the key/);

    // A forged line in seal #3 (closed): the fold by session #5 leaves seal #3's file where it is.
    appendFileSync(sealFile(log.sealDir, 3), `${forgedSeal(sealOf(log, 3), { gen: 999 })}\n`);
    for (let i = 0; i < 2; i++) await writeSession(log, { calls: 1, sealsPerBucket: 2 });
    const names = readdirSync(log.sealDir);
    expect(names).toContain(bucketName(3, 4));
    expect(names).toContain("00000003.seal");
    expect(names).not.toContain("00000004.seal");
    expect((await log.verify()).problems.map((p) => p.message).join("\n")).toMatch(
      /00000003\.seal:3 does not verify with the key/,
    );
  });
});
