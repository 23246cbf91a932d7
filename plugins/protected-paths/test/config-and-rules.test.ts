import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ToolEffect } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { checkCall, createPolicy, protectedPathsConfigSchema } from "../src/index.ts";
import { createFixture, exec, read, reasonOf, ruleOf, write } from "./helpers/fixture.ts";

describe("defaults", () => {
  it.each([
    ".envrc.md",
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
    // Everyday work: committing writes objects, refs and the index; installs write node_modules.
    ".git/objects/ab/cdef",
    ".git/refs/heads/main",
    ".git/index",
    ".git/COMMIT_EDITMSG",
    "node_modules/pkg/index.js",
    "x/node_modules/y/z.js",
  ])("%s stays writable", (p) => {
    expect(ruleOf(createFixture().policy().check(write(p)))).toBe("allow");
  });

  it.each([
    ["packages/a/.env", "default denyWrite .env"],
    [".env.production", "default denyWrite .env.*"],
    ["apps/web/.env.local", "default denyWrite .env.*"],
    ["sub/.gatehouse/settings.json", "default denyWrite .gatehouse/**"],
    [".git", "default denyWrite .git"],
    ["sub/.git", "default denyWrite .git"],
    [".git/config", "default denyWrite .git/config"],
    [".git/config.worktree", "default denyWrite .git/config.worktree"],
    [".git/commondir", "default denyWrite .git/commondir"],
    [".git/hooks", "default denyWrite .git/hooks/**"],
    [".git/hooks/pre-commit", "default denyWrite .git/hooks/**"],
    ["a/b/.git/hooks/post-checkout", "default denyWrite .git/hooks/**"],
    [".git/modules/lib/config", "default denyWrite .git/modules/**/config"],
    [".git/modules/lib/nested/modules/x/hooks/pre-push", "default denyWrite .git/modules/**/hooks/**"],
    [".git/worktrees/wt/commondir", "default denyWrite .git/worktrees/*/commondir"],
    [".bashrc", "default denyWrite .bashrc"],
    ["home/.zshenv", "default denyWrite .zshenv"],
    [".config/fish/config.fish", "default denyWrite .config/fish/**"],
    [".envrc", "default denyWrite .envrc"],
    ["frontend/.npmrc", "default denyWrite .npmrc"],
    [".yarnrc.yml", "default denyWrite .yarnrc.yml"],
    [".pnpmfile.cjs", "default denyWrite .pnpmfile.cjs"],
  ])("%s is protected at any depth (%s)", (p, rule) => {
    expect(ruleOf(createFixture().policy().check(write(p)))).toBe(rule);
  });

  it("reads are not restricted by the default write denies", () => {
    const policy = createFixture().policy();
    for (const p of [".git/config", ".git/hooks/pre-commit", "node_modules/pkg/index.js", ".bashrc", ".envrc"])
      expect(ruleOf(policy.check(read(p)))).toBe("allow");
  });

  it("reads of .env and .env.* are denied by default, except .env.example and .env.sample", () => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check(read(".env")))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(read("apps/web/.env.local")))).toBe("default denyRead .env.!(example|sample)");
    expect(ruleOf(policy.check(read(".env.example.bak")))).toBe("default denyRead .env.!(example|sample)");
    for (const p of [".env.example", "apps/.env.sample", ".envrc", "docs/env.md"]) {
      expect(ruleOf(policy.check(read(p)))).toBe("allow");
    }
  });

  it("reads of the home directory's credentials and of Gatehouse's own state are denied by default", () => {
    const f = createFixture();
    const policy = createPolicy({}, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh-home") });
    for (const [p, rule] of [
      ["~/.ssh/id_ed25519", "default denyRead ~/.ssh/**"],
      ["~/.ssh", "default denyRead ~/.ssh/**"],
      ["~/.aws/credentials", "default denyRead ~/.aws/**"],
      ["~/.gnupg/private-keys-v1.d/x.key", "default denyRead ~/.gnupg/**"],
      ["~/.config/gcloud/credentials.db", "default denyRead ~/.config/gcloud/**"],
      ["~/.netrc", "default denyRead ~/.netrc"],
      ["~/.docker/config.json", "default denyRead ~/.docker/config.json"],
      ["~/.kube/config", "default denyRead ~/.kube/**"],
      ["/etc/shadow", "default denyRead /etc/shadow"],
      ["/proc/self/environ", "default denyRead /proc/**"],
      [`/proc/${process.pid}/mem`, "default denyRead /proc/**"],
      [path.join(f.base, "gh-home/audit/key"), "default deny GATEHOUSE_HOME"],
    ]) {
      expect(ruleOf(policy.check(read(p as string)))).toBe(rule);
    }
    expect(ruleOf(policy.check(write(path.join(f.base, "gh-home/trust.json"))))).toBe("default deny GATEHOUSE_HOME");
    expect(ruleOf(policy.check(read("~/notes.txt")))).toBe("allow");
  });

  it("a project that itself lives below a node_modules directory is not denied wholesale", () => {
    const f = createFixture();
    const ws = path.join(f.base, "node_modules/pkg");
    mkdirSync(ws, { recursive: true });
    const policy = createPolicy({}, { cwd: ws, home: f.home });
    expect(ruleOf(policy.check(write("src/index.ts")))).toBe("allow");
    expect(ruleOf(policy.check(write("node_modules/dep/.env")))).toBe("default denyWrite .env");
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
    const policy = f.policy({ denyRead: ["*.pem", "~/vault/**"] });
    expect(ruleOf(policy.check(read("certs/server.pem")))).toBe("config denyRead *.pem");
    expect(ruleOf(policy.check(read(path.join(f.home, "vault/id_ed25519"))))).toBe("config denyRead ~/vault/**");
    expect(ruleOf(policy.check(read("~/vault/id_ed25519")))).toBe("config denyRead ~/vault/**");
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
      ruleAnchors: [],
      allowOutsideWorkspace: { read: true, write: false },
      caseInsensitive: "auto",
      bash: "sandbox",
      network: "deny",
      undeclaredEffects: "deny",
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

  it("tools without effects are refused by default and allowed with undeclaredEffects: allow", () => {
    const f = createFixture();
    expect(checkCall(undefined, f.policy({ undeclaredEffects: "allow" }), { toolName: "custom" }).allow).toBe(true);
    const decision = checkCall(undefined, f.policy(), { toolName: "custom" });
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
