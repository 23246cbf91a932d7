import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, type ExtensionDefinition } from "@gatehouse/sdk";
import { createTestHost } from "@gatehouse/testing";
import { describe, expect, it } from "vitest";
import { keyFromSecret, readAuditKey } from "../src/audit-key.ts";
import { auditLocation } from "../src/audit-location.ts";
import { toolAuditConfigSchema, toolAuditMergeRules } from "../src/config.ts";
import { createToolAudit } from "../src/extension.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { tempDir } from "./helpers.ts";

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const j = (...parts: string[]) => parts.join("");

async function run(options: {
  turns: unknown[];
  config?: Record<string, unknown>;
  extensions?: ExtensionDefinition[];
  cwd?: string;
  home?: string;
}) {
  const cwd = options.cwd ?? tempDir();
  const home = options.home ?? tempDir("gh-home-");
  const t = await createTestHost({
    cwd,
    home,
    turns: options.turns as never,
    extensions: [createToolAudit(), ...(options.extensions ?? [])],
    config: { "tool-audit": options.config ?? {} },
  });
  const result = await t.run("go");
  await t.close();
  const key = typeof options.config?.key === "string" ? options.config.key : undefined;
  const location = auditLocation({ home, cwd, key });
  return { cwd, home, result, location };
}

describe("the audit key", () => {
  it("is created on first use in the per-user directory, mode 0600, and its id opens every session", async () => {
    const { location, home } = await run({ turns: [say("hi")] });
    expect(location.keyFile).toBe(join(home, "keys", "audit.key"));
    expect(statSync(location.keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, "keys")).mode & 0o777).toBe(0o700);
    const key = readAuditKey(location.keyFile);
    const first = JSON.parse(readFileSync(location.file, "utf8").split("\n")[0]!);
    expect(first).toMatchObject({ kind: "session_start", keyId: key?.id });
    // A second run keeps the same key.
    await run({ turns: [say("again")], home, cwd: (await run({ turns: [say("x")], home })).cwd });
    expect(readAuditKey(location.keyFile)?.id).toBe(key?.id);
  });

  it("a team key named by the settings is used as is, and verifies the log", async () => {
    const keyDir = tempDir("gh-team-");
    const keyFile = join(keyDir, "team.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    const { location, result } = await run({ turns: [say("hi")], config: { key: keyFile } });
    expect(result.stoppedBy).toBeUndefined();
    const key = readAuditKey(keyFile);
    const report = await verifyAuditFile(location.file, { key, sealDir: location.sealDir });
    expect(report.verdict).toBe("intact");
    expect(JSON.parse(readFileSync(location.file, "utf8").split("\n")[0]!).keyId).toBe(key?.id);
  });

  for (const [what, prepare, reason] of [
    [
      "a team key that does not exist",
      (dir: string) => join(dir, "missing.key"),
      /audit key .*missing\.key cannot be read \(ENOENT/,
    ],
    [
      "a team key other users can write",
      (dir: string) => {
        const file = join(dir, "open.key");
        writeFileSync(file, randomBytes(32).toString("hex"));
        chmodSync(file, 0o666);
        return file;
      },
      /is writable by other users/,
    ],
    [
      "a team key that is too short",
      (dir: string) => {
        const file = join(dir, "short.key");
        writeFileSync(file, "abc", { mode: 0o600 });
        return file;
      },
      /is too short \(3 bytes; at least 32\)/,
    ],
    [
      "a team key other users can read (a project naming /etc/passwd)",
      (dir: string) => {
        const file = join(dir, "public.key");
        writeFileSync(file, randomBytes(32).toString("hex"));
        chmodSync(file, 0o644);
        return file;
      },
      /public\.key is readable by other users \(mode 644\)/,
    ],
    [
      "a team key readable by its group",
      (dir: string) => {
        const file = join(dir, "group.key");
        writeFileSync(file, randomBytes(32).toString("hex"));
        chmodSync(file, 0o640);
        return file;
      },
      /group\.key is readable by other users \(mode 640\)/,
    ],
    [
      "a symbolic link to a private key",
      (dir: string) => {
        const file = join(dir, "real.key");
        writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
        symlinkSync(file, join(dir, "link.key"));
        return join(dir, "link.key");
      },
      /link\.key is a symbolic link/,
    ],
  ] as const) {
    it(`${what} is refused before any tool runs, naming the key`, async () => {
      const cwd = tempDir();
      const started = run({
        cwd,
        turns: [{ content: [call("A", "write", { path: "marker.txt", content: "m" })] }, say("done")],
        config: { key: prepare(tempDir("gh-team-")) },
      });
      await expect(started).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
      await expect(started).rejects.toThrow(/config\.tool-audit\.key cannot be used: audit key /);
      await expect(started).rejects.toThrow(reason);
      expect(() => statSync(join(cwd, "marker.txt"))).toThrow();
    });
  }

  it("a key inside the workspace is refused: the agent could read or replace it", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "team.key"), randomBytes(32).toString("hex"));
    const started = run({ cwd, turns: [say("hi")], config: { key: "team.key" } });
    await expect(started).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
    await expect(started).rejects.toThrow(/config\.tool-audit\.key .*team\.key is inside the workspace/);
  });

  it("a Gatehouse directory inside the workspace is refused: the log and key would be within the agent's reach", async () => {
    const cwd = tempDir();
    const started = run({ cwd, home: join(cwd, ".gh-home"), turns: [say("hi")] });
    await expect(started).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
    await expect(started).rejects.toThrow(
      /the Gatehouse directory \(GATEHOUSE_HOME\) holding the audit log .* is inside the workspace/,
    );
    expect(() => statSync(join(cwd, ".gh-home", "keys"))).toThrow();
  });

  it("the per-user key open to other users is refused, not used", async () => {
    const home = tempDir("gh-home-");
    await run({ home, turns: [say("one")] });
    chmodSync(join(home, "keys", "audit.key"), 0o644);
    const { result } = await run({ home, turns: [say("two")] });
    expect(result.stoppedBy?.reason).toMatch(/audit key .* is readable by other users \(mode 644\)/);
  });

  it("its MAC is HMAC-SHA256 keyed with the hex of the derived records key (documented for other verifiers)", async () => {
    const secret = randomBytes(32);
    const key = keyFromSecret(secret, "k");
    const { createHmac } = await import("node:crypto");
    const derived = createHmac("sha256", secret).update("gatehouse-audit/records/v2").digest("hex");
    const { macOf } = await import("../src/record.ts");
    expect(macOf('{"a":1}', key.records)).toBe(createHmac("sha256", derived).update('{"a":1}').digest("hex"));
    // Bodies of every size around the hash's 64-byte blocks, in several scripts, under fresh keys:
    // the same MAC as the library's HMAC, call after call (its buffers are reused).
    const texts = ["a", "é", "€", "日本", "🔒", '\\"'];
    for (let n = 0; n < 300; n++) {
      const s2 = randomBytes(32);
      const k = keyFromSecret(s2, "k");
      const d2 = createHmac("sha256", s2).update("gatehouse-audit/records/v2").digest("hex");
      const body = `{"n":${n},"t":"${(texts[n % texts.length] as string).repeat(n)}"}`;
      expect(macOf(body, k.records)).toBe(createHmac("sha256", d2).update(body).digest("hex"));
      expect(macOf(body, key.records)).toBe(createHmac("sha256", derived).update(body).digest("hex"));
    }
  });
});

describe("keys derived once per process", () => {
  it("gives the same frozen key for the same file and secret, and derives anew for any other", () => {
    const secret = randomBytes(32);
    const key = keyFromSecret(secret, "a.key");
    expect(Object.isFrozen(key)).toBe(true);
    expect(keyFromSecret(Buffer.from(secret), "a.key")).toBe(key);
    const other = keyFromSecret(randomBytes(32), "a.key");
    expect(other.id).not.toBe(key.id);
    // The same secret in another file is another key object (its `file` differs), with the same MACs.
    const moved = keyFromSecret(secret, "b.key");
    expect(moved).not.toBe(key);
    expect(moved.file).toBe("b.key");
    expect(moved.id).toBe(key.id);
    expect(() => keyFromSecret(secret.subarray(0, 31), "a.key")).toThrow(/too short/);
  });
});

describe("secrets in what the audit keeps verbatim", () => {
  const AWS = j("AKIA", "IOSFODNN7", "EXAMPLE");
  const LIVE = j("sk-", "live-", "SECRET-0123456789abc");
  const GH = j("ghp_", "16C7e42F292c6912E7710c838347Ae178B4a");
  const JWT = j("eyJhbGciOiJIUzI1NiJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N");

  it("paths, patterns, globs, argument names, tool names, call ids and reasons are all scrubbed", async () => {
    const guard = defineExtension({
      name: "guard",
      setup: (api) =>
        api.on(
          "tool_call",
          (e) => (e.toolName === "write" ? { block: true, reason: `refused: token ${GH} is not allowed` } : undefined),
          { stage: "enforce" },
        ),
    });
    const { location, home, cwd } = await run({
      extensions: [guard],
      config: { verbatim: { grep: ["pattern", "path", "glob"] } },
      turns: [
        {
          content: [
            call("A", "read", { path: AWS }),
            call("B", "grep", { pattern: LIVE, path: ".", glob: `*${JWT}*` }),
            call("C", "write", { path: "x.txt", content: "y" }),
            call(GH, "ls", { path: `DB_PASSWORD=hunter2-${AWS}` }),
            call("E", `tool_${LIVE}`, { [`API_KEY=${LIVE}`]: 1 }),
          ],
        },
        say("done"),
      ],
    });
    const text = readFileSync(location.file, "utf8");
    for (const secret of [AWS, LIVE, GH, JWT, "hunter2"]) expect(text).not.toContain(secret);
    for (const shape of ["aws-access-key", "api-key", "github-token", "jwt", "assignment"]) {
      expect(text).toContain(`[REDACTED:${shape}]`);
    }
    const starts = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.kind === "call_start");
    expect(starts.find((r) => r.toolCallId === "A").args).toEqual({ path: "[REDACTED:aws-access-key]" });
    expect(starts.find((r) => r.toolCallId === "B").args).toEqual({
      pattern: "[REDACTED:api-key]",
      path: ".",
      glob: "*[REDACTED:jwt]*",
    });
    // The scrubbed log still verifies: scrubbing happens before the MAC.
    const key = readAuditKey(location.keyFile);
    expect((await verifyAuditFile(location.file, { key, sealDir: location.sealDir })).verdict).toBe("intact");
    expect(home).not.toBe(cwd);
  });
});

describe("merge rules", () => {
  it("every key of the settings section has a rule; where the log goes and what signs it are pinned", () => {
    expect(Object.keys(toolAuditMergeRules).sort()).toEqual(Object.keys(toolAuditConfigSchema.shape).sort());
    expect(toolAuditMergeRules).toMatchObject({
      file: "pinned",
      key: "pinned",
      allowWorkspaceFile: "pinned",
      onWriteError: { stricter: ["warn", "stop"] },
      fsync: { stricter: ["batch", "every"] },
    });
  });
});
