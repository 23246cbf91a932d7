import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPolicy } from "../src/index.ts";
import { createFixture, type Fixture, read, ruleOf, write } from "./helpers/fixture.ts";

// What runs by itself from the home: at the next login or shell, when an editor, interpreter or
// direnv starts, or in place of a command found on PATH. It matters when writes reach the home
// (allowOutsideWorkspace.write, or a workspace that is the home).

const OUTSIDE_WRITABLE = { allowOutsideWorkspace: { read: true, write: true } };

function policy(f: Fixture, config: object = OUTSIDE_WRITABLE) {
  return createPolicy(config, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh") });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("start-up files in the home", () => {
  it.each([
    ".bash_aliases",
    ".bashrc.d/10-x.sh",
    ".xprofile",
    ".xsessionrc",
    ".pam_environment",
    ".config/environment.d/10-path.conf",
    ".local/share/systemd/user/x.service",
    ".vimrc",
    ".vim/plugin/x.vim",
    ".config/nvim/init.lua",
    ".local/share/nvim/site/plugin/x.lua",
    ".emacs",
    ".emacs.d/init.el",
    ".tmux.conf",
    ".local/lib/python3.12/site-packages/x.pth",
    ".local/lib/python3.12/site-packages/usercustomize.py",
    ".ipython/profile_default/startup/00-x.py",
    ".config/direnv/direnvrc",
    ".direnvrc",
    ".hgrc",
    ".cargo/config.toml",
    ".local/bin/git",
    "bin/ls",
  ])("~/%s is denied for writes and readable", (rel) => {
    const f = createFixture();
    const p = policy(f);
    expect(ruleOf(p.check(write(path.join(f.home, rel))))).toMatch(/^default denyWrite /);
    expect(ruleOf(p.check(read(path.join(f.home, rel))))).toBe("allow");
  });

  it.each([
    ".gdbinit",
    ".psqlrc",
    ".Rprofile",
    ".config/starship.toml",
    ".npmrc",
    ".yarnrc.yml",
    ".config/pnpm/rc",
    ".bunfig.toml",
    ".gradle/init.d/x.gradle",
    ".gradle/gradle.properties",
    ".docker/config.json",
    ".gnupg/gpg-agent.conf",
    ".config/Code/User/settings.json",
    ".config/Cursor/User/tasks.json",
  ])("~/%s (a program runs what it configures) is denied for writes", (rel) => {
    const f = createFixture();
    const p = policy(f);
    expect(ruleOf(p.check(write(path.join(f.home, rel))))).toMatch(/^default denyWrite /);
  });

  it("leaves the rest of the home writable, packages in the user's site-packages included", () => {
    const f = createFixture();
    const p = policy(f);
    for (const rel of ["notes.txt", ".local/lib/python3.12/site-packages/pkg/mod.py", ".config/app/x.json"]) {
      expect(ruleOf(p.check(write(path.join(f.home, rel)))), rel).toBe("allow");
    }
  });

  it("the shell's start-up files are denied in the workspace too", () => {
    const f = createFixture();
    expect(ruleOf(f.policy().check(write(".bash_aliases")))).toBe("default denyWrite .bash_aliases");
    expect(ruleOf(f.policy().check(write("sub/.bashrc.d/x.sh")))).toBe("default denyWrite .bashrc.d/**");
  });
});

describe("folders programs are looked up in (PATH)", () => {
  it("denies writes into a PATH folder the user can write, and into ~/.local/bin and ~/bin before they exist", () => {
    const f = createFixture();
    const tools = f.dir(path.join(f.base, "tools-bin"));
    mkdirSync(path.join(f.ws, "node_modules", ".bin"), { recursive: true });
    vi.stubEnv("PATH", [tools, path.join(f.ws, "node_modules", ".bin"), "bin", f.base, "/usr/bin"].join(":"));
    const p = policy(f);
    expect(ruleOf(p.check(write(path.join(tools, "git"))))).toBe(`default denyWrite PATH folder ${tools}`);
    expect(existsSync(path.join(f.home, ".local"))).toBe(false);
    const local = path.join(f.home, ".local", "bin");
    expect(ruleOf(p.check(write(path.join(local, "sudo"))))).toBe(`default denyWrite PATH folder ${local}`);
    // The package manager's folder, a relative entry and a folder that holds the workspace name nothing.
    expect(ruleOf(p.check(write("node_modules/.bin/tsc")))).toBe("allow");
    expect(ruleOf(p.check(write("bin/tool")))).toBe("allow");
    expect(ruleOf(p.check(write(path.join(f.base, "notes.txt"))))).toBe("allow");
  });
});

describe("the sandbox review outside the workspace", () => {
  it("takes out a file a wildcard rule names outside the workspace, created while writes there were allowed", async () => {
    const f = createFixture();
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const planned = await policy(f)
      .sandboxProfile({ quarantineDir: () => quarantine })
      .prepare();
    const pth = f.file(path.join(f.home, ".local/lib/python3.12/site-packages/evil.pth"), "import os");
    const module = f.file(path.join(f.home, ".local/lib/python3.12/site-packages/pkg/mod.py"), "x = 1");
    const aliases = f.file(path.join(f.home, ".bash_aliases"), "alias ls=evil");
    const violations = (await planned.review?.()) ?? [];
    expect(violations.map((v) => v.path).sort()).toEqual([aliases, pth].sort());
    expect(existsSync(pth)).toBe(false);
    expect(existsSync(aliases)).toBe(false);
    expect(existsSync(module)).toBe(true);
  });
});
