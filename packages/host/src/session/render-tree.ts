import type { Message } from "@gatehouse/sdk";
import type { Session } from "./session.ts";
import type { SessionEntry } from "./session-format.ts";

function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function describeMessage(message: Message): string {
  if (message.role === "user") {
    const text =
      typeof message.content === "string"
        ? message.content
        : message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join(" ");
    return `user       ${JSON.stringify(oneLine(text))}`;
  }
  if (message.role === "toolResult") {
    const text = message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join(" ");
    return `result     ${message.toolCallId}${message.isError ? " (error)" : ""} ${JSON.stringify(oneLine(text, 40))}`;
  }
  const parts = message.content.map((c) =>
    c.type === "text"
      ? JSON.stringify(oneLine(c.text, 40))
      : c.type === "thinking"
        ? "(thinking)"
        : `${c.name}#${c.id}`,
  );
  const stop = message.stopReason === "error" || message.stopReason === "aborted" ? ` [${message.stopReason}]` : "";
  return `assistant  ${parts.join(" · ")}${stop}`;
}

function describe(entry: SessionEntry): string {
  switch (entry.type) {
    case "message":
      return describeMessage((entry as { message: Message }).message);
    case "compaction":
      return `compaction keeps from ${(entry as { firstKeptEntryId: string }).firstKeptEntryId}: ${JSON.stringify(oneLine((entry as { summary: string }).summary, 40))}`;
    case "custom":
      return `custom     (${(entry as { extension: string }).extension})`;
    case "model_change":
      return `model      ${(entry as { model: string }).model}`;
    default:
      return `${entry.type} (unknown type, kept)`;
  }
}

/**
 * The session as a readable tree: one line per entry, linear runs at the same depth, an indent at
 * every branch point, `*` on the current path and labels next to their entries.
 */
export function renderSessionTree(session: Session): string {
  const entries = session.entries();
  const children = new Map<string | null, SessionEntry[]>();
  const labels = new Map<string, string[]>();
  for (const e of entries) {
    if (e.type === "label") {
      const target = (e as { targetId: string }).targetId;
      labels.set(target, [...(labels.get(target) ?? []), (e as { label: string }).label]);
      continue;
    }
    if (e.type === "branch") continue;
    children.set(e.parentId, [...(children.get(e.parentId) ?? []), e]);
  }
  const onPath = new Set(session.path().map((e) => e.id));
  const lines = [`session ${session.header.id} · ${session.header.cwd} · created ${session.header.created}`];
  const walk = (parent: string | null, indent: string) => {
    let kids = children.get(parent) ?? [];
    while (kids.length > 0) {
      const branching = kids.length > 1;
      for (const [i, kid] of kids.entries()) {
        const mark = onPath.has(kid.id) ? "*" : " ";
        const leaf = kid.id === session.leafId ? "  ← leaf" : "";
        const label =
          labels
            .get(kid.id)
            ?.map((l) => `  [${l}]`)
            .join("") ?? "";
        const branch = branching ? (i === kids.length - 1 ? "└─ " : "├─ ") : "";
        lines.push(`${indent}${branch}${mark} ${kid.id}  ${describe(kid)}${label}${leaf}`);
        if (branching) walk(kid.id, `${indent}${i === kids.length - 1 ? "   " : "│  "}`);
      }
      if (branching) return;
      kids = children.get((kids[0] as SessionEntry).id) ?? [];
    }
  };
  walk(null, "");
  return `${lines.join("\n")}\n`;
}
