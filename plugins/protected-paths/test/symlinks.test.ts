import { linkSync, lstatSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFixture, exec, read, reasonOf, ruleOf, write } from "./helpers/fixture.ts";

describe("symlinks inside the workspace", () => {
  it("a file symlink pointing outside: the write lands outside and is refused", () => {
    const f = createFixture();
    symlinkSync(path.join(f.outside, "notes.txt"), path.join(f.ws, "notes.txt"));
    const decision = f.policy().check(write("notes.txt"));
    expect(ruleOf(decision)).toBe("outside workspace");
    expect(reasonOf(decision)).toContain(`it resolves to "${path.join(f.outside, "notes.txt")}"`);
    expect(decision.spellings).toContainEqual({ form: "real", path: path.join(f.outside, "notes.txt") });
  });

  it("a file symlink pointing at .env: refused by the .env rule through the resolved target", () => {
    const f = createFixture();
    symlinkSync(".env", path.join(f.ws, "innocent.txt"));
    const decision = f.policy().check(write("innocent.txt"));
    expect(ruleOf(decision)).toBe("default denyWrite .env");
    expect(reasonOf(decision)).toBe(
      `Write to "innocent.txt" refused: it resolves to "${path.join(f.ws, ".env")}", and .env files hold secrets and are protected (default denyWrite .env).`,
    );
  });

  it("a directory symlink pointing outside: new files (and new directories) under it are refused", () => {
    const f = createFixture();
    symlinkSync(f.outside, path.join(f.ws, "out"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("out/new.txt")))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("out/a/b/c.txt")))).toBe("outside workspace");
    expect(policy.check(write("out/a/b/c.txt")).spellings).toContainEqual({
      form: "real",
      path: path.join(f.outside, "a/b/c.txt"),
    });
  });

  it("a directory symlink pointing at .git: new files under it are refused by the .git rule", () => {
    const f = createFixture();
    symlinkSync(path.join(f.ws, ".git"), path.join(f.ws, "docs/gitdir"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("docs/gitdir/config")))).toBe("default denyWrite .git/config");
    expect(ruleOf(policy.check(write("docs/gitdir/hooks/pre-commit")))).toBe("default denyWrite .git/hooks/**");
  });

  it("a dangling symlink is followed to where a write through it would create the file", () => {
    const f = createFixture();
    symlinkSync(path.join(f.outside, "not-yet.txt"), path.join(f.ws, "dangling.txt"));
    symlinkSync(".env.production", path.join(f.ws, "later.txt"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("dangling.txt")))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("later.txt")))).toBe("default denyWrite .env.*");
  });

  it("a deny matches the spelling the model used even when the target is harmless", () => {
    const f = createFixture();
    f.file("config/local.txt");
    symlinkSync("config/local.txt", path.join(f.ws, ".env.local"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".env.local")))).toBe("default denyWrite .env.*");
    expect(ruleOf(policy.check(write("config/local.txt")))).toBe("allow");
  });

  it("link/.. is checked both lexically (as the built-ins open it) and as the kernel walks it", () => {
    const f = createFixture();
    f.dir(".git/hooks");
    symlinkSync(path.join(f.ws, ".git/hooks"), path.join(f.ws, "hooks"));
    // Lexically hooks/../config is ./config; the shell goes through the link to .git/config.
    const decision = f.policy().check(write("hooks/../config"));
    expect(ruleOf(decision)).toBe("default denyWrite .git/config");
    expect(decision.spellings).toContainEqual({ form: "absolute", path: path.join(f.ws, "config") });
    expect(decision.spellings).toContainEqual({ form: "real-shell", path: path.join(f.ws, ".git/config") });
    expect(ruleOf(f.policy({ bash: "analyze" }).check(exec("echo x > hooks/../config")))).toBe(
      "default denyWrite .git/config",
    );
  });

  it("a symlink cycle is refused rather than guessed", () => {
    const f = createFixture();
    symlinkSync("loop-b", path.join(f.ws, "loop-a"));
    symlinkSync("loop-a", path.join(f.ws, "loop-b"));
    expect(ruleOf(f.policy().check(write("loop-a/x.txt")))).toBe("symlink loop");
  });

  it("symlinks that stay inside the workspace and away from protected paths are allowed", () => {
    const f = createFixture();
    symlinkSync(path.join(f.ws, "src"), path.join(f.ws, "srclink"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("srclink/new.ts")))).toBe("allow");
    expect(ruleOf(policy.check(read("srclink/app.ts")))).toBe("allow");
  });

  it("a workspace reached through a symlink (cwd is an alias) checks the same way", () => {
    const f = createFixture();
    const alias = path.join(f.base, "alias");
    symlinkSync(f.ws, alias);
    const policy = f.policy({}, { cwd: alias });
    expect(policy.settings.workspace[0]?.real).toBe(f.ws);
    expect(ruleOf(policy.check(write("src/new.ts")))).toBe("allow");
    expect(ruleOf(policy.check(write(path.join(f.ws, "src/new.ts"))))).toBe("allow");
    expect(ruleOf(policy.check(write(".env")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write(path.join(alias, ".git/config"))))).toBe("default denyWrite .git/config");
  });
});

describe("hard links", () => {
  it("refuses writes to an existing file with more than one link, wherever the other name is", () => {
    const f = createFixture();
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "src/config.txt"));
    const policy = f.policy({ bash: "analyze" });
    const decision = policy.check(write("src/config.txt"));
    expect(ruleOf(decision)).toBe("hard link");
    expect(reasonOf(decision)).toContain("has 2 hard links");
    expect(ruleOf(policy.check(exec("echo x > src/config.txt")))).toBe("hard link");
  });

  it("refuses reads of a file that is the same file (device and inode) as a read-denied one", () => {
    const f = createFixture();
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "src/config.txt"));
    linkSync(path.join(f.ws, "playground/x.txt"), path.join(f.ws, "src/x-again.txt"));
    const policy = f.policy();
    const decision = policy.check(read("src/config.txt"));
    expect(ruleOf(decision)).toBe("hard link");
    expect(reasonOf(decision)).toContain(`it is the same file as "${path.join(f.ws, ".env")}"`);
    expect(ruleOf(policy.check(read("src/x-again.txt")))).toBe("allow");
    expect(policy.readFilter()(path.join(f.ws, "src/config.txt"))).toBe(false);
    expect(policy.readFilter()(path.join(f.ws, "src/x-again.txt"))).toBe(true);
  });

  it("the same file with one link again is writable", () => {
    const f = createFixture();
    const alias = path.join(f.ws, "src/config.txt");
    linkSync(path.join(f.ws, "playground/x.txt"), alias);
    expect(ruleOf(f.policy().check(write(alias)))).toBe("hard link");
    unlinkSync(path.join(f.ws, "playground/x.txt"));
    expect(ruleOf(f.policy().check(write(alias)))).toBe("allow");
  });

  it("directories (which always have several links) are not mistaken for hard links", () => {
    const f = createFixture();
    f.dir("src/nested/deeper");
    expect(ruleOf(f.policy().check(write("src")))).toBe("allow");
  });
});

describe("what an allowed read or write saw", () => {
  it("is the checked real file's device and inode, through a symlink, or absent for a new file", () => {
    const f = createFixture();
    symlinkSync("src/app.ts", path.join(f.ws, "app-link.ts"));
    const policy = f.policy();
    const info = lstatSync(path.join(f.ws, "src/app.ts"));
    for (const decision of [policy.check(read("src/app.ts")), policy.check(read("app-link.ts"))]) {
      expect(decision.allow).toBe(true);
      expect(decision.allow && decision.identity).toEqual({ dev: info.dev, ino: info.ino });
    }
    const created = policy.check(write("src/new.ts"));
    expect(created.allow && created.identity).toBe("absent");
  });
});

describe("a protected name that is a symbolic link protects where it leads too", () => {
  it("a home credential folder linked from a dotfiles checkout: its files are denied by their real path", () => {
    const f = createFixture();
    const dotfiles = f.dir(path.join(f.outside, "dotfiles", "aws"));
    f.file(path.join(dotfiles, "credentials"), "aws_secret=x");
    symlinkSync(dotfiles, path.join(f.home, ".aws"));
    const policy = f.policy({ allowOutsideWorkspace: { read: true, write: false } });
    expect(ruleOf(policy.check(read("~/.aws/credentials")))).toBe("default denyRead ~/.aws/**");
    expect(ruleOf(policy.check(read(path.join(dotfiles, "credentials"))))).toBe("default denyRead ~/.aws/**");
    expect(ruleOf(policy.check(read(path.join(f.outside, "dotfiles", "README"))))).toBe("allow");
  });

  it("a linked tool folder at the root (.claude -> shared/claude): its protected file is denied by its real path", () => {
    const f = createFixture();
    f.file("shared/claude/settings.json", "{}");
    f.file("shared/claude/notes.md", "ok");
    symlinkSync("shared/claude", path.join(f.ws, ".claude"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("shared/claude/settings.json")))).toBe("default denyWrite .claude/settings.json");
    expect(ruleOf(policy.check(write("shared/claude/notes.md")))).toBe("allow");
    expect(ruleOf(policy.check(exec("echo '{}' > shared/claude/settings.json")))).toBe(
      "default denyWrite .claude/settings.json",
    );
  });

  it("a protected link that dangles (a submodule not checked out): creating its target by its real name is refused", () => {
    const f = createFixture();
    symlinkSync("shared/claude", path.join(f.ws, ".claude"));
    const policy = f.policy();
    expect(ruleOf(policy.check(write("shared/claude/settings.json")))).toBe("default denyWrite .claude/settings.json");
    expect(ruleOf(policy.check(exec("mkdir -p shared/claude && echo '{}' > shared/claude/settings.json")))).toBe(
      "default denyWrite .claude/settings.json",
    );
    expect(ruleOf(policy.check(write("shared/claude/notes.md")))).toBe("allow");
  });

  it("a .env that links to another file: that file is read-protected by its own name as well", () => {
    const f = createFixture();
    unlinkSync(path.join(f.ws, ".env"));
    f.file("config/app.env", "SECRET=x");
    symlinkSync("config/app.env", path.join(f.ws, ".env"));
    const policy = f.policy();
    expect(ruleOf(policy.check(read("config/app.env")))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(read("config/other.txt")))).toBe("allow");
  });
});
