import { defineCommand } from "../help/command-spec.ts";
import { CWD, JSON_OUT, TRUST } from "./common-flags.ts";

/** `gatehouse init`. */
export const initExtensionSpec = defineCommand({
  name: "init extension",
  summary: "scaffold a drop-in extension (.gatehouse/extensions/NAME: a typed guard and tool) with a test that runs",
  positionals: [{ name: "NAME", description: "the extension's name, kebab-case (no-lockfile-edits)", required: true }],
  flags: { cwd: CWD, force: { type: "boolean", description: "replace the extension's files if they exist" } },
  examples: [
    { command: "gatehouse init extension no-lockfile-edits", note: "then: npx vitest run .gatehouse/extensions" },
  ],
});

/** `gatehouse init`. */
export const initSpec = defineCommand({
  name: "init",
  summary: "set a project up: settings with both guards, a .gitignore entry, types for drop-in extensions",
  flags: { cwd: CWD, force: { type: "boolean", description: "replace files that already exist" } },
  details: ["gatehouse init extension NAME scaffolds a drop-in extension with its test instead (see its --help)."],
  variants: { extension: initExtensionSpec },
  examples: [
    {
      command: "gatehouse init",
      note: 'then: gatehouse policy check --tool write --args \'{"path":".env","content":"x"}\'',
    },
  ],
});

/** `gatehouse tools`. */
export const toolsSpec = defineCommand({
  name: "tools",
  summary: "list the active tools, where each comes from and what it overrides",
  flags: { cwd: CWD, json: JSON_OUT, trust: TRUST },
  examples: [{ command: "gatehouse tools --json" }],
  exitCodes: [
    { code: 1, meaning: "an extension failed to load (its tools are missing), or an unexpected failure" },
    { code: 2, meaning: "bad usage or input, or a required guard that is not running" },
  ],
});

/** `gatehouse extensions`. */
export const extensionsSpec = defineCommand({
  name: "extensions",
  summary: "list extensions: status, where each was enabled, its config, tools, handlers and errors",
  details: ["CI can gate on it: the exit code says whether every extension loaded."],
  flags: { cwd: CWD, json: JSON_OUT, trust: TRUST },
  examples: [
    { command: "gatehouse extensions --trust", note: "load the project's own extensions too, as a trusted run would" },
  ],
  exitCodes: [
    {
      code: 1,
      meaning: "an extension failed to load (syntax error, throwing setup, bad config), or an unexpected failure",
    },
    { code: 2, meaning: "bad usage or input, or a required guard that is not running (gatehouse run would stop)" },
  ],
});

/** `gatehouse trust`. */
export const trustSpec = defineCommand({
  name: "trust",
  summary: "allow this project's own extension code to run, as it is now",
  details: ["Trust covers every project file an extension loads; editing one of them needs gatehouse trust again."],
  flags: { cwd: CWD, revoke: { type: "boolean", description: "take the trust back" } },
  examples: [{ command: "gatehouse trust --cwd ~/src/my-project" }],
});

/** `gatehouse models`. */
export const modelsSpec = defineCommand({
  name: "models",
  summary: "which model providers have a key (never printed) and the project's default model",
  flags: { cwd: CWD, json: JSON_OUT },
  examples: [{ command: "gatehouse models" }],
});

/** `gatehouse policy check`. */
export const policyCheckSpec = defineCommand({
  name: "policy check",
  summary: "what the pipeline would decide for one tool call, without running it",
  flags: {
    tool: {
      type: "string",
      value: "NAME",
      description: "the tool to call: write, bash, or any extension's tool (required)",
    },
    args: { type: "string", value: "JSON", description: "the call's arguments as a JSON object (required)" },
    cwd: CWD,
    json: JSON_OUT,
    trust: TRUST,
    explain: {
      type: "boolean",
      description: "also list each configuration key, its value and the settings file and line that set it",
    },
  },
  examples: [{ command: 'gatehouse policy check --tool write --args \'{"path":".env","content":"x"}\'' }],
  exitCodes: [
    { code: 0, meaning: "the call would be allowed" },
    { code: 1, meaning: "the call would be refused (blocked, invalid or unknown), or an unexpected failure" },
    { code: 2, meaning: "bad usage or input, or a required guard that is not running (no decision is printed)" },
  ],
});

/** `gatehouse policy`. */
export const policySpec = defineCommand({
  name: "policy",
  summary: "explain the path policy's decision for one call",
  flags: {},
  subcommands: { check: policyCheckSpec },
  examples: policyCheckSpec.examples,
});
