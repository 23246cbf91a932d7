import type { ExtensionRecord } from "@gatehouse/host";

/**
 * One line per extension that did not load, and per problem of one that did (a tool name another
 * extension already holds), for stderr: nothing is skipped, fails or is shadowed silently.
 * Contract: returns "" when every extension loaded cleanly.
 */
export function extensionNotices(records: readonly ExtensionRecord[]): string {
  const lines: string[] = [];
  const skipped = records.filter((r) => r.status === "skipped");
  const failed = records.filter((r) => r.status === "failed");
  for (const r of failed)
    lines.push(`gatehouse: extension ${r.name} (${r.source}) failed to load: ${r.errors[0] ?? "unknown error"}`);
  for (const r of records.filter((record) => record.status === "loaded"))
    for (const error of r.errors) lines.push(`gatehouse: extension ${r.name} (${r.source}): ${error}`);
  if (skipped.length > 0) {
    const names = skipped.map((r) => r.name).join(", ");
    lines.push(
      `gatehouse: skipped ${skipped.length} extension${skipped.length === 1 ? "" : "s"} (${names}): ${skipped[0]?.errors[0] ?? ""}`,
    );
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
