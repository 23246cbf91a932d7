import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A recorded hook payload, with `$PROJECT` standing for the project directory of the test. */
export function recorded(agent: "claude-code" | "codex", name: string, project: string): Record<string, unknown> {
  const all = JSON.parse(readFileSync(join(import.meta.dirname, "payloads", `${agent}.json`), "utf8")) as Record<
    string,
    unknown
  >;
  const payload = all[name];
  if (payload === undefined) throw new Error(`no recorded ${agent} payload named ${name}`);
  return JSON.parse(JSON.stringify(payload).replaceAll("$PROJECT", project)) as Record<string, unknown>;
}
