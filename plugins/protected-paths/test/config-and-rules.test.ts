import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ToolEffect } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { checkCall, createPolicy, protectedPathsConfigSchema } from "../src/index.ts";
import { createFixture, exec, read, reasonOf, ruleOf, write } from "./helpers/fixture.ts";

describe("defaults", () => {
  it.each([
    ".envrc",
    "docs/env.md",
    "playground/x.txt",
    "env",
    ".environment",
    ".env-example",
    "dotenv.ts",
    "src/app.ts",
    "gitignore.md",
    ".github/workflows/ci.yml",
    ".gitignore",
    "my_node_modules/x",
  ])("%s stays writable", (p) => {
    expect(ruleOf(createFixture().policy().check(write(p)))).toBe("allow");
  });

  it.each([
    ["packages/a/.env", "default denyWrite .env"],
    [".env.production", "default denyWrite .env.*"],
    ["apps/web/.env.local", "default denyWrite .env.*"],
    ["a/b/.git/HEAD", "default denyWrite .git/**"],
    ["vendor/node_modules", "default denyWrite node_modules/**"],
    ["x/node_modules/y/z.js", "default denyWrite node_modules/**"],
    ["sub/.gatehouse/settings.json", "default denyWrite .gatehouse/**"],
  ])("%s is protected at any depth (%s)", (p, rule) => {
    expect(ruleOf(createFixture().policy().check(write(p)))).toBe(rule);
  });

  it("reads are not restricted by the default write denies", () => {
    const policy = createFixture().policy();
    for (const p of [".env", ".git/config", "node_modules/pkg/index.js"])
      expect(ruleOf(policy.check(read(p)))).toBe("allow");
  });

  it("a project that itself lives below a node_modules directory is not denied wholesale", () => {
    const f = createFixture();
    const ws = path.join(f.base, "node_modules/pkg");
    mkdirSync(ws, { recursive: true });
    const policy = createPolicy({}, { cwd: ws, home: f.home });
    expect(ruleOf(policy.check(write("src/index.ts")))).toBe("allow");
    expect(ruleOf(policy.check(write("node_modules/dep/x.js")))).toBe("default denyWrite node_modules/**");
  });
});

describe("configured denies", () => {
  it("denyWrite adds to the defaults: bare names and dir/** match at any depth, and the directory itself", () => {
    const policy = createFixture().policy({ denyWrite: ["secrets/**", "*.pem"] });
    expect(ruleOf(policy.check(write("secrets/api.key")))).toBe("config denyWrite secrets/**");
    expect(ruleOf(policy.check(write("apps/secrets/api.key")))).toBe("config denyWrite secrets/**");
    expect(ruleOf(policy.check(write("secrets")))).toBe("config denyWrite secrets/**");
    expect(ruleOf(policy.check(write("certs/server.pem")))).toBe("config denyWrite *.pem");
    expect(ruleOf(policy.check(write(".env")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write("secretsx/a")))).toBe("allow");
    expect(ruleOf(policy.check(read("secrets/api.key")))).toBe("allow");
    expect(reasonOf(policy.check(write("secrets/api.key")))).toBe(
      'Write to "secrets/api.key" refused: the project\'s policy denies writes to "secrets/**" (config denyWrite secrets/**).',
    );
  });

  it("denyRead refuses reads of matching paths", () => {
    const f = createFixture();
    const policy = f.policy({ denyRead: ["*.pem", "~/.ssh/**"] });
    expect(ruleOf(policy.check(read("certs/server.pem")))).toBe("config denyRead *.pem");
    expect(ruleOf(policy.check(read(path.join(f.home, ".ssh/id_ed25519"))))).toBe("config denyRead ~/.ssh/**");
    expect(ruleOf(policy.check(read("~/.ssh/id_ed25519")))).toBe("config denyRead ~/.ssh/**");
    expect(ruleOf(policy.check(read("src/app.ts")))).toBe("allow");
  });

  it("./ anchors a pattern at the workspace root; / makes it absolute", () => {
    const policy = createFixture().policy({
      denyWrite: ["./build/**", "/etc/**"],
      allowOutsideWorkspace: { write: true },
    });
    expect(ruleOf(policy.check(write("build/out.js")))).toBe("config denyWrite ./build/**");
    expect(ruleOf(policy.check(write("src/build/out.js")))).toBe("allow");
    expect(ruleOf(policy.check(write("/etc/hosts")))).toBe("config denyWrite /etc/**");
  });

  it("default denies apply outside the workspace too, even when outside writes are allowed", () => {
    const f = createFixture();
    const policy = f.policy({ allowOutsideWorkspace: { write: true } });
    expect(ruleOf(policy.check(write(path.join(f.outside, "new.txt"))))).toBe("allow");
    expect(ruleOf(policy.check(write(path.join(f.outside, ".env"))))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write("~/.gatehouse/extensions/evil.ts")))).toBe("default denyWrite .gatehouse/**");
  });
});

describe("allowOutsideWorkspace", () => {
  it("by default reads outside are allowed and writes refused", () => {
    const f = createFixture();
    const policy = f.policy();
    const outsideFile = path.join(f.outside, "notes.txt");
    expect(ruleOf(policy.check(read(outsideFile)))).toBe("allow");
    const decision = policy.check(write(outsideFile));
    expect(ruleOf(decision)).toBe("outside workspace");
    expect(reasonOf(decision)).toBe(
      `Write to "${outsideFile}" refused: it is outside the workspace (${f.ws}); write inside the workspace instead (outside workspace).`,
    );
  });

  it("read: false refuses reads outside; write: true allows writes outside", () => {
    const f = createFixture();
    const outsideFile = path.join(f.outside, "notes.txt");
    const strict = f.policy({ allowOutsideWorkspace: { read: false } });
    expect(ruleOf(strict.check(read(outsideFile)))).toBe("outside workspace");
    expect(ruleOf(strict.check(write(outsideFile)))).toBe("outside workspace");
    const loose = f.policy({ allowOutsideWorkspace: { write: true } });
    expect(ruleOf(loose.check(write(outsideFile)))).toBe("allow");
  });
});

describe("multiple workspace roots", () => {
  it("every root is inside; relative roots resolve against the project directory", () => {
    const f = createFixture();
    const policy = f.policy({ workspace: [".", "../outside"] });
    expect(policy.settings.workspace.map((r) => r.real)).toEqual([f.ws, f.outside]);
    expect(ruleOf(policy.check(write(path.join(f.outside, "new.txt"))))).toBe("allow");
    expect(ruleOf(policy.check(write("../outside/.env")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write(path.join(f.evil, "x"))))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("src/a.ts")))).toBe("allow");
  });

  it("a workspace that does not include the project directory makes the project outside", () => {
    const f = createFixture();
    const policy = f.policy({ workspace: [f.outside] });
    expect(ruleOf(policy.check(write("src/a.ts")))).toBe("outside workspace");
  });
});

describe("configuration", () => {
  it("every field is optional, with documented defaults", () => {
    expect(protectedPathsConfigSchema.parse({})).toEqual({
      denyWrite: [],
      denyRead: [],
      allowOutsideWorkspace: { read: true, write: false },
      caseInsensitive: "auto",
      bash: "analyze",
      undeclaredEffects: "allow",
    });
  });

  it("unknown fields (typos) and bad values are rejected", () => {
    expect(protectedPathsConfigSchema.safeParse({ denyWrites: ["x"] }).success).toBe(false);
    expect(protectedPathsConfigSchema.safeParse({ allowOutsideWorkspace: { writes: true } }).success).toBe(false);
    expect(protectedPathsConfigSchema.safeParse({ bash: "maybe" }).success).toBe(false);
    expect(protectedPathsConfigSchema.safeParse({ denyWrite: [""] }).success).toBe(false);
    expect(protectedPathsConfigSchema.safeParse({ denyRead: ["a\u0000b"] }).success).toBe(false);
    expect(protectedPathsConfigSchema.safeParse({ workspace: [] }).success).toBe(false);
  });
});

describe("effects and whole calls", () => {
  it("net effects are out of scope and allowed; unknown kinds are refused", () => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check({ kind: "net", url: "https://example.com" }))).toBe("allow");
    expect(ruleOf(policy.check({ kind: "teleport" } as unknown as ToolEffect))).toBe("unknown effect");
  });

  it("checkCall returns the first refusal over all effects", () => {
    const policy = createFixture().policy();
    const decision = checkCall([read("src/app.ts"), write("src/ok.ts"), write(".env"), write(".git/config")], policy);
    expect(ruleOf(decision)).toBe("default denyWrite .env");
    const ok = checkCall([read("src/app.ts"), write("src/ok.ts"), exec("ls")], policy);
    expect(ok.allow).toBe(true);
    expect(ok.spellings.map((s) => s.form)).toContain("real");
  });

  it("tools without effects are allowed by default and refused with undeclaredEffects: deny", () => {
    const f = createFixture();
    expect(checkCall(undefined, f.policy(), { toolName: "custom" }).allow).toBe(true);
    const decision = checkCall(undefined, f.policy({ undeclaredEffects: "deny" }), { toolName: "custom" });
    expect(reasonOf(decision)).toBe(
      'Call to tool "custom" refused: it declares no effects, so the paths it touches cannot be checked; declare effects on the tool (undeclared effects).',
    );
    expect(ruleOf(checkCall("nope" as never, f.policy()))).toBe("malformed effects");
  });

  it("a decision lists the spellings it checked: as given, absolute and real", () => {
    const f = createFixture();
    const decision = f.policy().check(write("src/../src/app.ts"));
    expect(decision.spellings).toEqual(
      expect.arrayContaining([
        { form: "given", path: "src/../src/app.ts" },
        { form: "absolute", path: path.join(f.ws, "src/app.ts") },
      ]),
    );
  });
});
