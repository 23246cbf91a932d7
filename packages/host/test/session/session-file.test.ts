import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, Message } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { checkSession, NO_RESULT_TEXT, Session } from "../../src/session/index.ts";
import { tempDir } from "../helpers/scenario.ts";

const user = (text: string, t = 1): Message => ({ role: "user", content: text, timestamp: t });
const assistant = (calls: string[], t = 2): AssistantMessage => ({
  role: "assistant",
  content: calls.map((id) => ({ type: "toolCall" as const, id, name: "read", arguments: { path: id } })),
  stopReason: calls.length ? "toolUse" : "stop",
  timestamp: t,
});
const result = (id: string, t = 3): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text: `${id} ok` }],
  isError: false,
  timestamp: t,
});

function fresh(name = "s.jsonl") {
  return join(tempDir("gh-session-"), name);
}

describe("session file", () => {
  it("round-trips every entry type and the leaf", () => {
    const file = fresh();
    const s = Session.create(file, { cwd: "/proj" });
    const m1 = s.appendMessage(user("hi"));
    const custom = s.appendCustom("my-ext", { note: 1 });
    const model = s.appendModelChange("openai:gpt-4.1");
    const label = s.label(m1.id, "start");
    const m2 = s.appendMessage(assistant([]));
    const compaction = s.compact({ summary: "said hi", keepLast: 1 });
    const branch = s.branch(m1.id);
    s.close();
    const reopened = Session.open(file);
    expect(reopened.header).toMatchObject({ type: "session", version: 1, cwd: "/proj" });
    expect(reopened.entries()).toEqual([m1, custom, model, label, m2, compaction, branch]);
    expect(reopened.entries().map((e) => e.type)).toEqual([
      "message",
      "custom",
      "model_change",
      "label",
      "message",
      "compaction",
      "branch",
    ]);
    expect(reopened.leafId).toBe(m1.id);
  });

  it("a branch is persisted even without a later append, and later appends continue from it", () => {
    const file = fresh();
    const s = Session.create(file);
    const a = s.appendMessage(user("a"));
    s.appendMessage(user("b"));
    s.branch(a.id);
    s.close();
    const again = Session.open(file);
    expect(again.leafId).toBe(a.id);
    const c = again.appendMessage(user("c"));
    expect(c.parentId).toBe(a.id);
    expect(again.context().messages.map((m) => m.content)).toEqual(["a", "c"]);
  });

  it("refuses a branch that leaves a call of a batch unanswered: onto the asking message or a first result", () => {
    const file = fresh();
    const s = Session.create(file);
    const prompt = s.appendMessage(user("go"));
    const asks = s.appendMessage(assistant(["A", "B"]));
    const a = s.appendMessage(result("A"));
    const b = s.appendMessage(result("B"));
    s.appendMessage(user("next"));
    const before = readFileSync(file, "utf8");
    expect(() => s.branch(asks.id)).toThrow(
      `Cannot branch onto ${asks.id}: the assistant message ${asks.id} asks for tool calls A (read), B (read) that have no result on that path; branch onto ${b.id} (after its results) or ${prompt.id} (before the model asked).`,
    );
    expect(() => s.branch(a.id)).toThrow(/tool calls B \(read\) that have no result/);
    expect(() => s.branch("nope")).toThrow(/nope/);
    expect(readFileSync(file, "utf8")).toBe(before);
    s.branch(b.id);
    expect(s.context().messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
    s.branch(prompt.id);
    expect(s.leafId).toBe(prompt.id);
  });

  it("custom, label and model_change entries never reach the model", () => {
    const s = Session.create(fresh());
    s.appendMessage(user("a"));
    s.appendCustom("x", { secret: "never sent" });
    s.appendModelChange("m");
    s.appendMessage(user("b"));
    expect(JSON.stringify(s.context().messages)).not.toContain("never sent");
    expect(s.context().messages).toHaveLength(2);
  });

  it("compaction replaces the messages before the kept boundary with the summary; the file keeps them", () => {
    const file = fresh();
    const s = Session.create(file);
    for (let i = 0; i < 5; i++) s.appendMessage(user(`m${i}`, i));
    const before = readFileSync(file, "utf8").split("\n").filter(Boolean).length;
    s.compact({ summary: "five messages", keepLast: 2 });
    const context = s.context().messages;
    expect(context.map((m) => m.content)).toEqual(["[Summary of the conversation so far]\nfive messages", "m3", "m4"]);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(before + 1);
    expect(Session.open(file).context().messages).toEqual(context);
  });

  it("the kept part never starts with a tool result cut off from its call", () => {
    const s = Session.create(fresh());
    s.appendMessage(user("go"));
    s.appendMessage(assistant(["A", "B"]));
    s.appendMessage(result("A"));
    s.appendMessage(result("B"));
    s.compact({ summary: "s", keepLast: 1 });
    expect(s.context().messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
  });

  it("orphaned tool calls get explicit error results in the rebuilt context, placed after the recorded ones", () => {
    const s = Session.create(fresh());
    s.appendMessage(user("go"));
    s.appendMessage(assistant(["A", "B", "C"]));
    s.appendMessage(result("B"));
    const built = s.context();
    expect(built.messages.map((m) => (m.role === "toolResult" ? `${m.toolCallId}:${m.isError}` : m.role))).toEqual([
      "user",
      "assistant",
      "B:false",
      "A:true",
      "C:true",
    ]);
    expect(JSON.stringify(built.synthesized)).toContain(NO_RESULT_TEXT);
    expect(built.orphans.map((o) => o.toolCallId)).toEqual(["A", "C"]);
  });

  it("a torn last line is ignored with a warning, cut off before the next append, and the file stays valid", () => {
    const file = fresh();
    const s = Session.create(file);
    s.appendMessage(user("kept"));
    s.close();
    appendFileSync(file, '{"type":"message","id":"torn","parentId":null,"timest');
    expect(checkSession(file).problems).toContainEqual(expect.objectContaining({ severity: "warning", line: 3 }));
    const reopened = Session.open(file);
    expect(reopened.warnings[0]).toContain(":3: ignored an incomplete last line");
    reopened.appendMessage(user("after"));
    reopened.close();
    expect(checkSession(file)).toMatchObject({ ok: true, problems: [] });
    expect(
      Session.open(file)
        .context()
        .messages.map((m) => m.content),
    ).toEqual(["kept", "after"]);
  });

  it("a corrupt line in the middle is refused with its line number, never dropped", () => {
    const file = fresh();
    const s = Session.create(file);
    s.appendMessage(user("a"));
    s.close();
    appendFileSync(file, "{not json}\n");
    appendFileSync(
      file,
      `${JSON.stringify({ type: "message", id: "z", parentId: null, timestamp: "", message: user("z") })}\n`,
    );
    expect(() => Session.open(file)).toThrow(/s\.jsonl:3: corrupt line/);
    expect(checkSession(file)).toMatchObject({ ok: false });
    expect(checkSession(file).problems).toContainEqual(expect.objectContaining({ severity: "error", line: 3 }));
  });

  it("unknown future entry types are preserved, also when an older file is migrated and rewritten", () => {
    const file = fresh();
    const future = {
      type: "hologram",
      id: "h1",
      parentId: null,
      timestamp: "2030-01-01T00:00:00.000Z",
      payload: [1, 2],
    };
    const header = { type: "session", version: 0, id: "old", cwd: "/p", created: "2020-01-01T00:00:00.000Z" };
    writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(future)}\n`);
    const s = Session.open(file);
    expect(s.warnings.join()).toContain("migrated to session format version 1");
    s.appendMessage(user("new"));
    s.close();
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", version: 1, id: "old" });
    expect(lines[1]).toEqual(future);
    expect(checkSession(file).problems).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        message: expect.stringContaining('unknown entry type "hologram"'),
      }),
    );
  });

  it("a session from a newer format version is refused rather than misread", () => {
    const file = fresh();
    writeFileSync(file, `${JSON.stringify({ type: "session", version: 99, id: "x", cwd: "/", created: "" })}\n`);
    expect(() => Session.open(file)).toThrow(/version 99 is newer/);
  });
});
