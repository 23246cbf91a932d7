import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeProject, type TestProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { auditPath, readAuditLines, sealDirOf } from "./audit-lines.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// Every tamper case of issue 11, on a real log written by real runs, judged by the real CLI:
// each case gets its own copy of the Gatehouse home (log, seals, key), tampered, then
// `gatehouse audit verify --cwd PROJECT` must name it with its own exit code.

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
const done = { content: [{ type: "text", text: "done" }] };

/** Two turns: a refused write to .env and an allowed one, then an ls. */
const turns = (tag: string) => [
  {
    content: [
      call(`${tag}-env`, "write", { path: ".env", content: "X=1" }),
      call(`${tag}-ok`, "write", { path: `playground/${tag}.txt`, content: tag }),
    ],
  },
  { content: [call(`${tag}-ls`, "ls", { path: "." })] },
  done,
];

/** What an attacker without the key does after the run: rewrite lines and recompute the chain with sha256. */
function forgeWithoutKey(lines: string[], change: (record: Record<string, unknown>) => boolean): string[] {
  const prev = new Map<string, string>();
  let changed = false;
  return lines.map((text) => {
    const record = JSON.parse(text) as Record<string, unknown>;
    const session = String(record.session);
    changed = change(record) || changed;
    if (changed && prev.has(session)) record.prev = prev.get(session);
    delete record.mac;
    const body = JSON.stringify(record);
    const mac = changed ? createHash("sha256").update(body).digest("hex") : String(JSON.parse(text).mac);
    prev.set(session, mac);
    return `${body.slice(0, -1)},"mac":"${mac}"}`;
  });
}

// The cases only read the project and each works on its own copy of the home: they run concurrently.
describe.concurrent("audit verify on a tampered log: verdict and exit code for each case", () => {
  let p: TestProject;
  let log: string;
  let original: string[];

  beforeAll(async () => {
    p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }),
      "playground/.keep": "",
    });
    execFileSync("git", ["init", "-q"], { cwd: p.dir });
    for (const tag of ["one", "two", "three"]) {
      const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns(tag))], { env: p.env });
      expect([run.code, run.stderr]).toEqual([0, ""]);
    }
    log = auditPath(p);
    original = readAuditLines(log).lines.map((l) => l.text);
  }, 60_000);

  /** A copy of the home with the log's lines replaced (or the log and seals changed by `act`). */
  function variant(act: (files: { log: string; seals: string; home: string }) => void): NodeJS.ProcessEnv {
    const home = tempDir("gh-home-copy-");
    cpSync(p.home, home, { recursive: true });
    const copy = join(home, log.slice(p.home.length));
    // Seals are filed under the log's path, which the copy changes.
    renameSync(join(home, sealDirOf(p.home, log).slice(p.home.length)), sealDirOf(home, copy));
    act({ log: copy, seals: sealDirOf(home, copy), home });
    return { GATEHOUSE_HOME: home };
  }
  const withLines = (lines: string[]) =>
    variant(({ log: file }) => writeFileSync(file, lines.map((l) => `${l}\n`).join("")));
  const verify = (env: NodeJS.ProcessEnv, ...extra: string[]) =>
    runCli(["audit", "verify", "--cwd", p.dir, ...extra], { env });
  const sessionLines = (n: number) => {
    const ids = [...new Set(original.map((l) => JSON.parse(l).session as string))];
    return original.filter((l) => JSON.parse(l).session === ids[n]);
  };

  it("the untouched log is intact (exit 0); without the key it is 'not authenticated' (exit 4)", async () => {
    const intact = await verify(p.env);
    expect([intact.code, intact.stderr]).toEqual([0, ""]);
    expect(intact.stdout).toContain(`INTACT: ${original.length} records in 3 sessions, 3 seals`);
    const noKey = await verify(variant(({ home }) => rmSync(join(home, "keys"), { recursive: true })));
    expect(noKey.code).toBe(4);
    expect(noKey.stdout).toContain("NOT AUTHENTICATED (no key): the structure is intact");
  });

  it("git clean -fdx in the workspace leaves the audit untouched (exit 0)", async () => {
    execFileSync("git", ["clean", "-fdxq"], { cwd: p.dir });
    expect(existsSync(join(p.dir, "playground"))).toBe(false);
    const after = await verify(p.env);
    expect(after.code).toBe(0);
    expect(readAuditLines(log).lines.map((l) => l.text)).toEqual(original);
  });

  for (const [where, index] of [
    ["first", 0],
    ["middle", 4],
    ["last", -1],
  ] as const) {
    it(`an edited ${where} record: TAMPERED at its line (exit 6)`, async () => {
      const lines = [...original];
      const at = index < 0 ? lines.length - 1 : index;
      lines[at] = lines[at]!.replace('"turn":', '"turn":1');
      const result = await verify(withLines(lines));
      expect(result.code).toBe(6);
      expect(result.stdout).toContain(`TAMPERED at line ${at + 1}: seq`);
    });
  }

  it("a blocked call rewritten to executed after the run, chain recomputed without the key: TAMPERED at that line (exit 6)", async () => {
    const at = original.findIndex((l) => l.includes('"outcome":"blocked"'));
    expect(at).toBeGreaterThan(0);
    const forged = forgeWithoutKey(original, (r) => {
      if (r.outcome !== "blocked" || r.toolCallId !== "two-env") return false;
      r.outcome = "executed";
      r.isError = false;
      delete r.blockedBy;
      delete r.reason;
      return true;
    });
    const line = forged.findIndex((l) => l.includes('"toolCallId":"two-env","tool":"write","outcome":"executed"'));
    const result = await verify(withLines(forged));
    expect(result.code).toBe(6);
    expect(result.stdout).toContain(`TAMPERED at line ${line + 1}:`);
  });

  it("a deleted middle record: TAMPERED where the gap is (exit 6)", async () => {
    const lines = original.filter((_, i) => i !== 3);
    const result = await verify(withLines(lines));
    expect(result.code).toBe(6);
    expect(result.stdout).toMatch(/TAMPERED at line 4: seq 3 of session \w+ missing between line 3 and line 4/);
  });

  it("a deleted session: SESSION DELETED (exit 8)", async () => {
    const second = new Set(sessionLines(1));
    const result = await verify(withLines(original.filter((l) => !second.has(l))));
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(
      /SESSION DELETED: session \w+ \(#2, \d+ records, closed\) is sealed but not in the log/,
    );
  });

  it("a truncated tail: TRUNCATED, the seal's count against the log's (exit 7)", async () => {
    const result = await verify(withLines(original.slice(0, -2)));
    expect(result.code).toBe(7);
    const last = sessionLines(2).length;
    expect(result.stdout).toContain(`its seal says ${last} records, the log has ${last - 2}`);
  });

  it("an emptied log and a deleted log: LOG EMPTIED OR REPLACED (exit 9)", async () => {
    const emptied = await verify(variant(({ log: file }) => writeFileSync(file, "")));
    expect(emptied.code).toBe(9);
    expect(emptied.stdout).toContain("the log is empty, but 3 session(s)");
    const deleted = await verify(variant(({ log: file }) => rmSync(file)));
    expect(deleted.code).toBe(9);
    expect(deleted.stdout).toContain("the log is missing, but 3 session(s)");
  });

  it("a log replaced by a forged chain made without the key: LOG EMPTIED OR REPLACED (exit 9)", async () => {
    const forged = forgeWithoutKey(
      original.map((l) => l.replaceAll(/"session":"[0-9a-f-]{8}/g, '"session":"00000000')),
      () => true,
    );
    const result = await verify(withLines(forged));
    expect(result.code).toBe(9);
    expect(result.stdout).toContain("none of the 3 sealed session(s) is in the log: it was replaced");
  });

  it("sessions reordered: REORDERED (exit 10)", async () => {
    const result = await verify(withLines([...sessionLines(1), ...sessionLines(0), ...sessionLines(2)]));
    expect(result.code).toBe(10);
    expect(result.stdout).toMatch(
      /REORDERED at line \d+: session \w+ \(#2\) started at line 1 after session #1 had finished/,
    );
  });

  it("verify, tail and stats handle a missing or empty log the same way: one message, exit 5, no stack", async () => {
    const fresh = makeProject();
    const empty = makeProject();
    // An empty log and no seals: nothing was ever audited there either.
    mkdirSync(join(auditPath(empty), ".."), { recursive: true });
    writeFileSync(auditPath(empty), "");
    for (const q of [fresh, empty]) {
      const what = q === fresh ? "does not exist" : "is empty";
      const results = await Promise.all(
        ["verify", "tail", "stats"].map((sub) => runCli(["audit", sub, "--cwd", q.dir], { env: q.env })),
      );
      for (const r of results) {
        expect([r.code, r.stdout, r.stderr]).toEqual([
          5,
          "",
          `gatehouse: no audit records of ${q.dir} yet: ${auditPath(q)} ${what}\n`,
        ]);
      }
    }
  });

  it("tail and stats on an emptied log say so, with the exit code of verify (9)", async () => {
    const env = variant(({ log: file }) => writeFileSync(file, ""));
    const results = await Promise.all(["tail", "stats"].map((sub) => runCli(["audit", sub, "--cwd", p.dir], { env })));
    for (const r of results) {
      expect(r.code).toBe(9);
      expect(r.stderr).toMatch(
        /is empty, but its seals vouch for \d+ records: it was emptied \(run `gatehouse audit verify`\)/,
      );
    }
  });

  it("a FIFO, a folder or a /proc path as the log is a clear error (exit 1), never a hang", async () => {
    const dir = tempDir();
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const results = await Promise.all(
      [
        ["verify", join(dir, "fifo"), "is not a regular file"],
        ["tail", dir, "is not a regular file"],
        ["stats", "/proc/self/status", "is on the kernel file system /proc"],
      ].map(async ([sub, file, message]) => ({ message, r: await runCli(["audit", sub!, file!], { env: p.env }) })),
    );
    for (const { message, r } of results) {
      expect([r.code, r.stdout]).toEqual([1, ""]);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("    at ");
    }
  });
});

describe("a log unlinked in the middle of a run", () => {
  const settings = (config: Record<string, unknown> = {}) =>
    JSON.stringify({ extensions: ["@gatehouse/tool-audit"], config: { "tool-audit": config } });
  const script = (file: string) => [
    { content: [call("rm", "bash", { command: `rm -f '${file}'` })] },
    { content: [call("after", "write", { path: "after.txt", content: "x" })] },
    done,
  ];

  it("stops the run, naming the cause, before another tool runs; verify: LOG EMPTIED OR REPLACED (9)", async () => {
    const p = makeProject({ ".gatehouse/settings.json": settings() });
    const file = auditPath(p);
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), script(file))], { env: p.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `gatehouse: Stopped by extension "tool-audit": audit stopped: the audit file ${file} was deleted while the run was writing to it`,
    );
    expect(existsSync(join(p.dir, "after.txt"))).toBe(false);
    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.code).toBe(9);
    expect(verify.stdout).toContain("the log is missing, but 1 session(s)");
  });

  it('with onFileReplaced "reopen" the run goes on in a new file that records the gap; verify names it (9)', async () => {
    const p = makeProject({ ".gatehouse/settings.json": settings({ onFileReplaced: "reopen" }) });
    const file = auditPath(p);
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), script(file))], { env: p.env });
    expect([run.code, run.stderr.replace(/^gatehouse: no path guard is loaded.*\n/m, "")]).toEqual([0, ""]);
    expect(readFileSync(join(p.dir, "after.txt"), "utf8")).toBe("x");
    const kinds = readAuditLines(file).lines.map((l) => l.record.kind);
    expect(kinds).toEqual(["call_start", "call_end", "gap", "call_start", "call_end", "session_end"]);
    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.code).toBe(9);
    expect(verify.stdout).toMatch(
      /the sink recorded at line 3 that the audit file was deleted; reopened: seq 0 of session \w+ went to the lost file/,
    );
  });
});
