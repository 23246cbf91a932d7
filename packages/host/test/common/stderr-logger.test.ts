import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stderrLogger } from "../../src/common/stderr-logger.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Captures what is written to fd 2 (pino's synchronous destination writes with fs.writeSync). */
function captureStderr(): () => Record<string, unknown>[] {
  const lines: string[] = [];
  const original = fs.writeSync;
  vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd !== 2) return (original as (...args: unknown[]) => number)(fd, data, ...rest);
    lines.push(String(data));
    return Buffer.byteLength(String(data));
  }) as typeof fs.writeSync);
  return () =>
    lines
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("stderrLogger (pino, created at its first use)", () => {
  it("writes JSON lines to stderr at its level, with a child's bindings", () => {
    const lines = captureStderr();
    const logger = stderrLogger({ level: "info" });
    const child = logger.child({ extension: "demo" });
    child.debug({ n: 0 }, "below the level");
    child.info({ n: 1 }, "hello");
    logger.warn("parent");
    expect(lines().map(({ level, msg, extension, n }) => ({ level, msg, extension, n }))).toEqual([
      { level: 30, msg: "hello", extension: "demo", n: 1 },
      { level: 40, msg: "parent", extension: undefined, n: undefined },
    ]);
  });

  it("is pino underneath: its level can be read and changed", () => {
    const lines = captureStderr();
    const logger = stderrLogger({ level: "warn" });
    expect(logger.level).toBe("warn");
    expect(logger.isLevelEnabled("info")).toBe(false);
    logger.level = "debug";
    logger.debug("now visible");
    expect(lines().map((l) => l.msg)).toEqual(["now visible"]);
  });

  it("a level pino does not know throws at once, not at the first log line", () => {
    expect(() => stderrLogger({ level: "loud" })).toThrow(/loud/);
  });
});
