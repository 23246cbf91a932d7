import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ReservedPath } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { compilePolicy, nodePolicyFs, type PolicyFs, protectedPathsConfigSchema } from "../src/index.ts";
import { policyCompiler } from "../src/policy.ts";
import { sharedDenyRule } from "../src/rules/shared-deny-rule.ts";
import { createFixture, read, ruleOf, write } from "./helpers/fixture.ts";

/** The real filesystem, counting every question asked of it. */
function countingFs(): { fs: PolicyFs; calls: () => number } {
  let calls = 0;
  const count =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      calls++;
      return fn(...args);
    };
  const fs: PolicyFs = {
    realpath: count(nodePolicyFs.realpath),
    lstat: count(nodePolicyFs.lstat),
    readlink: count(nodePolicyFs.readlink),
    readdir: count(nodePolicyFs.readdir),
  };
  return { fs, calls: () => calls };
}

describe("a policy recompiled for new reserved paths (what the extension does while extensions load)", () => {
  it("decides like a policy compiled from scratch with the same reserved paths", () => {
    const fx = createFixture();
    const log = fx.file("audit/run.log");
    const key = fx.file("audit/run.key");
    const reserved: ReservedPath[] = [
      { path: log, hide: false, why: "it is the log", by: "tool-audit" },
      { path: key, hide: true, why: "it is the key", by: "tool-audit" },
    ];
    const config = protectedPathsConfigSchema.parse({});
    const options = { cwd: fx.ws, home: fx.home };
    const compile = policyCompiler(config, options);
    const before = compile([]);
    expect(ruleOf(before.check(write("audit/run.log")))).toBe("allow");
    expect(ruleOf(before.check(read("audit/run.key")))).toBe("allow");
    const after = compile(reserved);
    const fresh = compilePolicy(config, { ...options, reserved });
    const effects = [
      write("audit/run.log"),
      read("audit/run.log"),
      write("audit/run.key"),
      read("audit/run.key"),
      read(".env"),
      write(".git/hooks/pre-commit"),
      write("src/app.ts"),
      read(path.join(fx.outside, "x")),
    ];
    for (const effect of effects) expect(after.check(effect)).toEqual(fresh.check(effect));
    expect(ruleOf(after.check(write("audit/run.log")))).toBe(`reserved by tool-audit ${log}`);
    expect(ruleOf(after.check(read("audit/run.log")))).toBe("allow");
    expect(ruleOf(after.check(read("audit/run.key")))).toBe(`reserved by tool-audit ${key}`);
    // The first policy is not changed by the later compile.
    expect(ruleOf(before.check(write("audit/run.log")))).toBe("allow");
  });

  it("keeps the rules' link aliases, in the same order, when recompiled for a new reserved path", () => {
    const fx = createFixture();
    // ~/.aws is a link into a dotfiles folder outside the home: its rule is re-anchored there.
    const dotfiles = path.join(fx.outside, "dotfiles-aws");
    mkdirSync(dotfiles, { recursive: true });
    writeFileSync(path.join(dotfiles, "credentials"), "secret");
    symlinkSync(dotfiles, path.join(fx.home, ".aws"));
    const config = protectedPathsConfigSchema.parse({});
    const options = { cwd: fx.ws, home: fx.home };
    const compile = policyCompiler(config, options);
    const through = read(path.join(dotfiles, "credentials"));
    expect(ruleOf(compile([]).check(through))).toBe("default denyRead ~/.aws/**");
    const reserved: ReservedPath[] = [
      { path: fx.file("audit/run.log"), hide: true, why: "it is the log", by: "tool-audit" },
    ];
    const after = compile(reserved);
    const fresh = compilePolicy(config, { ...options, reserved });
    expect(after.check(through)).toEqual(fresh.check(through));
    expect(ruleOf(after.check(through))).toBe("default denyRead ~/.aws/**");
    expect(ruleOf(after.check(read("audit/run.log")))).toBe(`reserved by tool-audit ${fx.file("audit/run.log")}`);
    expect(after.settings).toEqual(fresh.settings);
  });

  it("consults the filesystem for roots, case folding and links once, at the first compile", () => {
    const fx = createFixture();
    const { fs, calls } = countingFs();
    const config = protectedPathsConfigSchema.parse({ caseInsensitive: "auto" });
    const compile = policyCompiler(config, { cwd: fx.ws, home: fx.home, fs });
    expect(calls()).toBeGreaterThan(0);
    compile([]);
    const first = calls();
    compile([{ path: fx.file("x.log"), hide: true, why: "w", by: "e" }]);
    compile([]);
    expect(calls()).toBe(first);
  });
});

describe("deny rules shared across policies", () => {
  const options = { pattern: ".env", label: "default denyRead .env", why: "secrets", folding: false, home: "/h" };

  it("gives every policy the same frozen rule for the same options, another for any difference", () => {
    const rule = sharedDenyRule(options);
    expect(Object.isFrozen(rule)).toBe(true);
    expect(sharedDenyRule({ ...options })).toBe(rule);
    for (const change of [{ folding: true }, { home: "/other" }, { label: "x" }, { why: "y" }, { pattern: ".env2" }]) {
      const other = sharedDenyRule({ ...options, ...change });
      expect(other).not.toBe(rule);
    }
    expect(sharedDenyRule({ ...options, label: "x" }).label).toBe("x");
  });

  it("matches the same way whether it was compiled for this policy or an earlier one", () => {
    const a = createFixture();
    const b = createFixture();
    expect(ruleOf(a.policy().check(read(".env")))).toBe("default denyRead .env");
    expect(ruleOf(b.policy().check(read(".env")))).toBe("default denyRead .env");
    expect(ruleOf(b.policy().check(read("src/app.ts")))).toBe("allow");
    expect(ruleOf(a.policy({ caseInsensitive: true }).check(read(".ENV")))).toBe("default denyRead .env");
    expect(ruleOf(a.policy({ caseInsensitive: false }).check(read(".ENV")))).toBe("allow");
  });

  it("still refuses a pattern that is too long, every time", () => {
    const long = { ...options, pattern: "a".repeat(100_000) };
    expect(() => sharedDenyRule(long)).toThrow(/too long/);
    expect(() => sharedDenyRule(long)).toThrow(/too long/);
  });
});
