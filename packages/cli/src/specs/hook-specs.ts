import { defineCommand } from "../help/command-spec.ts";
import { CWD } from "./common-flags.ts";

/** What answering a hook call returns: the agents honour 0 and 2 (every other code fails open there). */
const ANSWER_CODES = [
  { code: 0, meaning: "answered: no output is no opinion; Claude Code's deny is JSON on stdout" },
  { code: 1, meaning: "never returned: every failure is a refusal with exit 2 (the agents would run the call on 1)" },
  { code: 2, meaning: "refused: the reason is on stderr (bad payload, unknown event, a guard that cannot run, …)" },
] as const;

const answerSpec = (agent: "claude-code" | "codex", who: string) =>
  defineCommand({
    name: `hook ${agent}`,
    summary: `decide one ${who} tool call with this project's guards and audit it (the hook payload on stdin)`,
    flags: { cwd: { ...CWD, description: "the project directory (default: the payload's cwd)" } },
    examples: [
      { command: `gatehouse hook install ${agent}`, note: `writes the ${who} settings that run this command` },
    ],
    exitCodes: ANSWER_CODES,
  });

/** `gatehouse hook claude-code`. */
export const hookClaudeSpec = answerSpec("claude-code", "Claude Code");
/** `gatehouse hook codex`. */
export const hookCodexSpec = answerSpec("codex", "Codex");

/** `gatehouse hook install`. */
export const hookInstallSpec = defineCommand({
  name: "hook install",
  summary: "add Gatehouse's hooks to Claude Code's or Codex's settings (merged, never duplicated)",
  positionals: [{ name: "AGENT", description: "claude-code or codex", required: true }],
  flags: {
    project: { type: "boolean", description: "the project's settings (the default)" },
    user: { type: "boolean", description: "the user's settings instead of the project's" },
    uninstall: { type: "boolean", description: "remove exactly the entries Gatehouse added" },
    cwd: CWD,
    command: {
      type: "string",
      value: "CMD",
      description: "how the hooks start gatehouse (default: gatehouse, found on the PATH)",
    },
  },
  examples: [{ command: "gatehouse hook install claude-code --project" }],
});

/** `gatehouse hook`. */
export const hookSpec = defineCommand({
  name: "hook",
  summary: "run Gatehouse's policy and audit inside Claude Code and Codex",
  flags: {},
  subcommands: { "claude-code": hookClaudeSpec, codex: hookCodexSpec, install: hookInstallSpec },
  examples: hookInstallSpec.examples,
});
