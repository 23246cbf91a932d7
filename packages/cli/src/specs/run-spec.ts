import { defineCommand } from "../help/command-spec.ts";
import { CWD } from "./common-flags.ts";

/** `gatehouse run`. */
export const runSpec = defineCommand({
  name: "run",
  summary: "run the agent on a prompt, with the offline scripted model or a real one",
  details: [
    "Every run is recorded as a session in the per-user Gatehouse directory, one folder per project: --continue picks up the last one, --resume ID any other, gatehouse sessions lists them.",
  ],
  positionals: [
    {
      name: "PROMPT",
      variadic: true,
      description: "what to ask (default: the script's prompt); quote it or pass several words",
    },
  ],
  flags: {
    script: {
      type: "string",
      value: "FILE",
      description: "replay a JSON script with the built-in scripted model (offline); - reads it from standard input",
    },
    model: {
      type: "string",
      value: "PROVIDER:MODEL",
      description:
        "a real model: openai:gpt-4.1, anthropic:claude-sonnet-4-5, openai-compatible:NAME (keys come from the environment)",
    },
    "base-url": {
      type: "string",
      value: "URL",
      description: "the server of an openai-compatible model (Ollama, vLLM, LM Studio)",
    },
    cwd: CWD,
    json: { type: "boolean", description: "print every event as one JSON line on stdout instead of the live view" },
    sequential: { type: "boolean", description: "run the tool calls of a turn one after another" },
    "max-turns": { type: "string", value: "N", description: "stop after N model turns (a safety limit)" },
    trust: {
      type: "boolean",
      description: "load this project's own extensions for this run without recording trust (see gatehouse trust)",
    },
    watch: {
      type: "boolean",
      description: "reload extensions and settings when they change; each reload applies at the next turn",
    },
    continue: {
      type: "boolean",
      short: "c",
      description: "continue this project's last session (or the --session FILE)",
    },
    resume: {
      type: "string",
      value: "ID",
      optionalValue: true,
      short: "r",
      description: "continue the session ID of this project (an ID prefix is enough); without ID, choose from a list",
    },
    branch: {
      type: "string",
      value: "ENTRY_ID",
      description: "continue the session from an earlier entry (ids: gatehouse session show) instead of its last one",
    },
    session: {
      type: "string",
      value: "FILE",
      description: "record the session in FILE instead of the per-user directory",
    },
    "no-session": { type: "boolean", description: "record no session for this run" },
  },
  examples: [
    { command: 'gatehouse run "fix the failing test" --model anthropic:claude-sonnet-4-5' },
    {
      command: "gatehouse run --script examples/demo/script.json --cwd examples/demo/workspace",
      note: "offline, no key needed",
    },
    { command: 'gatehouse run -c "now add a test for it" --model openai:gpt-4.1', note: "continue the last session" },
  ],
  exitCodes: [
    { code: 0, meaning: "the run finished (tool errors are results for the model, not failures)" },
    {
      code: 1,
      meaning:
        "the model ended in an error or its answer was aborted (not by Ctrl-C), an extension stopped the run, or an unexpected failure",
    },
    {
      code: 2,
      meaning:
        "bad usage or input: a flag, the script, --cwd, the session, a required guard that cannot run, an unusable GATEHOUSE_HOME",
    },
    { code: 129, meaning: "stopped by SIGHUP (the terminal closed), like Ctrl-C" },
    { code: 130, meaning: "interrupted (Ctrl-C)" },
    { code: 143, meaning: "stopped by SIGTERM (a timeout, docker stop), like Ctrl-C: session and audit closed" },
  ],
});
