import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createTestHost, toolCall, turn } from "@gatehouse/testing";
import toolAudit from "@gatehouse/tool-audit";
import { auditLocation, readAuditKey } from "@gatehouse/tool-audit/readers";
import { describe, expect, it } from "vitest";
import { parseSeal } from "../src/seal.ts";

describe("shipping records and seals through a pino transport", () => {
  it("every record written to the audit log, and every seal, also reach the configured transport", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-ship-"));
    const home = await mkdtemp(join(tmpdir(), "audit-home-"));
    const shipped = join(cwd, "shipped.jsonl");
    const host = await createTestHost({
      cwd,
      home,
      turns: [turn(toolCall("A", "write", { path: "a.txt", content: "secret" })), turn("done")],
      extensions: [toolAudit],
      // pino's built-in file transport stands in for a network store (pino-socket, pino-elasticsearch…).
      config: { "tool-audit": { ship: { target: "pino/file", options: { destination: shipped } } } },
    });
    await host.run("go");
    await host.close();
    const location = auditLocation({ home, cwd });
    const audit = readFileSync(location.file, "utf8");
    const records = audit.split("\n").filter(Boolean);
    expect(records.length).toBeGreaterThanOrEqual(4);
    const lines = readFileSync(shipped, "utf8").split("\n").filter(Boolean);
    const isSeal = (line: string) => line.includes('"kind":"seal"');
    expect(lines.filter((l) => !isSeal(l))).toEqual(records);
    const key = readAuditKey(location.keyFile)?.seals;
    const seals = lines.filter(isSeal).map((l) => parseSeal(l, key));
    expect(seals.length).toBeGreaterThanOrEqual(2);
    expect(seals.every((s) => s.ok && s.authentic)).toBe(true);
    // The last seal shipped vouches for the whole session, closed, and comes after its last record.
    expect(seals.at(-1)).toMatchObject({ seal: { count: records.length, closed: true } });
    expect(isSeal(lines.at(-1) ?? "")).toBe(true);
    expect(audit).not.toContain("secret");
  });

  it("a transport that cannot start is reported and the audit log is still written", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-ship-"));
    const home = await mkdtemp(join(tmpdir(), "audit-home-"));
    const host = await createTestHost({
      cwd,
      home,
      turns: [turn("hi")],
      extensions: [toolAudit],
      config: { "tool-audit": { ship: { target: "no-such-transport-package" } } },
    });
    const result = await host.run("go");
    await host.close();
    expect(result.stoppedBy).toBeUndefined();
    expect(readFileSync(auditLocation({ home, cwd }).file, "utf8")).toContain('"kind":"session_end"');
  });
});

describe("ship targets are code: never the project's own files", () => {
  it("a target inside the project is a load error, and the file never runs", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-ship-"));
    const home = await mkdtemp(join(tmpdir(), "audit-home-"));
    const marker = join(cwd, "PWNED");
    const evil = join(cwd, "evil.mjs");
    writeFileSync(
      evil,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default () => { throw new Error("no"); };\n`,
    );
    for (const target of [evil, pathToFileURL(evil).href]) {
      await expect(
        createTestHost({
          cwd,
          home,
          turns: [turn("hi")],
          extensions: [toolAudit],
          config: { "tool-audit": { ship: { target } } },
        }),
      ).rejects.toThrow(/ship\.target .* inside the project/);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("where the audit writes is not the repository's choice", () => {
  it("config.tool-audit.ship in the project's settings stops the run naming the file; nothing is written", async () => {
    const key = "ship";
    const value = (dir: string) => ({ target: "pino/file", options: { destination: join(dir, ".bashrc") } });
    const cwd = await mkdtemp(join(tmpdir(), "audit-user-only-"));
    const home = await mkdtemp(join(tmpdir(), "audit-home-"));
    const outside = await mkdtemp(join(tmpdir(), "audit-user-home-"));
    writeFileSync(join(outside, ".bashrc"), "echo hi\n");
    const error = await createTestHost({
      cwd,
      home,
      turns: [turn(toolCall("A", "read", { path: "$(touch pwned)" })), turn("done")],
      settings: { extensions: ["@gatehouse/tool-audit"], config: { "tool-audit": { [key]: value(outside) } } },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      new RegExp(
        `settings\\.json:\\d+:\\d+: config\\["tool-audit"\\]\\.${key}: may only be set in user or managed settings`,
      ),
    );
    expect(readFileSync(join(outside, ".bashrc"), "utf8")).toBe("echo hi\n");
  });

  it("a log file that does not end in .jsonl is refused (a shell start-up file would run the model's paths)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-jsonl-"));
    const outside = await mkdtemp(join(tmpdir(), "audit-user-home-"));
    writeFileSync(join(outside, ".bashrc"), "echo hi\n");
    const error = await createTestHost({
      cwd,
      turns: [turn(toolCall("A", "read", { path: "$(touch pwned)" })), turn("done")],
      settings: { extensions: ["@gatehouse/tool-audit"], config: { "tool-audit": { file: join(outside, ".bashrc") } } },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(`config.tool-audit.file ${join(outside, ".bashrc")} does not end in .jsonl`);
    expect(readFileSync(join(outside, ".bashrc"), "utf8")).toBe("echo hi\n");
  });
});
