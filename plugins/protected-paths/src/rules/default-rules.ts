/** One default deny: a glob and why it is there, in words a model can act on. */
export interface DefaultRule {
  pattern: string;
  why: string;
  /** A folder the pattern matches protects what lies below it too (read rules always do). */
  contents?: boolean;
}

const SECRETS = "files that hold secrets are protected";
const GIT_RUNS = "git runs what it says (hooks, fsmonitor, aliases, filters), so the agent may not change it";
const SHELL_RUNS = "the shell runs it at start-up, so a change would run code outside the agent's session";
const TOOL_RUNS = "the tool it configures runs what it says without asking, so a change would run code later";

const HG_RUNS = "Mercurial runs what it says (hooks, extensions, aliases), so the agent may not change it";

/** Where mise (formerly rtx) reads its configuration from, in any folder of the project. */
export const MISE_FILES: readonly string[] = [
  "mise.toml",
  ".mise.toml",
  "mise.*.toml",
  ".mise.*.toml",
  "mise/config.toml",
  "mise/config.*.toml",
  "mise/conf.d/**",
  ".mise/config.toml",
  ".mise/config.*.toml",
  ".mise/conf.d/**",
  ".config/mise.toml",
  ".config/mise.*.toml",
  ".config/mise/**",
  ".rtx.toml",
  ".rtx.*.toml",
];

/** Shell start-up files, in the workspace and the home directory (any depth). */
export const SHELL_STARTUP_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".kshrc",
  ".mkshrc",
  ".config/fish/**",
  // Ubuntu's .bashrc sources .bash_aliases, Fedora's every file in .bashrc.d; X and PAM sessions
  // run or read these at login.
  ".bash_aliases",
  ".bashrc.d/**",
  ".xprofile",
  ".xinitrc",
  ".xsession",
  ".xsessionrc",
  ".pam_environment",
];

/** What editors, terminal multiplexers, interpreters and direnv run from the home when they start. */
export const HOME_STARTUP_FILES: readonly string[] = [
  "~/.vimrc",
  "~/.gvimrc",
  "~/.exrc",
  "~/.vim/**",
  "~/.config/nvim/**",
  "~/.local/share/nvim/site/**",
  "~/.emacs",
  "~/.emacs.el",
  "~/.emacs.d/**",
  "~/.config/emacs/**",
  "~/.tmux.conf",
  "~/.config/tmux/**",
  // Python runs every .pth file of the user's site-packages (and usercustomize) at each start.
  "~/.local/lib/python*/site-packages/*.pth",
  "~/.local/lib/python*/site-packages/usercustomize.py",
  "~/.local/lib/python*/site-packages/sitecustomize.py",
  "~/.ipython/profile_*/startup/**",
  // direnv sources these before every .envrc it loads.
  "~/.direnvrc",
  "~/.config/direnv/direnvrc",
  "~/.config/direnv/lib/**",
  // Debuggers, database shells, REPLs and the prompt run what these say each time they start
  // (gdb and lldb commands, psql's and sqlite's shell escapes, R's and Ruby's start-up code,
  // screen's exec, starship's custom modules at every prompt).
  "~/.gdbinit",
  "~/.config/gdb/**",
  "~/.lldbinit",
  "~/.psqlrc",
  "~/.sqliterc",
  "~/.Rprofile",
  "~/.irbrc",
  "~/.pryrc",
  "~/.screenrc",
  "~/.config/starship.toml",
];

/**
 * What package managers, build tools, container and signing tools in the home run by themselves:
 * npm's `node-options` and `script-shell`, yarn's `yarnPath`, pnpm's global pnpmfile, bun's
 * `preload`, Gradle's init scripts and JVM arguments, Docker's credential helpers, gpg's and
 * gpg-agent's programs, and VS Code's (and its forks') user settings and tasks (terminal
 * profiles, interpreters, tasks run on folder open).
 */
export const HOME_TOOL_CONFIGS: readonly string[] = [
  "~/.npmrc",
  "~/.config/npm/npmrc",
  "~/.yarnrc",
  "~/.yarnrc.yml",
  "~/.config/pnpm/rc",
  "~/.bunfig.toml",
  "~/.config/.bunfig.toml",
  "~/.gradle/init.gradle",
  "~/.gradle/init.gradle.kts",
  "~/.gradle/init.d/**",
  "~/.gradle/gradle.properties",
  "~/.docker/config.json",
  "~/.gnupg/*.conf",
  "~/.config/Code/User/settings.json",
  "~/.config/Code/User/tasks.json",
  "~/.config/Code - OSS/User/settings.json",
  "~/.config/Code - OSS/User/tasks.json",
  "~/.config/VSCodium/User/settings.json",
  "~/.config/VSCodium/User/tasks.json",
  "~/.config/Cursor/User/settings.json",
  "~/.config/Cursor/User/tasks.json",
];

/**
 * The write denies that always apply, whatever the configuration adds: what turns a write into
 * code execution or a leak. Everyday work stays possible: committing (`.git/objects`, refs, the
 * index) and installing into `node_modules` are not denied.
 */
export const DEFAULT_DENY_WRITE: readonly DefaultRule[] = [
  // A folder under such a name (`.env/production`, `.env.d/`) holds the same secrets.
  { pattern: ".env", why: `.env files hold secrets and are protected`, contents: true },
  { pattern: ".env.*", why: `.env.* files hold secrets and are protected`, contents: true },
  {
    pattern: ".git",
    why: "creating, replacing or removing a repository is refused (a new .git can point git at other hooks and config); work inside the existing one",
  },
  { pattern: ".git/config", why: GIT_RUNS },
  { pattern: ".git/config.worktree", why: GIT_RUNS },
  { pattern: ".git/commondir", why: `${GIT_RUNS} (commondir moves the repository's config and hooks)` },
  { pattern: ".git/hooks/**", why: `${GIT_RUNS} (hooks run on commit, checkout and more)` },
  { pattern: ".git/modules/**/config", why: GIT_RUNS },
  { pattern: ".git/modules/**/config.worktree", why: GIT_RUNS },
  { pattern: ".git/modules/**/commondir", why: GIT_RUNS },
  { pattern: ".git/modules/**/hooks/**", why: `${GIT_RUNS} (submodule hooks)` },
  { pattern: ".git/worktrees/*/config", why: GIT_RUNS },
  { pattern: ".git/worktrees/*/config.worktree", why: GIT_RUNS },
  { pattern: ".git/worktrees/*/commondir", why: GIT_RUNS },
  {
    pattern: ".gatehouse/**",
    why: ".gatehouse holds the agent's own policy, extensions and audit, which the agent may not change",
  },
  ...SHELL_STARTUP_FILES.map((pattern) => ({ pattern, why: SHELL_RUNS })),
  // The home's own, also when it is not a workspace root: the sandbox enforces `~/` rules wherever
  // they lie (with writes outside the workspace allowed, `echo … >> ~/.bashrc` went through).
  ...SHELL_STARTUP_FILES.map((pattern) => ({ pattern: `~/${pattern}`, why: SHELL_RUNS })),
  { pattern: ".envrc", why: "direnv runs it when a shell enters the directory, so a change would run code later" },
  {
    pattern: ".envrc.local",
    why: "an .envrc commonly sources it (source_env_if_exists .envrc.local), so direnv would run a change later",
  },
  { pattern: ".npmrc", why: `${TOOL_RUNS} (npm: script-shell, node-options, tokens)` },
  { pattern: ".yarnrc", why: TOOL_RUNS },
  { pattern: ".yarnrc.yml", why: `${TOOL_RUNS} (yarnPath runs any script)` },
  { pattern: ".pnpmfile.cjs", why: `${TOOL_RUNS} (pnpm runs it on every install)` },
  // Other agents' and editors' settings that run commands: hooks, MCP servers, tasks run on open.
  { pattern: ".claude/settings.json", why: `${TOOL_RUNS} (Claude Code runs its hooks and MCP servers)` },
  { pattern: ".claude/settings.local.json", why: `${TOOL_RUNS} (Claude Code runs its hooks and MCP servers)` },
  // A skill's, subagent's or command's file may hold hooks (its front matter) and !`…` commands,
  // which Claude Code runs by itself, unconfined, when it loads the skill — and its model may load
  // one on its own (the Skill tool). Claude Code finds them in nested folders too.
  ...[".claude/skills/**", ".claude/agents/**", ".claude/commands/**"].map((pattern) => ({
    pattern,
    why: `${TOOL_RUNS} (Claude Code runs the hooks and !\`…\` commands of its skills, subagents and commands when it loads one, which its model may do on its own)`,
  })),
  { pattern: ".mcp.json", why: `${TOOL_RUNS} (MCP clients start the servers it lists)` },
  { pattern: ".codex/config.toml", why: `${TOOL_RUNS} (Codex runs its MCP servers and commands)` },
  { pattern: ".codex/hooks.json", why: `${TOOL_RUNS} (Codex runs its hooks)` },
  { pattern: ".vscode/tasks.json", why: `${TOOL_RUNS} (VS Code can run tasks when the folder opens)` },
  { pattern: ".vscode/mcp.json", why: `${TOOL_RUNS} (VS Code starts the MCP servers it lists)` },
  {
    pattern: ".vscode/settings.json",
    why: `${TOOL_RUNS} (VS Code settings name interpreters, shells and their environment)`,
  },
  { pattern: ".cursor/mcp.json", why: `${TOOL_RUNS} (Cursor starts the MCP servers it lists)` },
  { pattern: ".cursor/hooks.json", why: `${TOOL_RUNS} (Cursor runs its hooks)` },
  { pattern: ".gemini/settings.json", why: `${TOOL_RUNS} (Gemini CLI runs its hooks and MCP servers)` },
  {
    pattern: ".gemini/extensions/**",
    why: `${TOOL_RUNS} (Gemini CLI loads the project's extensions at start-up and starts their MCP servers)`,
  },
  { pattern: ".devcontainer/devcontainer.json", why: `${TOOL_RUNS} (initializeCommand runs on the host)` },
  { pattern: ".devcontainer.json", why: `${TOOL_RUNS} (initializeCommand runs on the host)` },
  { pattern: ".zed/tasks.json", why: `${TOOL_RUNS} (Zed runs its tasks)` },
  { pattern: ".zed/settings.json", why: `${TOOL_RUNS} (Zed settings name language servers and their commands)` },
  // More agents' hooks, plugins and MCP servers, which they run by themselves from the project.
  { pattern: ".github/hooks/**", why: `${TOOL_RUNS} (GitHub Copilot's agents run the hooks its files list)` },
  { pattern: ".clinerules/hooks/**", why: `${TOOL_RUNS} (Cline runs the hook scripts it holds)` },
  { pattern: ".windsurf/hooks.json", why: `${TOOL_RUNS} (Windsurf runs its Cascade hooks)` },
  { pattern: ".kiro/hooks/**", why: `${TOOL_RUNS} (Kiro runs the commands its agent hooks name)` },
  { pattern: ".kiro/settings/mcp.json", why: `${TOOL_RUNS} (Kiro starts the MCP servers it lists)` },
  { pattern: ".roo/mcp.json", why: `${TOOL_RUNS} (Roo Code starts the MCP servers it lists)` },
  { pattern: ".amazonq/mcp.json", why: `${TOOL_RUNS} (Amazon Q starts the MCP servers it lists)` },
  ...["opencode.json", "opencode.jsonc", ".opencode/**"].map((pattern) => ({
    pattern,
    why: `${TOOL_RUNS} (OpenCode loads its plugins, installs their dependencies and starts its MCP servers at start-up)`,
  })),
  // lefthook reads these names (and `-local` overrides merged over them), in the project and in `.config`.
  ...["", ".config/"].flatMap((dir) =>
    ["lefthook", ".lefthook", "lefthook-local", ".lefthook-local"].map((name) => ({
      pattern: `${dir}${name}.{yml,yaml,json,jsonc,toml}`,
      why: `${GIT_RUNS} (lefthook runs what it lists from git's hooks)`,
    })),
  ),
  { pattern: ".pre-commit-config.yaml", why: `${GIT_RUNS} (pre-commit runs what it lists from git's hooks)` },
  // lint-staged runs the commands these map globs to, from the pre-commit hook.
  { pattern: ".lintstagedrc", why: `${GIT_RUNS} (lint-staged runs the commands it lists on commit)` },
  { pattern: ".lintstagedrc.*", why: `${GIT_RUNS} (lint-staged runs the commands it lists on commit)` },
  { pattern: "lint-staged.config.*", why: `${GIT_RUNS} (lint-staged runs the commands it lists on commit)` },
  // Mercurial: a new or replaced repository and the files that point hg at hooks and other config.
  {
    pattern: ".hg",
    why: "creating, replacing or removing a Mercurial repository is refused (its hgrc runs hooks at the next hg command); work inside the existing one",
  },
  { pattern: ".hg/hgrc", why: HG_RUNS },
  { pattern: ".hg/hgrc-not-shared", why: HG_RUNS },
  { pattern: ".hg/sharedpath", why: `${HG_RUNS} (sharedpath moves the repository and its hgrc elsewhere)` },
  { pattern: ".hg/requires", why: `${HG_RUNS} (share-safe makes hg read the shared source's hgrc)` },
  // mise (and its former name rtx) runs `[hooks]`, `[env] _.source` scripts and tasks from these,
  // on entering the folder; a `.tool-versions` `path:` version puts any folder's binaries first.
  ...MISE_FILES.map((pattern) => ({ pattern, why: `${TOOL_RUNS} (mise runs its hooks and env scripts on cd)` })),
  {
    pattern: ".tool-versions",
    why: `${TOOL_RUNS} (asdf and mise run a tool from any folder a path: version names)`,
  },
  // JetBrains IDEs: run configurations, startup tasks, external tools and file watchers that run commands.
  {
    pattern: ".idea/**",
    why: `${TOOL_RUNS} (JetBrains IDEs run its run configurations, startup tasks and file watchers)`,
  },
  { pattern: "~/.gitconfig", why: GIT_RUNS },
  { pattern: "~/.config/git/**", why: GIT_RUNS },
  { pattern: "~/.ssh/**", why: "ssh reads its keys, config and authorized_keys from there" },
  { pattern: "~/.config/systemd/**", why: "systemd starts user services from there" },
  { pattern: "~/.config/autostart/**", why: "the desktop starts programs from there at login" },
  { pattern: "~/.local/share/systemd/**", why: "systemd starts user services from there" },
  {
    pattern: "~/.config/environment.d/**",
    why: "systemd sets the login session's environment from it (PATH, LD_PRELOAD), so a change would run code at the next login",
  },
  ...HOME_STARTUP_FILES.map((pattern) => ({
    pattern,
    why: "the editor, terminal, interpreter or direnv runs it when it starts, so a change would run code outside the agent's session",
  })),
  ...HOME_TOOL_CONFIGS.map((pattern) => ({
    pattern,
    why: "a package manager, build tool, container or signing tool or editor runs the programs it configures, so a change would run code outside the agent's session",
  })),
  { pattern: "~/.hgrc", why: HG_RUNS },
  { pattern: "~/.config/hg/**", why: HG_RUNS },
  {
    pattern: "~/.cargo/config.toml",
    why: "cargo runs the programs it configures (build.rustc-wrapper, runners, aliases) at the next build of any project",
  },
  {
    pattern: "~/.cargo/config",
    why: "cargo runs the programs it configures (build.rustc-wrapper, runners, aliases) at the next build of any project",
  },
];

/** Credentials in the home directory, denied for reads (and masked in the sandbox). */
export const HOME_CREDENTIALS: readonly string[] = [
  "~/.ssh/**",
  "~/.aws/**",
  "~/.gnupg/**",
  "~/.config/gcloud/**",
  "~/.azure/**",
  "~/.kube/**",
  "~/.docker/config.json",
  "~/.netrc",
  "~/.git-credentials",
  "~/.config/git/credentials",
  "~/.npmrc",
  "~/.pypirc",
  "~/.config/gh/**",
  "~/.config/hub",
  "~/.cargo/credentials",
  "~/.cargo/credentials.toml",
  "~/.gem/credentials",
  "~/.vault-token",
  "~/.terraform.d/credentials.tfrc.json",
  "~/.password-store/**",
  "~/.local/share/keyrings/**",
  "~/.pgpass",
  "~/.my.cnf",
  "~/.s3cfg",
  "~/.boto",
  "~/.config/rclone/**",
  "~/.terraformrc",
  "~/.claude/.credentials.json",
  "~/.codex/auth.json",
  // Other agents' and assistants' sign-ins (an API key in ~/.claude.json, OAuth tokens).
  "~/.claude.json",
  "~/.gemini/oauth_creds.json",
  "~/.config/github-copilot/**",
  // Package managers' and registries' tokens and passwords.
  "~/.yarnrc.yml",
  "~/.config/containers/auth.json",
  "~/.m2/settings.xml",
  "~/.m2/settings-security.xml",
  "~/.gradle/gradle.properties",
  "~/.ivy2/.credentials",
  "~/.composer/auth.json",
  "~/.config/composer/auth.json",
  "~/.bundle/config",
  "~/.nuget/NuGet/NuGet.Config",
  // Cloud and platform command-line tools' tokens.
  "~/.pulumi/credentials.json",
  "~/.oci/**",
  "~/.databrickscfg",
  "~/.config/doctl/**",
  "~/.fly/**",
  "~/.config/glab-cli/**",
  "~/.config/hcloud/**",
  "~/.config/configstore/firebase-tools.json",
  "~/.cache/huggingface/token",
  "~/.huggingface/token",
  "~/.supabase/**",
  // Shell and REPL histories: secrets typed on a command line end up there.
  "~/.bash_history",
  "~/.zsh_history",
  "~/.zhistory",
  "~/.histfile",
  "~/.local/share/fish/fish_history",
  "~/.python_history",
  "~/.node_repl_history",
  "~/.psql_history",
  "~/.mysql_history",
  "~/.sqlite_history",
  "~/.rediscli_history",
  "~/.irb_history",
];

/** System files only root should read (a command run as root could otherwise print them). */
export const SYSTEM_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/ssh/ssh_host_*_key",
  // Secrets mounted into containers (Kubernetes service account tokens, Docker secrets).
  "/run/secrets/**",
  "/var/run/secrets/**",
];

/**
 * Processes' environments and memory (the host's own API keys among them). Sandboxed commands get
 * a /proc of their own, where only their own processes are.
 */
export const PROCESS_STATE = "/proc/**";

/** The read denies that always apply, whatever the configuration adds. */
export const DEFAULT_DENY_READ: readonly DefaultRule[] = [
  { pattern: ".env", why: `.env files hold secrets and are protected` },
  {
    pattern: ".env.!(example|sample)",
    why: `.env.* files hold secrets and are protected (.env.example and .env.sample are readable)`,
  },
  ...HOME_CREDENTIALS.map((pattern) => ({ pattern, why: `it holds credentials; ${SECRETS}` })),
  ...SYSTEM_SECRETS.map((pattern) => ({ pattern, why: `it holds system secrets; ${SECRETS}` })),
  {
    pattern: PROCESS_STATE,
    why: "processes' environments and memory live there (Gatehouse's own API keys among them)",
  },
];
