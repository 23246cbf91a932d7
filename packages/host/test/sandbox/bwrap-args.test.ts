import type { SandboxLayout } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { bwrapArgs, orderedMounts } from "../../src/sandbox/bwrap-args.ts";

const layout = (over: Partial<SandboxLayout> = {}): SandboxLayout => ({
  writable: ["/ws"],
  outside: "read-only",
  readOnly: [],
  masked: [],
  pinned: [],
  network: false,
  ...over,
});

const args = (
  l: SandboxLayout,
  extra: { hostHidden?: string[]; hostReadOnly?: string[]; statusFd?: number; seccompFd?: number } = {},
) =>
  bwrapArgs({
    layout: l,
    hostHidden: extra.hostHidden ?? [],
    hostReadOnly: extra.hostReadOnly ?? [],
    emptyFile: "/gh/sandbox/empty",
    isDirectory: (p) => p.endsWith("dir"),
    home: "/home/me",
    cwd: "/ws",
    command: ["bash", "-c", "true"],
    ...(extra.statusFd !== undefined ? { statusFd: extra.statusFd } : {}),
    ...(extra.seccompFd !== undefined ? { seccompFd: extra.seccompFd } : {}),
  });

/** The index of a `flag a b` triple in an argument list, or -1. */
function indexOfTriple(list: string[], flag: string, a: string, b: string): number {
  return list.findIndex((x, i) => x === flag && list[i + 1] === a && list[i + 2] === b);
}

describe("bwrap arguments", () => {
  it("unshares every namespace, drops capabilities and user namespaces, and dies with its parent", () => {
    const a = args(layout());
    for (const flag of [
      "--unshare-user",
      "--disable-userns",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
    ]) {
      expect(a).toContain(flag);
    }
    expect(a.join(" ")).toContain("--cap-drop ALL");
    expect(args(layout({ network: true }))).not.toContain("--unshare-net");
  });

  it("reports its status on the descriptor asked for (whether the command itself started), and only then", () => {
    const withStatus = args(layout(), { statusFd: 3 });
    expect(withStatus.slice(0, 2)).toEqual(["--json-status-fd", "3"]);
    expect(args(layout())).not.toContain("--json-status-fd");
  });

  it("reads its seccomp filter from the descriptor asked for, before the command's arguments", () => {
    const filtered = args(layout(), { seccompFd: 4 });
    const at = indexOfTriple(filtered, "--seccomp", "4", "--unshare-user");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(filtered.indexOf("--chdir"));
    expect(args(layout())).not.toContain("--seccomp");
  });

  it("mounts the root read-only, then private /tmp, /var/tmp and /run, then the workspace writable", () => {
    const a = args(layout({ writable: ["/tmp/proj"] }));
    const root = indexOfTriple(a, "--ro-bind", "/", "/");
    const tmp = a.findIndex((x, i) => x === "--tmpfs" && a[i + 1] === "/tmp");
    const ws = indexOfTriple(a, "--bind", "/tmp/proj", "/tmp/proj");
    expect(root).toBeGreaterThanOrEqual(0);
    expect(tmp).toBeGreaterThan(root);
    expect(a.join(" ")).toContain("--tmpfs /run");
    expect(ws).toBeGreaterThan(tmp);
    expect(a.slice(-5)).toEqual(["--chdir", "/ws", "bash", "-c", "true"]);
  });

  it("outside: hidden keeps only system directories and an empty home; writable binds the root read-write", () => {
    const hidden = args(layout({ outside: "hidden" }));
    expect(indexOfTriple(hidden, "--ro-bind", "/", "/")).toBe(-1);
    expect(indexOfTriple(hidden, "--ro-bind-try", "/usr", "/usr")).toBeGreaterThanOrEqual(0);
    expect(hidden.join(" ")).toContain("--tmpfs /home/me");
    expect(indexOfTriple(args(layout({ outside: "writable" })), "--bind", "/", "/")).toBeGreaterThanOrEqual(0);
  });

  it("masks files with the empty file and directories with a read-only tmpfs; protects with -try binds", () => {
    const a = args(
      layout({ masked: ["/ws/.env", "/home/me/.ssh-dir"], readOnly: ["/ws/.git/config"], pinned: ["/ws/.git"] }),
    );
    expect(indexOfTriple(a, "--ro-bind", "/gh/sandbox/empty", "/ws/.env")).toBeGreaterThanOrEqual(0);
    expect(a.join(" ")).toContain("--tmpfs /home/me/.ssh-dir --remount-ro /home/me/.ssh-dir");
    expect(indexOfTriple(a, "--ro-bind-try", "/ws/.git/config", "/ws/.git/config")).toBeGreaterThanOrEqual(0);
    expect(indexOfTriple(a, "--bind-try", "/ws/.git", "/ws/.git")).toBeLessThan(
      indexOfTriple(a, "--ro-bind-try", "/ws/.git/config", "/ws/.git/config"),
    );
  });

  it("hides Gatehouse's own state last, so no layout can re-expose it", () => {
    const a = args(layout({ readOnly: ["/ws/gh/keys"] }), {
      hostHidden: ["/ws/gh"],
      hostReadOnly: ["/etc/managed.json"],
    });
    const hide = a.findIndex((x, i) => x === "--tmpfs" && a[i + 1] === "/ws/gh");
    expect(hide).toBeGreaterThan(indexOfTriple(a, "--ro-bind-try", "/ws/gh/keys", "/ws/gh/keys"));
    expect(indexOfTriple(a, "--ro-bind", "/etc/managed.json", "/etc/managed.json")).toBeGreaterThanOrEqual(0);
  });
});

describe("mount order and safety", () => {
  it("nothing is mounted inside a mask, and the strictest kind wins for one path", () => {
    const mounts = orderedMounts(
      layout({ masked: ["/ws/secrets", "/ws/x"], readOnly: ["/ws/secrets/a", "/ws/x"], pinned: ["/ws/secrets/b"] }),
    );
    expect(mounts).toHaveLength(2);
    expect(mounts).toContainEqual({ path: "/ws/secrets", kind: "mask" });
    expect(mounts).toContainEqual({ path: "/ws/x", kind: "mask" });
  });

  it("a pin (writable self-bind) never lands outside a writable root or inside a read-only path", () => {
    const mounts = orderedMounts(
      layout({ pinned: ["/etc", "/ws/.gatehouse/sub", "/ws/a"], readOnly: ["/ws/.gatehouse", "/ws/.gatehouse/x"] }),
    );
    expect(mounts).toHaveLength(2);
    expect(mounts).toContainEqual({ path: "/ws/.gatehouse", kind: "readOnly" });
    expect(mounts).toContainEqual({ path: "/ws/a", kind: "pin" });
    expect(orderedMounts(layout({ outside: "writable", pinned: ["/etc"] }))).toEqual([{ path: "/etc", kind: "pin" }]);
  });

  it("paths the sandbox cannot see get no mount: private /tmp outside the roots, the hidden outside, the host's hidden state", () => {
    const l = layout({
      writable: ["/tmp/ws"],
      masked: ["/tmp/other/.env", "/tmp/ws/.env", "/home/me/.ssh", "/gh/keys", "/etc/shadow"],
    });
    expect(orderedMounts(l, ["/gh"]).map((m) => m.path)).toEqual(["/etc/shadow", "/tmp/ws/.env", "/home/me/.ssh"]);
    expect(orderedMounts({ ...l, outside: "hidden" }, ["/gh"]).map((m) => m.path)).toEqual([
      "/etc/shadow",
      "/tmp/ws/.env",
    ]);
  });

  it("mounts go shallow first, so a deeper protection lands on top of its ancestor's pin", () => {
    const mounts = orderedMounts(
      layout({ pinned: ["/ws/a/b", "/ws/a"], readOnly: ["/ws/a/b/c"], masked: ["/ws/a/b/d"] }),
    );
    expect(mounts.map((m) => m.path)).toEqual(["/ws/a", "/ws/a/b", "/ws/a/b/c", "/ws/a/b/d"]);
  });
});
