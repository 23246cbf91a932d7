import {
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { SandboxPlan } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { StuckPaths } from "../src/sandbox/stuck-paths.ts";
import { createFixture, exec, reasonOf, ruleOf } from "./helpers/fixture.ts";

async function plan(f: ReturnType<typeof createFixture>, config = {}): Promise<SandboxPlan & { quarantine: string }> {
  const quarantine = f.dir(path.join(f.base, "quarantine"));
  const policy = createPolicy(config, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh") });
  const planned = await policy.sandboxProfile({ quarantineDir: () => quarantine }).prepare();
  return { ...planned, quarantine };
}

const rel = (f: { ws: string }, list: readonly string[]) => list.map((p) => path.relative(f.ws, p)).sort();

describe("the sandbox layout of a policy", () => {
  it("writable workspace; denied files and dir/** read-only; .git pinned; ancestors pinned; reads masked", async () => {
    const f = createFixture();
    f.file("apps/web/.env");
    f.file(".git/hooks/pre-commit.sample");
    const { layout } = await plan(f);
    expect(layout.writable).toEqual([f.ws]);
    expect(layout.outside).toBe("read-only");
    expect(layout.network).toBe(false);
    expect(rel(f, layout.readOnly)).toEqual([
      ".env",
      ".envrc",
      ".gatehouse",
      ".git/config",
      ".git/hooks",
      "apps/web/.env",
    ]);
    expect(rel(f, layout.pinned)).toEqual([".git", "apps", "apps/web"]);
    expect(
      rel(
        f,
        layout.masked.filter((p) => p.startsWith(f.ws)),
      ),
    ).toEqual([".env", "apps/web/.env"]);
  });

  it("masks the home's credentials that exist, Gatehouse's home, and hard links of read-denied files", async () => {
    const f = createFixture();
    f.file(path.join(f.home, ".ssh/id_rsa"));
    f.file(path.join(f.home, ".netrc"));
    f.file(path.join(f.base, "gh/keys/k"));
    f.dir("docs");
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "docs/env-copy.txt"));
    const { layout } = await plan(f);
    expect(layout.masked).toEqual(
      expect.arrayContaining([
        path.join(f.home, ".ssh"),
        path.join(f.home, ".netrc"),
        path.join(f.base, "gh"),
        path.join(f.ws, "docs/env-copy.txt"),
      ]),
    );
    expect(layout.masked).not.toContain(path.join(f.home, ".aws"));
  });

  it("allowOutsideWorkspace and network shape the rest of the filesystem", async () => {
    const f = createFixture();
    expect((await plan(f, { allowOutsideWorkspace: { read: false } })).layout.outside).toBe("hidden");
    const loose = (await plan(f, { allowOutsideWorkspace: { write: true }, network: "allow" })).layout;
    expect(loose.outside).toBe("writable");
    expect(loose.network).toBe(true);
  });

  it("a dangling protected symlink is not mounted (there is nothing to mount), but a write through it is undone", async () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".env"));
    symlinkSync("secrets/real.env", path.join(f.ws, ".env"));
    const planned = await plan(f);
    expect(planned.layout.readOnly).not.toContain(path.join(f.ws, ".env"));
    f.file("secrets/real.env", "PWNED");
    const violations = await planned.review?.();
    expect(violations?.map((v) => v.rule)).toEqual(["default denyWrite .env"]);
    expect(existsSync(path.join(f.ws, "secrets/real.env"))).toBe(false);
  });
});

describe("the review after a run", () => {
  it("takes out what the run created under a write rule, once per tree, and reports it", async () => {
    const f = createFixture();
    const planned = await plan(f);
    f.file("sub/.env.local", "PWNED");
    f.file("nested/.git/hooks/pre-commit", "PWNED");
    f.file("playground/fine.txt", "ok");
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => [path.relative(f.ws, v.path), v.rule])).toEqual([
      ["nested/.git", "default denyWrite .git"],
      ["sub/.env.local", "default denyWrite .env.*"],
    ]);
    expect(violations[1]?.reason).toMatch(
      /^The command created ".*sub\/\.env\.local", which the path policy protects \(default denyWrite \.env\.\*\); it was moved out of the workspace to /,
    );
    expect(existsSync(path.join(f.ws, "sub/.env.local"))).toBe(false);
    expect(existsSync(path.join(f.ws, "nested/.git"))).toBe(false);
    expect(readFileSync(path.join(f.ws, "playground/fine.txt"), "utf8")).toBe("ok");
    expect(readdirSync(planned.quarantine)).toHaveLength(2);
  });

  it("puts back a protected symlink the run replaced or removed", async () => {
    const f = createFixture();
    f.file("config/app.env", "A=1");
    symlinkSync("config/app.env", path.join(f.ws, ".env.app"));
    const planned = await plan(f);
    rmSync(path.join(f.ws, ".env.app"));
    writeFileSync(path.join(f.ws, ".env.app"), "PWNED");
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => v.rule)).toEqual(["default denyWrite .env.*"]);
    expect(readFileSync(path.join(f.ws, ".env.app"), "utf8")).toBe("A=1");
  });

  it("runs of one batch share the blame; a path a running sandbox mounts is taken out when it ends", async () => {
    const f = createFixture();
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const policy = createPolicy({}, { cwd: f.ws, home: f.home });
    const profile = policy.sandboxProfile({ quarantineDir: () => quarantine });
    const first = await profile.prepare();
    f.file(".env.new", "PWNED"); // created by the first run...
    const second = await profile.prepare(); // ...while a second one starts and mounts it
    expect(second.layout.masked).toContain(path.join(f.ws, ".env.new"));
    const fromFirst = (await first.review?.()) ?? [];
    expect(fromFirst[0]?.reason).toContain("as soon as the commands running next to this one end");
    expect(existsSync(path.join(f.ws, ".env.new"))).toBe(true);
    const fromSecond = (await second.review?.()) ?? [];
    expect(fromSecond).toEqual([]);
    expect(existsSync(path.join(f.ws, ".env.new"))).toBe(false);
    // A third run overlapping a creation reports it too, though another run removed it.
    const third = await profile.prepare();
    const fourth = await profile.prepare();
    f.file(".env.other", "PWNED");
    expect(((await fourth.review?.()) ?? []).map((v) => path.basename(v.path))).toEqual([".env.other"]);
    expect(((await third.review?.()) ?? []).map((v) => path.basename(v.path))).toEqual([".env.other"]);
  });

  it("a path it cannot take out is reported, the others are still taken out, and no sandbox starts until it is gone", async () => {
    const f = createFixture();
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const policy = createPolicy({}, { cwd: f.ws, home: f.home });
    let broken = false;
    const profile = policy.sandboxProfile({
      quarantineDir: () => {
        if (broken) throw new Error("the quarantine is unavailable");
        return quarantine;
      },
    });
    const first = await profile.prepare();
    // Unavailable once the run started (a run is recorded in the quarantine folder as it starts).
    broken = true;
    f.file(".env.a", "A=1");
    f.file(".mcp.json", "{}");
    const violations = (await first.review?.()) ?? [];
    expect(violations.map((v) => path.basename(v.path)).sort()).toEqual([".env.a", ".mcp.json"]);
    expect(violations[0]?.reason).toMatch(/left in place.*no sandboxed command runs/);
    expect(() => profile.prepare()).toThrow(/could not be taken out of the workspace/);
    broken = false;
    const second = await profile.prepare();
    expect(existsSync(path.join(f.ws, ".env.a"))).toBe(false);
    expect(existsSync(path.join(f.ws, ".mcp.json"))).toBe(false);
    expect(await second.review?.()).toEqual([]);
  });

  it("remembers a path it could not take out across processes: the next one takes it out before it plans", async () => {
    const f = createFixture();
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const earlier = new StuckPaths((p) => p.startsWith(f.ws));
    f.file(".mcp.json", "{}");
    earlier.add(path.join(f.ws, ".mcp.json"), () => quarantine);
    // Another process, another policy: it would take the file for one that was there before.
    const policy = createPolicy({}, { cwd: f.ws, home: f.home });
    const planned = await policy.sandboxProfile({ quarantineDir: () => quarantine }).prepare();
    expect(existsSync(path.join(f.ws, ".mcp.json"))).toBe(false);
    expect(readdirSync(path.join(quarantine, "stuck"))).toEqual([]);
    expect(await planned.review?.()).toEqual([]);
  });

  it("an empty placeholder bubblewrap made where a planned mask vanished is removed; content never is", async () => {
    const f = createFixture();
    f.file(".env.a", "A=1");
    f.file(".env.b", "B=1");
    const planned = await plan(f);
    // Another process took both away before the mount; bwrap created an empty file at one of them.
    rmSync(path.join(f.ws, ".env.a"));
    writeFileSync(path.join(f.ws, ".env.a"), "");
    rmSync(path.join(f.ws, ".env.b"));
    writeFileSync(path.join(f.ws, ".env.b"), "B=2");
    await planned.review?.();
    expect(existsSync(path.join(f.ws, ".env.a"))).toBe(false);
    expect(readFileSync(path.join(f.ws, ".env.b"), "utf8")).toBe("B=2");
  });

  it("a plan bubblewrap could not set up (its mounts changed meanwhile) is reviewed, and the next plan follows the change", async () => {
    // The host plans again when bwrap fails before the command starts; each plan gets its review.
    const f = createFixture();
    f.file("apps/.env", "A=1");
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const policy = createPolicy({}, { cwd: f.ws, home: f.home });
    const profile = policy.sandboxProfile({ quarantineDir: () => quarantine });
    const first = await profile.prepare();
    expect(first.layout.masked).toContain(path.join(f.ws, "apps/.env"));
    // Another process turned the directory into a file: bwrap cannot mount over apps/.env.
    rmSync(path.join(f.ws, "apps"), { recursive: true });
    writeFileSync(path.join(f.ws, "apps"), "now a file");
    f.file(".env.new", "PWNED"); // and created a denied file
    // The review cannot tell a run that never started: what appeared is undone all the same.
    expect(((await first.review?.()) ?? []).map((v) => path.basename(v.path))).toEqual([".env.new"]);
    expect(existsSync(path.join(f.ws, ".env.new"))).toBe(false);
    const second = await profile.prepare();
    expect(
      rel(
        f,
        second.layout.masked.filter((p) => p.startsWith(f.ws)),
      ),
    ).toEqual([".env"]);
    expect(rel(f, second.layout.pinned)).not.toContain("apps");
    expect(await second.review?.()).toEqual([]);
    expect(readFileSync(path.join(f.ws, "apps"), "utf8")).toBe("now a file");
  });

  it("takes out a symbolic link the run made where a rule protects something inside (.claude -> elsewhere)", async () => {
    const f = createFixture();
    f.file("sub/settings.json", '{"hooks":{}}');
    const planned = await plan(f);
    symlinkSync("sub", path.join(f.ws, ".claude"));
    symlinkSync("sub", path.join(f.ws, "docs", ".vscode"));
    symlinkSync("sub", path.join(f.ws, "plain-link"));
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => [path.relative(f.ws, v.path), v.rule])).toEqual([
      [".claude", "default denyWrite .claude/settings.json"],
      ["docs/.vscode", "default denyWrite .vscode/tasks.json"],
    ]);
    expect(existsSync(path.join(f.ws, ".claude"))).toBe(false);
    expect(existsSync(path.join(f.ws, "plain-link"))).toBe(true);
    expect(readFileSync(path.join(f.ws, "sub/settings.json"), "utf8")).toBe('{"hooks":{}}');
  });

  it.each([
    ["relative", "shared/claude"],
    ["absolute", "ABS"],
  ])(
    "a %s link that was there before the run (a dotfiles setup) is kept, and read-only in the sandbox",
    async (_, target) => {
      const f = createFixture();
      f.file("shared/claude/settings.json", "{}");
      symlinkSync(target === "ABS" ? path.join(f.ws, "shared/claude") : target, path.join(f.ws, ".claude"));
      const planned = await plan(f);
      // Mounted where it leads (bubblewrap cannot mount onto a link with an absolute target).
      expect(planned.layout.readOnly).toContain(path.join(f.ws, "shared/claude"));
      expect(await planned.review?.()).toEqual([]);
      expect(existsSync(path.join(f.ws, ".claude"))).toBe(true);
    },
  );

  it("what a rule protects inside node_modules (git's hooks folder, where a protected link leads) is read-only, its folders pinned", async () => {
    const f = createFixture();
    f.file("node_modules/hookspkg/hooks/pre-commit", "#!/bin/sh\n");
    f.file(".git/config", "[core]\n\thooksPath = node_modules/hookspkg/hooks\n");
    f.file("node_modules/@org/claude-config/settings.json", "{}");
    symlinkSync("node_modules/@org/claude-config", path.join(f.ws, ".claude"));
    const { layout } = await plan(f);
    expect(layout.readOnly).toContain(path.join(f.ws, "node_modules/hookspkg/hooks"));
    expect(layout.readOnly).toContain(path.join(f.ws, "node_modules/@org/claude-config/settings.json"));
    expect(layout.pinned).toEqual(
      expect.arrayContaining([path.join(f.ws, "node_modules/@org"), path.join(f.ws, "node_modules/hookspkg")]),
    );
  });

  it("a hooks folder (core.hooksPath) that did not exist, created inside node_modules by the run, is taken out", async () => {
    const f = createFixture();
    f.file(".git/config", "[core]\n\thooksPath = node_modules/.hooks\n");
    const planned = await plan(f);
    f.file("node_modules/.hooks/pre-commit", "#!/bin/sh\necho PWNED\n");
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => [path.relative(f.ws, v.path), v.rule])).toEqual([
      ["node_modules/.hooks", `default denyWrite core.hooksPath ${path.join(f.ws, "node_modules/.hooks")}`],
    ]);
    expect(existsSync(path.join(f.ws, "node_modules/.hooks"))).toBe(false);
  });

  it("a repository planted without a .git name (HEAD, objects/, refs/, config) is taken out by its HEAD", async () => {
    const f = createFixture();
    const planned = await plan(f);
    f.file("src/config", '[core]\n\tfsmonitor = "echo PWNED"\n');
    f.file("src/HEAD", "ref: refs/heads/main\n");
    f.dir("src/objects");
    f.dir("src/refs/heads");
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => [path.relative(f.ws, v.path), v.rule])).toEqual([
      ["src/HEAD", "default denyWrite HEAD outside .git"],
    ]);
    expect(existsSync(path.join(f.ws, "src/HEAD"))).toBe(false);
  });

  it("a run that only moved an ordinary directory leaves the workspace alone", async () => {
    const f = createFixture();
    const planned = await plan(f);
    renameSync(path.join(f.ws, "docs"), path.join(f.ws, "documentation"));
    expect(await planned.review?.()).toEqual([]);
    expect(existsSync(path.join(f.ws, "documentation/env.md"))).toBe(true);
  });
});

describe("the pre-check of sandbox mode", () => {
  it("refuses what a deny rule provably matches, with the precise reason", () => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check(exec("echo x > .env")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(exec("cat .env.local")))).toBe("default denyRead .env.!(example|sample)");
    expect(ruleOf(policy.check(exec("cp evil .git/hooks/")))).toBe("default denyWrite .git/hooks/**");
    expect(reasonOf(policy.check(exec("tee .gatehouse/settings.json")))).toContain("(default denyWrite .gatehouse/**)");
  });

  it("lets through what it cannot resolve or what only the sandbox enforces: the sandbox is the guarantee", () => {
    const f = createFixture();
    f.file("apps/web/.env");
    const policy = f.policy();
    for (const command of [
      "F=.env; cat $F",
      "echo 'unclosed",
      "$CMD x",
      "echo x > /tmp/scratch.txt",
      "echo x > ../outside/notes.txt",
      "find . -name '*.o' -delete",
      "rm -rf apps",
      "cd $X && echo x > out.txt",
      "echo x | xargs rm",
      "cat /proc/cpuinfo /proc/self/status",
    ]) {
      expect(ruleOf(policy.check(exec(command))), command).toBe("allow");
    }
  });
});
