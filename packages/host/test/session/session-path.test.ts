import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, writeScript } from "../../../cli/test/cli/cli-helpers.ts";
import { Session } from "../../src/session/index.ts";
import { tempDir } from "../helpers/scenario.ts";

const linux = process.platform === "linux";

/** A named pipe with no writer: reading it the ordinary way blocks forever. */
function fifo(dir: string): string {
  const file = join(dir, "pipe.jsonl");
  execFileSync("mkfifo", [file]);
  return file;
}

describe("a session path in an unusable place is a clear error, never a hang", () => {
  it("opening a named pipe is refused without reading it", () => {
    const file = fifo(tempDir("gh-session-"));
    expect(() => Session.open(file)).toThrow(
      `Cannot use ${file} as a session file: it is a named pipe (FIFO); a session must be a regular file.`,
    );
  });

  it("a directory is refused for opening and for creating", () => {
    const dir = tempDir("gh-session-");
    expect(() => Session.open(dir)).toThrow(/it is a directory; a session must be a regular file/);
    const sub = join(dir, "sub");
    mkdirSync(sub);
    expect(() => Session.create(sub)).toThrow(/already exists/);
  });

  it.runIf(linux)("anything under /proc, /sys or /dev is refused, by its own name or through a link", () => {
    expect(() => Session.open("/dev/zero")).toThrow(
      "Cannot use /dev/zero as a session file: it is under /dev, where files are devices and kernel interfaces, not storage.",
    );
    expect(() => Session.create("/proc/gatehouse-session.jsonl")).toThrow(/it is under \/proc/);
    expect(() => Session.create("/sys/kernel/gatehouse/s.jsonl")).toThrow(/it is under \/sys/);
    const link = join(tempDir("gh-session-"), "link.jsonl");
    symlinkSync("/proc/self/status", link);
    expect(() => Session.open(link)).toThrow(/it is under \/proc \(it resolves to \/proc\/\d+\/status\)/);
    expect(() => Session.open(link)).toThrow(expect.objectContaining({ code: "GH_SESSION" }));
  });

  it("a new session file is readable by its owner only (a transcript holds what the tools read)", () => {
    const file = join(tempDir("gh-session-"), "s.jsonl");
    Session.create(file).close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("gatehouse run --session on a pipe or under /proc exits with the error before the model is asked", async () => {
    const dir = tempDir("gh-session-cli-");
    const script = writeScript(dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const env = { GATEHOUSE_HOME: join(dir, "home") };
    const piped = await runCli(["run", "go", "--script", script, "--session", fifo(dir), "--continue", "--cwd", dir], {
      env,
    });
    expect(piped.code).not.toBe(0);
    expect(piped.stderr).toContain("it is a named pipe (FIFO); a session must be a regular file");
    expect(piped.stdout).not.toContain("hi");
    if (!linux) return;
    const proc = await runCli(["run", "go", "--script", script, "--session", "/proc/self/s.jsonl", "--cwd", dir], {
      env,
    });
    expect(proc.code).not.toBe(0);
    expect(proc.stderr).toContain("Cannot use /proc/self/s.jsonl as a session file: it is under /proc");
  });
});
