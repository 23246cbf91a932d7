import { describe, expect, it } from "vitest";
import { SetupWatch } from "../../src/sandbox/setup-watch.ts";
import type { ShellExit } from "../../src/tools/run-shell.ts";

const FAILED: ShellExit = { exitCode: 1, exitSignal: null, timedOut: false, aborted: false };
const CLONED = '{ "child-pid": 42, "mnt-namespace": 1, "pid-namespace": 2 }\n';
const MOUNT_ERROR = "bwrap: Can't bind mount /oldroot/e on /newroot/w/.env.new: No such file or directory\n";

/** A watch whose passed-on output is collected as "out:" and "err:" entries. */
function watched(options: { status: string; ended?: boolean }) {
  const seen: string[] = [];
  const watch = new SetupWatch({
    stdout: (chunk) => seen.push(`out:${chunk}`),
    stderr: (chunk) => seen.push(`err:${chunk}`),
  });
  watch.status.onData(Buffer.from(options.status));
  if (options.ended !== false) watch.status.onEnd();
  return { watch, seen };
}

describe("telling a bwrap setup failure from a command that ran", () => {
  it("no exit-code record, a failing bwrap and only its own message: a setup failure, the message withheld", () => {
    const { watch, seen } = watched({ status: CLONED });
    watch.stderr(Buffer.from(MOUNT_ERROR.slice(0, 10)));
    watch.stderr(Buffer.from(MOUNT_ERROR.slice(10)));
    expect(watch.settle(FAILED)).toBe(MOUNT_ERROR.trim());
    expect(seen).toEqual([]);
  });

  it("an exit-code record means the command started, whatever it printed", () => {
    const { watch, seen } = watched({ status: `${CLONED}{ "exit-code": 1 }\n` });
    watch.stderr(Buffer.from(MOUNT_ERROR));
    expect(watch.settle(FAILED)).toBeUndefined();
    expect(seen).toEqual([`err:${MOUNT_ERROR}`]);
  });

  it("anything but bwrap lines, on stdout or stderr, means the command started, and is passed on in order", () => {
    const a = watched({ status: CLONED });
    a.watch.stderr(Buffer.from("bwrap: "));
    a.watch.stdout(Buffer.from("hello\n"));
    expect(a.seen).toEqual(["err:bwrap: ", "out:hello\n"]);
    expect(a.watch.settle(FAILED)).toBeUndefined();

    const b = watched({ status: CLONED });
    b.watch.stderr(Buffer.from(MOUNT_ERROR));
    expect(b.seen).toEqual([]);
    b.watch.stderr(Buffer.from("make: *** [all] Error 1\n"));
    expect(b.seen).toEqual([`err:${MOUNT_ERROR}`, "err:make: *** [all] Error 1\n"]);
    expect(b.watch.settle(FAILED)).toBeUndefined();
  });

  it("a signal, a timeout, an abort, exit code 0, an unfinished or unreadable status: counted as started", () => {
    const cases: [{ status: string; ended?: boolean }, ShellExit][] = [
      [{ status: CLONED }, { ...FAILED, exitCode: null, exitSignal: "SIGKILL" }],
      [{ status: CLONED }, { ...FAILED, timedOut: true }],
      [{ status: CLONED }, { ...FAILED, aborted: true }],
      [{ status: CLONED }, { ...FAILED, exitCode: 0 }],
      [{ status: CLONED, ended: false }, FAILED],
      [{ status: '{ "child-pid": 4' }, FAILED],
      [{ status: "[1]\n" }, FAILED],
    ];
    for (const [status, exit] of cases) {
      const { watch, seen } = watched(status);
      watch.stderr(Buffer.from(MOUNT_ERROR));
      expect(watch.settle(exit), JSON.stringify({ status, exit })).toBeUndefined();
      expect(seen).toEqual([`err:${MOUNT_ERROR}`]);
    }
  });

  it("a silent setup failure still gets a reason", () => {
    const { watch } = watched({ status: "" });
    expect(watch.settle({ ...FAILED, exitCode: 137 })).toBe("bwrap exited with code 137 before starting the command");
  });
});
