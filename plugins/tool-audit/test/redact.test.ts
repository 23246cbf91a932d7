import { describe, expect, it } from "vitest";
import { toolAuditConfigSchema } from "../src/config.ts";
import { createRedactor, DEFAULT_VERBATIM, mergeVerbatim, REDACTION_FAILED, redactValue } from "../src/redact.ts";

const SECRET = "sk-live-SECRET-0123456789";
const redact = createRedactor({ verbatim: mergeVerbatim() });

describe("redaction", () => {
  it("write keeps the path and only the length of its content", () => {
    const out = redact("write", { path: "a.txt", content: `KEY=${SECRET}` });
    expect(out).toEqual({ path: "a.txt", content: { redacted: true, length: SECRET.length + 4 } });
  });

  it("edit keeps path and replaceAll; oldText, newText and every edits[] text are lengths", () => {
    const out = redact("edit", {
      path: "b.ts",
      oldText: SECRET,
      newText: "x",
      replaceAll: true,
      edits: [{ oldText: SECRET, newText: `${SECRET}!` }],
    });
    expect(out).toEqual({
      path: "b.ts",
      oldText: { redacted: true, length: SECRET.length },
      newText: { redacted: true, length: 1 },
      replaceAll: true,
      edits: {
        redacted: true,
        length: 1,
        items: [{ oldText: { redacted: true, length: SECRET.length }, newText: { redacted: true, length: 26 } }],
      },
    });
  });

  it("bash keeps the timeout and never the command", () => {
    const out = redact("bash", { command: `curl -H 'Authorization: ${SECRET}' x`, timeout: 30 });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out).toMatchObject({ timeout: 30, command: { redacted: true } });
  });

  it("grep patterns are redacted by default (they may hold secrets); path and glob are verbatim", () => {
    expect(redact("grep", { pattern: SECRET, path: "src", glob: "*.ts" })).toEqual({
      pattern: { redacted: true, length: SECRET.length },
      path: "src",
      glob: "*.ts",
    });
  });

  it("numbers and booleans are verbatim only when allow-listed", () => {
    expect(redact("read", { path: "a", offset: 10, limit: 5, raw: true })).toEqual({
      path: "a",
      offset: 10,
      limit: 5,
      raw: { redacted: true, type: "boolean" },
    });
    expect(redact("bash", { command: "ls", timeout: 5, retries: 3 })).toMatchObject({
      timeout: 5,
      retries: { redacted: true, type: "number" },
    });
  });

  it("an unknown tool keeps field names and lengths only, however deep the secret is", () => {
    const args = { target: SECRET, nested: { list: [SECRET, 42, { deeper: SECRET }], flag: false }, none: null };
    const out = redact("teleport", args);
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("42");
    expect(out).toEqual({
      target: { redacted: true, length: SECRET.length },
      nested: {
        list: {
          redacted: true,
          length: 3,
          items: [
            { redacted: true, length: SECRET.length },
            { redacted: true, type: "number" },
            { deeper: { redacted: true, length: SECRET.length } },
          ],
        },
        flag: { redacted: true, type: "boolean" },
      },
      none: null,
    });
  });

  it("long arrays keep their full length and at most 100 redacted items", () => {
    const out = redactValue(Array.from({ length: 250 }, () => "x")) as { length: number; items: unknown[] };
    expect(out.length).toBe(250);
    expect(out.items).toHaveLength(100);
  });

  it("a configured list replaces that tool's default list; other tools keep theirs", () => {
    const verbatim = mergeVerbatim({ grep: ["pattern"], deploy: ["env"] });
    const r = createRedactor({ verbatim });
    expect(r("grep", { pattern: "TODO", path: "src" })).toEqual({
      pattern: "TODO",
      path: { redacted: true, length: 3 },
    });
    expect(r("deploy", { env: "staging", token: SECRET })).toEqual({
      env: "staging",
      token: { redacted: true, length: SECRET.length },
    });
    expect(verbatim.read).toEqual(DEFAULT_VERBATIM.read);
  });

  it("write.content, edit texts and bash.command can never be made verbatim", () => {
    const r = createRedactor({ verbatim: mergeVerbatim({ write: ["path", "content"], bash: ["command"] }) });
    expect(JSON.stringify(r("write", { path: "a", content: SECRET }))).not.toContain(SECRET);
    expect(JSON.stringify(r("bash", { command: SECRET }))).not.toContain(SECRET);
    const parsed = toolAuditConfigSchema.safeParse({ verbatim: { write: ["path", "content"] } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain("write.content is never recorded verbatim");
  });

  it("a custom redactor decides for its tool and works on a copy", () => {
    const args = { query: SECRET, limit: 3 };
    const r = createRedactor({
      verbatim: mergeVerbatim(),
      redactors: {
        search: (a) => {
          a.query = "mutated";
          return { queryLength: String(a.query).length, limit: a.limit };
        },
      },
    });
    expect(r("search", args)).toEqual({ queryLength: 7, limit: 3 });
    expect(args.query).toBe(SECRET);
  });

  it("a redactor that throws records redactionFailed, never the raw arguments", () => {
    const failures: string[] = [];
    const r = createRedactor({
      verbatim: mergeVerbatim(),
      redactors: {
        search: () => {
          throw new Error(`cannot handle ${SECRET}`);
        },
        weird: () => ({ big: 1n }),
      },
      onRedactorError: (tool) => failures.push(tool),
    });
    expect(r("search", { query: SECRET })).toEqual(REDACTION_FAILED);
    expect(r("weird", { query: SECRET })).toEqual({ redactionFailed: true });
    expect(failures).toEqual(["search", "weird"]);
  });
});
