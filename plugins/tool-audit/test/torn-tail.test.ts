import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { endsTorn } from "../src/torn-tail.ts";
import { tempDir } from "./helpers.ts";

describe("endsTorn", () => {
  it("is true only for a regular file whose last byte is not a newline", () => {
    const dir = tempDir();
    const torn = join(dir, "torn.jsonl");
    const whole = join(dir, "whole.jsonl");
    const empty = join(dir, "empty.jsonl");
    writeFileSync(torn, '{"a":1}\n{"b":');
    writeFileSync(whole, '{"a":1}\n');
    writeFileSync(empty, "");
    expect(endsTorn(torn)).toBe(true);
    expect(endsTorn(whole)).toBe(false);
    expect(endsTorn(empty)).toBe(false);
    expect(endsTorn(join(dir, "missing.jsonl"))).toBe(false);
    expect(endsTorn(dir)).toBe(false);
  });

  it("never waits on a FIFO and never follows a link: what it opened is what it checks", () => {
    const dir = tempDir();
    const fifo = join(dir, "audit.jsonl");
    execFileSync("mkfifo", [fifo]);
    // Opened for reading without O_NONBLOCK, a FIFO with no writer blocks this thread for ever.
    expect(endsTorn(fifo)).toBe(false);
    const torn = join(dir, "torn.jsonl");
    writeFileSync(torn, '{"b":');
    const link = join(dir, "link.jsonl");
    symlinkSync(torn, link);
    expect(endsTorn(link)).toBe(false);
  });
});
