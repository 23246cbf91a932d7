import { defineCommand } from "../help/command-spec.ts";
import { CWD, JSON_OUT } from "./common-flags.ts";

const FILE_ARG = {
  name: "FILE",
  description: "an audit log; default: the project's (config.tool-audit.file, else its log in the per-user directory)",
} as const;

/** What every audit command returns for a log that is missing, emptied or unusable. */
const ABSENT = [
  {
    code: 1,
    meaning: "the log or key cannot be used as it is (not a regular file, open to others, …), or an unexpected failure",
  },
  { code: 5, meaning: "no audit log yet (missing or empty, nothing sealed)" },
  { code: 9, meaning: "the log is missing or empty although its seals vouch for records: deleted or emptied" },
] as const;

export const verifySpec = defineCommand({
  name: "audit verify",
  summary: "check every record's MAC, the hash chain and the seals: tampering, truncation, deletion",
  positionals: [FILE_ARG],
  flags: {
    cwd: CWD,
    key: {
      type: "string",
      value: "FILE",
      description: "the key to authenticate with (default: the configured or per-user key)",
    },
    seals: {
      type: "string",
      value: "DIR",
      description: "where the log's seals are (default: its folder in the per-user directory)",
    },
    json: JSON_OUT,
  },
  examples: [{ command: "gatehouse audit verify --cwd examples/demo/workspace" }],
  exitCodes: [
    { code: 0, meaning: "intact: every MAC, chain and seal verified" },
    ABSENT[0],
    { code: 3, meaning: "unsealed tail: a run did not close (killed or crashed); the sealed part verifies" },
    { code: 4, meaning: "not authenticated: no key, so only the structure was checked" },
    ABSENT[1],
    { code: 6, meaning: "tampered at line N: a record modified, forged, inserted or deleted; a seal deleted" },
    { code: 7, meaning: "truncated: the seal says N records, the log has M" },
    { code: 8, meaning: "a session was deleted" },
    { code: 9, meaning: "the log was emptied or replaced" },
    { code: 10, meaning: "records were reordered" },
  ],
});

export const tailSpec = defineCommand({
  name: "audit tail",
  summary: "print the last records: time, session, kind, tool, call id, outcome and paths",
  positionals: [FILE_ARG],
  flags: {
    lines: { type: "string", value: "N", short: "n", description: "how many records (default 10)" },
    follow: { type: "boolean", short: "f", description: "keep printing records as they are appended, until Ctrl-C" },
    json: { type: "boolean", description: "print the records as they are in the log (JSON lines)" },
    cwd: CWD,
  },
  examples: [{ command: "gatehouse audit tail -n 20 --follow" }],
  exitCodes: [...ABSENT],
});

export const statsSpec = defineCommand({
  name: "audit stats",
  summary: "count records, sessions and calls per tool and outcome",
  positionals: [FILE_ARG],
  flags: { cwd: CWD, json: JSON_OUT },
  examples: [{ command: "gatehouse audit stats" }],
  exitCodes: [...ABSENT],
});

/** `gatehouse audit`. */
export const auditSpec = defineCommand({
  name: "audit",
  summary: "verify, tail or count the tamper-evident audit log",
  flags: {},
  subcommands: { verify: verifySpec, tail: tailSpec, stats: statsSpec },
  examples: verifySpec.examples,
});
