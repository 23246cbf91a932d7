import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, type Message } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "../../src/host/create-host.ts";
import type { Model, ModelRequest } from "../../src/model/index.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { Session } from "../../src/session/index.ts";
import { call, quietLogger, say, tempDir } from "../helpers/scenario.ts";

/** Wraps a model and keeps the exact JSON of every request's messages (test-only: copies are fine here). */
function recording(inner: Model): Model & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: inner.id,
    seen,
    stream(request: ModelRequest, signal: AbortSignal) {
      seen.push(JSON.stringify(request.messages));
      return inner.stream(request, signal);
    },
  };
}

const turns = [
  {
    content: [
      { type: "text", text: "reading" },
      call("A", "bash", { command: "sleep 0.05; echo a" }),
      call("B", "write", { path: "b.txt", content: "b" }),
    ],
  },
  { content: [call("C", "read", { path: "b.txt" }), call("D", "nope")] },
  say("done"),
];

async function sessionHost(file: string, dir: string, modelTurns: unknown[], extra: Record<string, unknown> = {}) {
  const model = recording(createScriptedModel({ turns: modelTurns } as never));
  const session = Session.openOrCreate(file, { cwd: dir });
  const host = await createHost({ cwd: dir, model, session, logger: quietLogger, ...extra });
  return { host, model, session };
}

describe("sessions through the host", () => {
  it("what is persisted is exactly what each model request received, byte for byte", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const { host, model } = await sessionHost(file, dir, turns);
    await host.run("start");
    await host.close();
    expect(model.seen).toHaveLength(3);
    const reopened = Session.open(file);
    const path = reopened.path();
    // Request i saw the context as it stood just before the model answered: rebuild it at that entry.
    const assistants = path.filter(
      (e) => e.type === "message" && (e as { message: Message }).message.role === "assistant",
    );
    for (const [i, assistant] of assistants.entries()) {
      expect(JSON.stringify(reopened.context(assistant.parentId).messages)).toBe(model.seen[i]);
    }
    expect(JSON.stringify(reopened.context().messages)).toBe(JSON.stringify(host.messages));
  });

  it("--continue semantics: a resumed host starts from the file's context and keeps appending", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const first = await sessionHost(file, dir, turns);
    await first.host.run("start");
    await first.host.close();
    const second = await sessionHost(file, dir, [say("again")]);
    await second.host.run("more");
    await second.host.close();
    expect(second.model.seen[0]).toBe(
      JSON.stringify([
        ...first.host.messages,
        { role: "user", content: "more", timestamp: JSON.parse(second.model.seen[0] as string).at(-1).timestamp },
      ]),
    );
    expect(
      Session.open(file)
        .context()
        .messages.map((m) => m.role)
        .slice(-3),
    ).toEqual(["assistant", "user", "assistant"]);
  });

  it("branch then resume: the next run continues from the chosen entry; the other branch stays in the file", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const first = await sessionHost(file, dir, turns);
    await first.host.run("start");
    await first.host.close();
    const userEntry = Session.open(file).path()[0]!;
    const second = await sessionHost(file, dir, [say("alternative")]);
    second.host.branch(userEntry.id);
    expect(second.host.messages).toHaveLength(1);
    await second.host.run("other way");
    await second.host.close();
    const s = Session.open(file);
    expect(s.context().messages.map((m) => (typeof m.content === "string" ? m.content : m.role))).toEqual([
      "start",
      "other way",
      "assistant",
    ]);
    expect(s.entries().filter((e) => e.type === "message")).toHaveLength(10);
  });

  it("compaction shrinks the next request, keeps every line of the file, and never touches the audit", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const audit = await import("../../../../plugins/tool-audit/src/index.ts");
    const home = tempDir();
    const { host, model } = await sessionHost(file, dir, [...turns, say("after compaction")], {
      extensions: [audit.default],
      env: { GATEHOUSE_HOME: home },
    });
    await host.run("start");
    const auditFile = audit.auditLocation({ home, cwd: dir }).file;
    const auditBefore = readFileSync(auditFile, "utf8");
    const linesBefore = readFileSync(file, "utf8").trim().split("\n").length;
    const outcome = await host.compact({ summary: "ran bash, wrote and read b.txt", keepLast: 1 });
    expect(outcome).toMatchObject({ compacted: true, kept: 1 });
    await host.run("continue");
    await host.close();
    const lastRequest = JSON.parse(model.seen.at(-1) as string) as Message[];
    expect(lastRequest.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(lastRequest[0]?.content).toContain("ran bash, wrote and read b.txt");
    expect(readFileSync(file, "utf8").trim().split("\n").length).toBe(linesBefore + 1 + 2);
    const auditAfter = readFileSync(auditFile, "utf8");
    expect(auditAfter.startsWith(auditBefore)).toBe(true);
    expect(existsSync(auditFile)).toBe(true);
  });

  it("session_before_compact can supply the summary or cancel the compaction", async () => {
    const dir = tempDir();
    const summarizer = defineExtension({
      name: "summarizer",
      setup: (api) =>
        api.on("session_before_compact", (e) => ({ summary: `${e.messages.length} messages summarised` })),
    });
    const { host } = await sessionHost(join(dir, "a.jsonl"), dir, turns, { extensions: [summarizer] });
    await host.run("start");
    expect(await host.compact({ keepLast: 1 })).toMatchObject({ compacted: true });
    expect(host.messages[0]?.content).toContain("summarised");
    await host.close();

    const veto = defineExtension({
      name: "veto",
      setup: (api) => api.on("session_before_compact", () => ({ cancel: true, reason: "keep everything" })),
    });
    const other = await sessionHost(join(dir, "b.jsonl"), dir, turns, { extensions: [veto] });
    await other.host.run("start");
    const before = other.host.messages.length;
    expect(await other.host.compact({ summary: "x", keepLast: 1 })).toEqual({
      compacted: false,
      reason: "cancelled by veto: keep everything",
    });
    expect(other.host.messages).toHaveLength(before);
    await other.host.close();
  });
});
