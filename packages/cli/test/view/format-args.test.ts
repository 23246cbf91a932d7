import { describe, expect, it } from "vitest";
import { formatArgs } from "../../src/view/format-args.ts";

const fmt = (toolName: string, args: unknown): string => formatArgs({ toolName, args });

describe("formatArgs", () => {
  it.each([
    ["read", { path: "src/a.ts" }, "src/a.ts"],
    ["read", { path: "src/a.ts", offset: 10, limit: 31 }, "src/a.ts:10-40"],
    ["read", { path: "src/a.ts", offset: 10 }, "src/a.ts:10-"],
    ["read", { path: "src/a.ts", limit: 20 }, "src/a.ts:1-20"],
    ["write", { path: "playground/x.txt", content: "hello world\n" }, "playground/x.txt"],
    ["edit", { path: "a.ts", oldText: "abc", newText: "abcdef" }, "a.ts"],
    ["edit", { path: "a.ts", edits: [{ oldText: "a", newText: "b" }, {}] }, "a.ts"],
    ["ls", {}, "."],
    ["ls", { path: "src" }, "src"],
    ["find", { pattern: "*.ts", path: "src" }, "*.ts in src"],
    ["grep", { pattern: "TODO", path: "src", glob: "*.ts" }, "/TODO/ in src (*.ts)"],
    ["grep", { pattern: "x" }, "/x/"],
    ["bash", { command: "sleep 0.2;\n  echo A" }, "sleep 0.2; echo A"],
  ])("summarizes %s %j as %j", (tool, args, expected) => {
    expect(fmt(tool, args)).toBe(expected);
  });

  it.each([
    ["a lone string field shows its value", { name: "Ada" }, "Ada"],
    [
      "several fields become key=value pairs",
      { env: "prod", force: true, n: 3, x: null },
      "env=prod force=true n=3 x=null",
    ],
    ["strings with spaces are quoted", { a: "two words", b: "" }, 'a="two words" b=""'],
    ["long strings become lengths", { a: "x".repeat(41), b: "y" }, "a=<41 chars> b=y"],
    ["large-text fields become lengths even when short", { content: "hi", path: "p" }, "content=<2 chars> path=p"],
    ["a short text is shown, like any short string", { text: "hi" }, "hi"],
    ["a lone large-text field is still a length", { content: "hi" }, "content=<2 chars>"],
    ["arrays and objects become sizes", { items: [1, 2, 3], opts: { deep: "secret" } }, "items=[3] opts={…}"],
    ["no arguments give nothing", {}, ""],
    [
      "credential-named fields become lengths, however short",
      { user: "ada", password: "hunter2", apiKey: "k1", accessToken: "t", author: "Bo" },
      "user=ada password=[REDACTED:assignment] apiKey=[REDACTED:assignment] accessToken=[REDACTED:assignment] author=Bo",
    ],
    [
      "credential fields stay redacted when quoted, long or not strings",
      { password: "two words", token: "t".repeat(50), cookie: { sid: 1 } },
      "password=[REDACTED:assignment] token=[REDACTED:assignment] cookie=[REDACTED:assignment]",
    ],
    ["a lone credential field is not shown bare", { client_secret: "s3cr3t" }, "client_secret=[REDACTED:assignment]"],
  ])("falls back for custom tools: %s", (_name, args, expected) => {
    expect(fmt("custom", args)).toBe(expected);
  });

  it("falls back when a built-in's arguments have the wrong shape", () => {
    expect(fmt("write", { path: 42, content: "X=1" })).toBe("path=42 content=<3 chars>");
    expect(fmt("bash", { cmd: "ls" })).toBe("ls");
    expect(fmt("read", "not an object")).toBe("");
  });

  it("does not treat names from Object.prototype as built-ins", () => {
    expect(fmt("toString", { a: 1 })).toBe("a=1");
    expect(fmt("constructor", { a: 1 })).toBe("a=1");
  });

  it.each([
    [
      "bash",
      { command: "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' x" },
      "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' x",
    ],
    ["grep", { pattern: "AKIAABCDEFGHIJKLMNOP" }, "/[REDACTED:aws-access-key]/"],
    ["read", { path: "ghp_abcdefghijklmnopqrstuvwxyz0123456789.txt" }, "[REDACTED:github-token].txt"],
    ["custom", { url: "https://user:hunter2secret@example.com/x" }, "https://[REDACTED:url-credentials]@example.com/x"],
  ])("scrubs secret shapes from %s arguments like the audit does", (tool, args, expected) => {
    expect(fmt(tool, args)).toBe(expected);
  });

  it("scrubs a secret that starts inside the shown part of a huge command before cutting it", () => {
    const summary = fmt("bash", { command: `${"x".repeat(390)} sk-ant-${"a".repeat(40)} ${"y".repeat(5000)}` });
    expect(summary).not.toContain("sk-ant-aaaa");
    expect(summary.length).toBe(400);
  });

  it("caps a huge command and removes control characters", () => {
    const summary = fmt("bash", { command: `echo \u001b[31m${"z".repeat(10_000)}` });
    expect(summary.length).toBe(400);
    expect(summary.endsWith("…")).toBe(true);
    expect(summary).not.toContain("\u001b");
  });
});
