import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { matchView } from "../src/check/match-view.ts";
import type { PolicyContext } from "../src/check/policy-context.ts";
import { nodePolicyFs } from "../src/paths/policy-fs.ts";
import { resolveRoots } from "../src/paths/workspace.ts";
import { compilePolicyRules } from "../src/rules/policy-rules.ts";
import { createSandboxPlanner } from "../src/sandbox/sandbox-planner.ts";
import { DenyIndex } from "../src/scan/deny-index.ts";
import { decodeName, encodePath } from "../src/scan/raw-fs.ts";
import { createFixture } from "./helpers/fixture.ts";

/** A policy context for the fixture's workspace, as `compilePolicy` makes it. */
function contextOf(f: ReturnType<typeof createFixture>): PolicyContext {
  const roots = resolveRoots([f.ws], { cwd: f.ws, home: f.home, fs: nodePolicyFs });
  const rules = compilePolicyRules({ denyWrite: [], denyRead: [], folding: false, home: f.home });
  return {
    cwd: f.ws,
    home: f.home,
    fs: nodePolicyFs,
    roots,
    anchors: roots,
    folding: false,
    rules,
    allowOutside: { read: true, write: false },
  };
}

/** An index whose refresh throws while `failing` is set: a review that cannot complete. */
class FailingIndex extends DenyIndex {
  failing = false;
  override refresh(): void {
    if (this.failing) throw new Error("EIO: the disk went away");
    super.refresh();
  }
}

/** A planner whose index (and fresh indexes) fail while `fail.now` is set. */
function plannerOf(f: ReturnType<typeof createFixture>, fail: { now: boolean; fresh: boolean }) {
  const ctx = contextOf(f);
  const make = () => {
    const index = new FailingIndex({
      roots: ctx.roots.map((r) => r.real),
      rules: ctx.rules,
      view: (p) => matchView(ctx, p),
      folding: false,
    });
    Object.defineProperty(index, "failing", { get: () => fail.now });
    return index;
  };
  const cached = make();
  const fresh = () => {
    const index = make();
    Object.defineProperty(index, "failing", { get: () => fail.now && fail.fresh });
    return index;
  };
  return createSandboxPlanner({ ctx, index: () => cached, network: false, freshIndex: fresh });
}

describe("names as bytes", () => {
  it("decodeName and encodePath give back every byte string (valid UTF-8 stays text)", () => {
    const samples = [
      Buffer.from("plain.txt"),
      Buffer.from("héllo"),
      Buffer.from([0x77, 0xff]),
      Buffer.from([0xc0, 0xaf, 0x2e, 0x65, 0x6e, 0x76]),
      Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate: not valid UTF-8
      Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0x80]),
    ];
    for (let seed = 1; seed < 300; seed += 1) {
      samples.push(Buffer.from(Array.from({ length: 1 + (seed % 9) }, (_, i) => (seed * 37 + i * 101) % 256)));
    }
    for (const bytes of samples) {
      const text = decodeName(bytes);
      const back = encodePath(text);
      expect(Buffer.from(back).equals(bytes), bytes.toString("hex")).toBe(true);
    }
    expect(decodeName(Buffer.from("héllo"))).toBe("héllo");
    expect(decodeName(Buffer.from([0x77, 0xff]))).toBe("w\udcff");
  });
});

describe("a review that cannot complete fails closed", () => {
  it("an index that fails is replaced by one that reads the tree afresh: the review completes", async () => {
    const f = createFixture();
    const quarantine = path.join(f.base, "q");
    const fail = { now: false, fresh: false };
    const plan = await plannerOf(f, fail)
      .profile({ quarantineDir: () => quarantine })
      .prepare();
    f.file("deep/er/.envrc", "echo PWNED");
    fail.now = true;
    const violations = await plan.review?.();
    expect(violations?.map((v) => v.path)).toEqual([path.join(f.ws, "deep/er/.envrc")]);
    expect(existsSync(path.join(f.ws, "deep/er/.envrc"))).toBe(false);
    expect(existsSync(path.join(quarantine, "unreviewed"))).toBe(false);
  });

  it("takes out what the run created at the rules' fixed places, and the next process reviews the rest before it runs anything", async () => {
    const f = createFixture();
    const quarantine = path.join(f.base, "q");
    const fail = { now: false, fresh: true };
    const plan = await plannerOf(f, fail)
      .profile({ quarantineDir: () => quarantine })
      .prepare();
    // What the command did: protected files at the top and deeper down.
    f.file(".envrc.local", "echo PWNED");
    f.file(".claude/settings.local.json", "{}");
    f.file("deep/er/.envrc", "echo PWNED");
    fail.now = true;
    const violations = await plan.review?.();
    expect(existsSync(path.join(f.ws, ".envrc.local"))).toBe(false);
    expect(existsSync(path.join(f.ws, ".claude/settings.local.json"))).toBe(false);
    expect(existsSync(path.join(f.ws, "deep/er/.envrc"))).toBe(true); // unseen: no walk completed
    const failed = violations?.find((v) => v.rule === "sandbox review failed");
    expect(failed?.reason).toContain("EIO: the disk went away");
    expect(readdirSync(path.join(quarantine, "unreviewed"))).toHaveLength(1);
    // The next process (another planner, its indexes work) reviews that run before it plans.
    const next = await plannerOf(f, { now: false, fresh: false })
      .profile({ quarantineDir: () => quarantine })
      .prepare();
    expect(existsSync(path.join(f.ws, "deep/er/.envrc"))).toBe(false);
    expect(existsSync(path.join(f.ws, ".envrc"))).toBe(true); // there before the run: left alone
    // What that review took out is reported with the next run's review.
    const reported = await next.review?.();
    expect(reported?.map((v) => v.path)).toContain(path.join(f.ws, "deep/er/.envrc"));
    // The failed run's record is gone, and so is the next run's own (it is recorded only while in flight).
    expect(existsSync(path.join(quarantine, "unreviewed"))).toBe(false);
  });

  it("no sandbox starts while the review of an earlier run still cannot complete", async () => {
    const f = createFixture();
    const quarantine = path.join(f.base, "q");
    const fail = { now: false, fresh: true };
    const planner = plannerOf(f, fail);
    const plan = await planner.profile({ quarantineDir: () => quarantine }).prepare();
    fail.now = true;
    await plan.review?.();
    // A file in the folder that is no marker is left alone.
    writeFileSync(path.join(quarantine, "unreviewed", "junk.json"), "{");
    expect(() => planner.profile({ quarantineDir: () => quarantine }).prepare()).toThrow(
      /an earlier command's changes could not be checked \(EIO: the disk went away.*remove what it created and the record .*unreviewed/,
    );
    fail.now = false;
    const again = await planner.profile({ quarantineDir: () => quarantine }).prepare();
    expect(again.layout.writable).toEqual([f.ws]);
    await again.review?.();
    expect(readdirSync(path.join(quarantine, "unreviewed"))).toEqual(["junk.json"]);
  });
});
