/**
 * `gatehouse run --resume` without an id: the project's recent sessions, numbered, and a question
 * on the terminal. Without a terminal there is nobody to ask: the command says which ids exist.
 */
import { createInterface } from "node:readline";
import { terminalColumns } from "../color-support.ts";
import { UsageError } from "../help/usage-error.ts";
import type { CliIo } from "../io.ts";
import { sessionChoices } from "./session-store.ts";
import type { SessionSummary } from "./session-summary.ts";
import { sessionTable } from "./session-table.ts";

/** How many sessions the picker offers. */
const OFFERED = 10;

function ask(io: CliIo, question: string): Promise<string> {
  const input = io.stdin as NodeJS.ReadableStream;
  const rl = createInterface({ input, output: io.stderr, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    io.stderr.write(question);
    rl.once("line", (line) => {
      answered = true;
      rl.close();
      resolve(line.trim());
    });
    rl.once("close", () => {
      if (!answered) resolve("q");
    });
  });
}

/**
 * Lets the user choose one of `sessions` (the most recent first).
 * Contract: needs stdin and stderr to be terminals, else a UsageError that lists the ids; an
 * empty answer takes the most recent; `q` or end of input cancels (UsageError); anything but a
 * listed number is a UsageError. Writes only to stderr.
 */
export async function pickSession(io: CliIo, sessions: readonly SessionSummary[]): Promise<SessionSummary> {
  if (sessions.length === 0)
    throw new UsageError("--resume: this project has no sessions yet; start one with gatehouse run");
  if (io.stdin?.isTTY !== true || io.stderr.isTTY !== true) {
    throw new UsageError(`--resume needs an ID when there is no terminal to choose in; ${sessionChoices(sessions)}`);
  }
  const offered = sessions.slice(0, OFFERED);
  const width = (terminalColumns(io.stderr) ?? 80) - 1;
  io.stderr.write(`${sessionTable(offered, { width, numbered: true }).join("\n")}\n`);
  const answer = await ask(io, `resume which session? [1-${offered.length}, Enter: 1, q: cancel] `);
  if (answer === "") return offered[0] as SessionSummary;
  if (answer.toLowerCase() === "q") throw new UsageError("--resume: cancelled");
  const n = Number(answer);
  const chosen = Number.isInteger(n) ? offered[n - 1] : undefined;
  if (!chosen) throw new UsageError(`--resume: "${answer}" is not one of 1-${offered.length}`);
  return chosen;
}
