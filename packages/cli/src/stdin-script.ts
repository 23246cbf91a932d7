import { GatehouseError, parseScript, type Script } from "@gatehouse/host";
import { usageError } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { runSpec } from "./specs/index.ts";

/** How `--script -` names standard input in messages (`<stdin>:3:7: turns[0]...`). */
export const STDIN_SCRIPT = "<stdin>";

/**
 * The script piped to `gatehouse run --script -` (`generate-script | gatehouse run --script -`).
 * Contract: a terminal on stdin is a usage error (exit 2) rather than a silent wait for typing;
 * bytes that are not UTF-8 and malformed or invalid JSON are `GH_SCRIPT_INVALID`/`GH_JSON_SYNTAX`
 * naming `<stdin>` with line and column, exactly as a script file is reported. A leading
 * byte-order mark is ignored.
 */
export async function readStdinScript(io: CliIo): Promise<Script> {
  const input = io.stdin;
  if (!input || input.isTTY === true) {
    throw usageError(
      runSpec,
      "--script - reads the script from standard input, which is a terminal: pipe it in (gatehouse run --script - < script.json)",
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new GatehouseError("GH_SCRIPT_INVALID", `${STDIN_SCRIPT}: bytes that are not UTF-8 — expected UTF-8 text`);
  }
  return parseScript(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, STDIN_SCRIPT);
}
