/** The rows `gatehouse sessions` and the --resume picker print: id, last active, messages, first prompt. */
import { truncateToWidth } from "../view/text-width.ts";
import type { SessionSummary } from "./session-summary.ts";

/** `2025-06-01 14:02` in local time, or `?` when unknown. */
export function localTime(iso: string): string {
  if (iso === "") return "?";
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * One aligned row per session, each cut to `width` columns; `numbered` puts `1.` `2.` … first.
 * Contract: the header row comes first; a session that could not be read shows its problem.
 */
export function sessionTable(
  sessions: readonly SessionSummary[],
  options: { width: number; numbered?: boolean },
): string[] {
  const mark = (i: number) => (options.numbered ? `${String(i + 1).padStart(2)}. ` : "");
  const pad = options.numbered ? "    " : "";
  const rows = [`${pad}ID        LAST ACTIVE       MESSAGES  FIRST PROMPT`];
  sessions.forEach((s, i) => {
    const prompt = s.firstPrompt || "(no prompt)";
    const what = s.problem ? `(${s.problem}: gatehouse session check ${s.id}) ${prompt}` : prompt;
    const row = `${mark(i)}${s.id}  ${localTime(s.modified).padEnd(16)}  ${String(s.messages).padStart(8)}  ${what}`;
    rows.push(truncateToWidth(row, options.width));
  });
  return rows;
}
