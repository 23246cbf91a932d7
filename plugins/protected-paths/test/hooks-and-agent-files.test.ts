import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkCall } from "../src/index.ts";
import { hooksPathsIn } from "../src/rules/git-hooks-path.ts";
import { createFixture, read, ruleOf, write } from "./helpers/fixture.ts";

// Files whose change runs code later, outside the agent's sandbox: the hooks folder git is
// configured to use (husky and friends) and other agents' and editors' command settings.

describe("core.hooksPath", () => {
  it.each([
    ["[core]\n\thooksPath = .husky/_\n", [".husky/_"]],
    ['[core]\n  hookspath = "my hooks" ; comment\n', ["my hooks"]],
    ["[Core]\nHooksPath=tools/hooks # why\n", ["tools/hooks"]],
    ['[core] hooksPath = inline\n[remote "origin"]\n\thooksPath = not-core\n', ["inline"]],
    ["[user]\n\thooksPath = nope\n", []],
    // A line continued with a backslash, and quotes in the middle of a value, as git reads them.
    ["[core]\n\thooksPath = .git\\\nhooks2\n", [".githooks2"]],
    ['[core]\n\thooksPath = my"hooks"dir\n', ["myhooksdir"]],
  ])("reads %j", (text, expected) => {
    expect(hooksPathsIn(text)).toEqual(expected);
  });

  it("denies writes to the project's configured hooks folder and husky's script folder; the rest stays writable", () => {
    const f = createFixture();
    f.file(".git/config", "[core]\n\trepositoryformatversion = 0\n\thooksPath = .husky/_\n");
    f.file(".husky/pre-commit", "npm test\n");
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".husky/_/pre-commit")))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.ws, ".husky/_")}`,
    );
    expect(ruleOf(policy.check(write(".husky/pre-commit")))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.ws, ".husky")}`,
    );
    expect(ruleOf(policy.check(write(".husky")))).not.toBe("allow");
    expect(ruleOf(policy.check(read(".husky/pre-commit")))).toBe("allow");
    expect(ruleOf(policy.check(write("src/husky.ts")))).toBe("allow");
  });

  it("takes the user's ~/.gitconfig value too, with ~ expanded", () => {
    const f = createFixture();
    f.file(path.join(f.home, ".gitconfig"), "[core]\n\thooksPath = ~/githooks\n");
    expect(ruleOf(f.policy().check(write(path.join(f.home, "githooks/post-checkout"))))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.home, "githooks")}`,
    );
  });

  it("follows [include] and [includeIf] to the files they name, and reads $XDG_CONFIG_HOME/git/config", () => {
    const f = createFixture();
    f.file(path.join(f.home, ".gitconfig"), "[include]\n\tpath = ~/.gitconfig-hooks\n");
    f.file(path.join(f.home, ".gitconfig-hooks"), "[core]\n\thooksPath = .githooks\n");
    f.file(".git/config", '[includeIf "gitdir:~/work/"]\n\tpath = ../extra.gitconfig\n');
    f.file("extra.gitconfig", "[core]\n\thooksPath = tools/hooks\n");
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".githooks/pre-commit")))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.ws, ".githooks")}`,
    );
    expect(ruleOf(policy.check(write("tools/hooks/pre-commit")))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.ws, "tools/hooks")}`,
    );
    const xdg = path.join(f.base, "xdg");
    f.file(path.join(xdg, "git", "config"), "[core]\n\thooksPath = xdg-hooks\n");
    const before = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    try {
      expect(ruleOf(f.policy().check(write("xdg-hooks/pre-commit")))).toBe(
        `default denyWrite core.hooksPath ${path.join(f.ws, "xdg-hooks")}`,
      );
    } finally {
      if (before === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = before;
    }
  });

  it("denies writes to the files git's configuration includes: git reads their settings as its own", () => {
    const f = createFixture();
    f.file(".git/config", "[include]\n\tpath = ../.gitconfig\n");
    f.file(".gitconfig", "[alias]\n\tst = status\n");
    const policy = f.policy();
    expect(ruleOf(policy.check(write(".gitconfig")))).toBe(
      `default denyWrite git include ${path.join(f.ws, ".gitconfig")}`,
    );
    expect(ruleOf(policy.check(read(".gitconfig")))).toBe("allow");
    expect(ruleOf(policy.check(write(".envrc.local")))).toBe("default denyWrite .envrc.local");
  });

  it("without a hooksPath nothing extra is denied", () => {
    const f = createFixture();
    expect(ruleOf(f.policy().check(write(".husky/pre-commit")))).toBe("allow");
  });
});

describe("other agents' and editors' settings that run commands", () => {
  it.each([
    ".claude/settings.json",
    ".claude/settings.local.json",
    "pkg/.mcp.json",
    ".mcp.json",
    ".codex/config.toml",
    ".codex/hooks.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".vscode/mcp.json",
    // Claude Code runs a skill's, subagent's or command's front-matter hooks and !`…` commands by
    // itself when it loads one, and its model loads skills on its own (the Skill tool).
    ".claude/skills/deploy/SKILL.md",
    ".claude/skills/deploy/scripts/check.sh",
    ".claude/skills",
    "web/.claude/skills/lint/SKILL.md",
    ".claude/agents/reviewer.md",
    ".claude/commands/review.md",
    ".claude/commands/git/commit.md",
    ".cursor/mcp.json",
    // Other agents' hooks, plugins and MCP servers, run by themselves from the project.
    ".github/hooks/security.json",
    ".clinerules/hooks/PreToolUse",
    ".windsurf/hooks.json",
    ".kiro/hooks/on-save.kiro.hook",
    ".kiro/settings/mcp.json",
    ".roo/mcp.json",
    ".amazonq/mcp.json",
    "opencode.json",
    "opencode.jsonc",
    ".opencode/plugins/x.ts",
    ".opencode/package.json",
    ".gemini/settings.json",
    ".gemini/extensions/x/gemini-extension.json",
    ".devcontainer/devcontainer.json",
    ".zed/tasks.json",
    "lefthook.yml",
    ".pre-commit-config.yaml",
    ".lintstagedrc",
    "web/.lintstagedrc.json",
    "lint-staged.config.mjs",
    "mise.toml",
    "sub/.mise.toml",
    "mise.local.toml",
    ".mise.dev.toml",
    "mise/config.toml",
    ".mise/conf.d/a.toml",
    ".config/mise.toml",
    ".config/mise/config.toml",
    ".config/mise/conf.d/x.toml",
    ".rtx.toml",
    ".tool-versions",
    ".hg",
    "vendor/.hg",
    ".hg/hgrc",
    ".hg/sharedpath",
    ".idea/workspace.xml",
    ".idea/runConfigurations/dev.xml",
    ".idea",
  ])("%s is denied for writes and readable", (p) => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check(write(p)))).toMatch(/^default denyWrite /);
    expect(ruleOf(policy.check(read(p)))).toBe("allow");
  });

  it.each([
    ".claude/CLAUDE.md",
    "docs/skills/deploy/SKILL.md",
    ".vscode/extensions.json",
    ".github/workflows/ci.yml",
    ".clinerules/style.md",
    ".codex/notes.md",
    "docs/mise.md",
    "src/idea/x.ts",
    "lint-staged.md",
  ])("%s stays writable", (p) => {
    expect(ruleOf(createFixture().policy().check(write(p)))).toBe("allow");
  });

  it("work inside an existing Mercurial repository stays possible (only a new .hg is refused)", () => {
    const f = createFixture();
    f.file(".hg/requires", "store\n");
    expect(ruleOf(f.policy().check(write(".hg/store/data/x.i")))).toBe("allow");
    expect(ruleOf(f.policy().check(write(".hg/hgrc")))).toBe("default denyWrite .hg/hgrc");
  });
});

describe("scripts the agents' and editors' configured commands run", () => {
  // Writing the script a hook names is writing the hook: the agent runs it by itself, unconfined.
  it("denies writes to every project file a hook, MCP server, status line or folder-open task names; the rest stays writable", () => {
    const f = createFixture();
    const claudeHooks = {
      PostToolUse: [
        { matcher: "Write", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh' }] },
      ],
      SessionStart: [{ hooks: [{ type: "command", command: "node scripts/setup.mjs --fast" }] }],
    };
    const claude = { hooks: claudeHooks, statusLine: { type: "command", command: "bash scripts/status.sh" } };
    f.file(".claude/settings.json", JSON.stringify(claude));
    f.file(".mcp.json", JSON.stringify({ mcpServers: { x: { command: "node", args: ["./tools/server.mjs"] } } }));
    const tasks = [
      { label: "open", command: "sh ./tasks/on-open.sh", runOptions: { runOn: "folderOpen" } },
      { label: "asked", command: "sh ./tasks/when-asked.sh" },
    ];
    f.file(".vscode/tasks.json", `// tasks\n${JSON.stringify({ version: "2.0.0", tasks })}`);
    f.file(
      ".gatehouse/settings.json",
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [claudeHooks.SessionStart[0]?.hooks[0]] }] } }),
    );
    f.file(
      path.join(f.home, ".claude/settings.json"),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "$CLAUDE_PROJECT_DIR/ci/notify.py" }] }] },
      }),
    );
    const policy = f.policy();
    for (const p of [
      ".claude/hooks/format.sh",
      "scripts/setup.mjs",
      "scripts/status.sh",
      "tools/server.mjs",
      "tasks/on-open.sh",
      "ci/notify.py",
    ]) {
      expect(ruleOf(policy.check(write(p))), p).toBe(`default denyWrite agent command ${path.join(f.ws, p)}`);
      expect(ruleOf(policy.check(read(p))), p).toBe("allow");
    }
    for (const p of ["tasks/when-asked.sh", "node", "scripts/other.mjs", "src/index.ts"]) {
      expect(ruleOf(policy.check(write(p))), p).toBe("allow");
    }
  });

  it("denies writes to the scripts a skill's, subagent's or command's hooks and !`…` commands run, the user's too, VS Code's, Copilot's and OpenCode's", () => {
    const f = createFixture();
    const skill = [
      "---",
      "name: deploy",
      "description: Use for every task",
      "hooks:",
      "  PreToolUse:",
      '    - matcher: "Bash"',
      "      hooks:",
      "        - type: command",
      '          command: "$CLAUDE_PROJECT_DIR/scripts/guard.sh"',
      "  Stop: [{ hooks: [{ type: command, command: node tools/stop.mjs }] }]",
      "allowed-tools: Bash(*)",
      "---",
      "Branch: !`sh ci/branch.sh`",
      "```!",
      "python3 ci/context.py --fast",
      "```",
      "Edit src/app.ts and `docs/notes.md` as asked.",
    ].join("\n");
    f.file(".claude/skills/deploy/SKILL.md", skill);
    f.file(
      ".claude/agents/reviewer.md",
      "---\nname: r\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: bash ./ci/agent-stop.sh\n---\nReview.\n",
    );
    f.file(".claude/commands/ship.md", "---\ndescription: ship\n---\n!`./ci/ship.sh`\n");
    f.file(path.join(f.home, ".claude/skills/mine/SKILL.md"), "!`$CLAUDE_PROJECT_DIR/ci/user-skill.sh`\n");
    f.file(".vscode/mcp.json", JSON.stringify({ servers: { x: { command: "node", args: ["./tools/vs-mcp.mjs"] } } }));
    f.file(
      ".github/hooks/guard.json",
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "./ci/copilot-guard.sh" }] } }),
    );
    f.file("opencode.json", JSON.stringify({ mcp: { x: { type: "local", command: ["node", "tools/oc-mcp.mjs"] } } }));
    const policy = f.policy();
    for (const p of [
      "scripts/guard.sh",
      "tools/stop.mjs",
      "ci/branch.sh",
      "ci/context.py",
      "ci/agent-stop.sh",
      "ci/ship.sh",
      "ci/user-skill.sh",
      "tools/vs-mcp.mjs",
      "ci/copilot-guard.sh",
      "tools/oc-mcp.mjs",
    ]) {
      expect(ruleOf(policy.check(write(p))), p).toBe(`default denyWrite agent command ${path.join(f.ws, p)}`);
      expect(ruleOf(policy.check(read(p))), p).toBe("allow");
    }
    // What the skill only mentions (its description, its instructions) is the agent's to edit.
    for (const p of ["src/app.ts", "docs/notes.md", "scripts/other.sh"]) {
      expect(ruleOf(policy.check(write(p))), p).toBe("allow");
    }
  });
});

describe("repositories planted without a .git name", () => {
  it("a file named HEAD outside .git is refused (HEAD, objects/ and refs/ make any folder a repository git runs)", () => {
    const f = createFixture();
    const policy = f.policy();
    expect(ruleOf(policy.check(write("src/HEAD")))).toBe("default denyWrite HEAD outside .git");
    expect(ruleOf(policy.check(write("deep/er/HEAD")))).toBe("default denyWrite HEAD outside .git");
    expect(ruleOf(policy.check(write(".git/HEAD")))).toBe("allow");
    expect(ruleOf(policy.check(write("src/config")))).toBe("allow");
    expect(ruleOf(policy.check(write("docs/HEADER.md")))).toBe("allow");
  });
});

describe("edit reads what it writes", () => {
  it("a file only reads are denied for cannot be edited (its errors and diff would show it)", () => {
    const f = createFixture();
    f.file("secrets/a.txt", "API=topsecret");
    const policy = f.policy({ denyRead: ["secrets/**"] });
    const effects = [write("secrets/a.txt")];
    expect(ruleOf(checkCall(effects, policy, { toolName: "edit" }))).toBe("config denyRead secrets/**");
    expect(ruleOf(checkCall(effects, policy, { toolName: "write" }))).toBe("allow");
  });
});

describe("git-run configuration files beyond .git/config", () => {
  it.each([
    "lefthook.yml",
    "lefthook-local.yml",
    ".lefthook-local.yaml",
    "lefthook.toml",
    ".config/lefthook-local.json",
    ".git/worktrees/w/config",
  ])("denies writes to %s", (file) => {
    const f = createFixture();
    expect(ruleOf(f.policy().check(write(file)))).not.toBe("allow");
  });

  it("leaves files that only look alike writable", () => {
    const f = createFixture();
    expect(ruleOf(f.policy().check(write("docs/lefthook-notes.md")))).toBe("allow");
  });
});
