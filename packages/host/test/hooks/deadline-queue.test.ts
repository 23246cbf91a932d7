import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineQueue } from "../../src/hooks/deadline-queue.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("DeadlineQueue", () => {
  it("expires calls that are not settled within the timeout, in order, and only those", () => {
    vi.useFakeTimers();
    const q = new DeadlineQueue(100);
    const expired: string[] = [];
    const a = q.track(() => expired.push("a"));
    vi.advanceTimersByTime(40);
    q.track(() => expired.push("b"));
    const c = q.track(() => expired.push("c"));
    expect(q.settle(a)).toBe(true);
    vi.advanceTimersByTime(70);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(expired).toEqual(["b", "c"]);
    expect(q.settle(c)).toBe(false);
  });

  it("keeps working after the queue empties and fills again", () => {
    vi.useFakeTimers();
    const q = new DeadlineQueue(50);
    const expired: number[] = [];
    for (let i = 0; i < 3; i++) q.settle(q.track(() => expired.push(i)));
    vi.advanceTimersByTime(30);
    q.track(() => expired.push(9));
    vi.advanceTimersByTime(49);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(expired).toEqual([9]);
  });

  it("expires only the unsettled calls among many settled out of order", () => {
    vi.useFakeTimers();
    const q = new DeadlineQueue(100);
    const expired: number[] = [];
    const tracked = Array.from({ length: 10 }, (_, i) => q.track(() => expired.push(i)));
    for (const i of [9, 3, 0, 5, 1, 7]) expect(q.settle(tracked[i] as never)).toBe(true);
    vi.advanceTimersByTime(101);
    expect(expired).toEqual([2, 4, 6, 8]);
    for (const i of [2, 9]) expect(q.settle(tracked[i] as never)).toBe(false);
    q.track(() => expired.push(10));
    vi.advanceTimersByTime(101);
    expect(expired).toEqual([2, 4, 6, 8, 10]);
  });

  it("an idle queue does not keep the process alive; a pending deadline does", () => {
    const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
    const src = join(pkg, "src", "hooks", "deadline-queue.ts");
    const script = (pending: boolean) => `
      const { createJiti } = await import("jiti");
      const { DeadlineQueue } = await createJiti(import.meta.url).import(${JSON.stringify(src)});
      const q = new DeadlineQueue(${pending ? 200 : 600_000});
      const d = q.track(() => console.log("expired"));
      ${pending ? "" : "q.settle(d);"}`;
    const idle = spawnSync(process.execPath, ["--input-type=module", "-e", script(false)], {
      cwd: pkg,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(idle.stderr).toBe("");
    expect(idle.status).toBe(0);
    expect(idle.stdout).toBe("");
    const pending = spawnSync(process.execPath, ["--input-type=module", "-e", script(true)], {
      cwd: pkg,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(pending.stdout.trim()).toBe("expired");
  });
});
