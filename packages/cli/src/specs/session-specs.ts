import { defineCommand } from "../help/command-spec.ts";
import { CWD, JSON_OUT } from "./common-flags.ts";

const SESSION_ARG = {
  name: "SESSION",
  description: "a session ID of this project (a prefix is enough) or a session file; default: the last session",
} as const;

/** `gatehouse sessions`. */
export const sessionsSpec = defineCommand({
  name: "sessions",
  summary: "list this project's recorded sessions, the latest first",
  flags: {
    cwd: CWD,
    json: JSON_OUT,
    limit: { type: "string", value: "N", description: "show at most N sessions (default 20; 0 shows all)" },
  },
  examples: [{ command: "gatehouse sessions", note: 'then: gatehouse run --resume ID "…"' }],
});

export const sessionShowSpec = defineCommand({
  name: "session show",
  summary: "print a session's tree of entries, * on the current path",
  positionals: [SESSION_ARG],
  flags: { cwd: CWD },
  examples: [{ command: "gatehouse session show", note: "the ids it prints are what run --branch takes" }],
});

export const sessionCheckSpec = defineCommand({
  name: "session check",
  summary: "report torn or corrupt lines, broken parents and tool calls without a result",
  positionals: [SESSION_ARG],
  flags: { cwd: CWD, json: JSON_OUT },
  examples: [{ command: "gatehouse session check work.jsonl" }],
  exitCodes: [{ code: 1, meaning: "the session has errors (listed), or an unexpected failure" }],
});

/** `gatehouse session`. */
export const sessionSpec = defineCommand({
  name: "session",
  summary: "show or check one session",
  flags: {},
  subcommands: { show: sessionShowSpec, check: sessionCheckSpec },
  examples: sessionShowSpec.examples,
});
