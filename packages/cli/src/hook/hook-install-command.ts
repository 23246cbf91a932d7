import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseCommand, usageError } from "../help/parse-command.ts";
import type { CliIo } from "../io.ts";
import { projectDir } from "../run-command-support.ts";
import { hookInstallSpec } from "../specs/index.ts";
import { agentSettings, hookCommand, installHooks } from "./hook-install.ts";
import type { HookAgent } from "./hook-payload.ts";

/**
 * `gatehouse hook install claude-code|codex`: writes Gatehouse's hook entries into the agent's
 * settings (`.claude/settings.json` or `.codex/hooks.json`, the project's by default, the user's
 * with `--user`), shows each change, and says what the agent needs before it runs them.
 * Contract: exit 0 with the list of changes (none when already installed); 2 on bad usage or a
 * settings file that is not a JSON object (left untouched).
 */
export async function hookInstallCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(hookInstallSpec, args);
  const agent = positionals[0] as HookAgent | undefined;
  if (agent !== "claude-code" && agent !== "codex") {
    throw usageError(hookInstallSpec, "name the agent: claude-code or codex.");
  }
  if (values.project && values.user) throw usageError(hookInstallSpec, "--project and --user exclude each other.");
  const project = projectDir(io, values.cwd);
  const settings = agentSettings({ agent, scope: values.user ? "user" : "project", projectDir: project, env: io.env });
  const report = installHooks({
    agent,
    settings,
    command: hookCommand(agent, values.command),
    uninstall: values.uninstall,
  });
  const verb = values.uninstall ? "removed from" : "installed in";
  if (report.changes.length === 0) {
    io.stdout.write(
      `${report.file}: nothing to change (Gatehouse's hooks are ${values.uninstall ? "not there" : "already there"})\n`,
    );
  } else {
    io.stdout.write(
      `Gatehouse's ${agent} hooks ${verb} ${report.file}:\n${report.changes.map((c) => `  ${c}`).join("\n")}\n`,
    );
  }
  if (!values.uninstall) {
    io.stdout.write(`\n${report.trustStep}\n`);
    if (!existsSync(join(project, ".gatehouse", "settings.json"))) {
      io.stdout.write(
        `\nThis project has no .gatehouse/settings.json, so no guard is enabled yet and the hooks will only watch: run \`gatehouse init\` to enable protected-paths and tool-audit.\n`,
      );
    }
  }
  return 0;
}
