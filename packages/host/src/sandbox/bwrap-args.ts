import path from "node:path";
import type { SandboxLayout } from "@gatehouse/sdk";

/** Directories every sandbox gets empty and private, whatever lies there on the host. */
export const PRIVATE_DIRS: readonly string[] = ["/tmp", "/var/tmp", "/run"];

/** System directories a process needs to run programs; the only ones left when `outside` is "hidden". */
export const SYSTEM_DIRS: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
  "/nix",
];

/** What `bwrapArgs` needs besides the guard's layout. */
export interface BwrapOptions {
  layout: SandboxLayout;
  /** Gatehouse's own state, hidden whatever the layout says (GATEHOUSE_HOME). Only existing paths. */
  hostHidden: readonly string[];
  /** Gatehouse's own files kept read-only whatever the layout says (managed settings). Only existing paths. */
  hostReadOnly: readonly string[];
  /** An empty, read-only regular file: what a masked file is replaced with. */
  emptyFile: string;
  /** Whether a masked path is a directory (masked with an empty read-only tmpfs) or not (the empty file). */
  isDirectory: (p: string) => boolean;
  /** The home directory: an empty scratch directory when `outside` is "hidden". */
  home: string;
  cwd: string;
  /** The program and arguments run inside, e.g. ["bash", "-c", command]. */
  command: readonly string[];
  /** Forbid nested user namespaces (`--disable-userns`); false only where bwrap cannot (setuid builds). */
  disableUserns?: boolean;
  /**
   * The descriptor bwrap reports its status on (`--json-status-fd`): the child's pid once cloned,
   * and `exit-code` only when the command itself was started (setup done, exec succeeded).
   */
  statusFd?: number;
  /** The descriptor bwrap reads the seccomp filter from (`--seccomp`), when there is one. */
  seccompFd?: number;
}

type Kind = "pin" | "readOnly" | "mask";

interface Mount {
  kind: Kind;
  path: string;
}

const PRIORITY: Record<Kind, number> = { pin: 0, readOnly: 1, mask: 2 };

function depth(p: string): number {
  return p.split("/").filter(Boolean).length;
}

/** True when `p` is `base` or below it. */
function within(base: string, p: string): boolean {
  const rel = path.relative(base, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The protections of a layout that are safe to mount, in mount order (shallow first).
 * Contract: nothing is mounted inside a masked path (a later bind would re-expose what the mask
 * hides); a pin (a writable self-bind) only inside a writable root and never inside a read-only
 * or masked path (it would make that part writable again); a read-only path inside another one
 * is dropped as redundant; for one path the strictest kind wins; paths the sandbox cannot see
 * (private directories outside every root, the hidden outside, `hidden`) get no mount.
 */
export function orderedMounts(layout: SandboxLayout, hidden: readonly string[] = []): Mount[] {
  const strictest = new Map<string, Kind>();
  const add = (kind: Kind, p: string) => {
    const normal = path.resolve(p);
    const had = strictest.get(normal);
    if (had === undefined || PRIORITY[kind] > PRIORITY[had]) strictest.set(normal, kind);
  };
  for (const p of layout.pinned) add("pin", p);
  for (const p of layout.readOnly) add("readOnly", p);
  for (const p of layout.masked) add("mask", p);
  const all = [...strictest].map(([p, kind]) => ({ path: p, kind }));
  const masks = all.filter((m) => m.kind === "mask");
  const readOnly = all.filter((m) => m.kind === "readOnly");
  const writableOutside = layout.outside === "writable";
  const inRoot = (p: string) => layout.writable.some((root) => within(root, p));
  // What the sandbox cannot see needs no mount: private scratch directories outside every root,
  // everything outside the system directories and roots when the outside is hidden, and what
  // the host hides anyway.
  const visible = (p: string) =>
    inRoot(p) ||
    (!PRIVATE_DIRS.some((d) => within(d, p)) &&
      (layout.outside !== "hidden" || SYSTEM_DIRS.some((d) => within(d, p))) &&
      !hidden.some((h) => within(h, p)));
  const kept = all.filter((m) => {
    if (!visible(m.path)) return false;
    if (masks.some((mask) => mask !== m && within(mask.path, m.path))) return false;
    if (m.kind === "mask") return true;
    if (readOnly.some((ro) => ro !== m && within(ro.path, m.path))) return false;
    if (m.kind === "pin") return writableOutside || inRoot(m.path);
    return true;
  });
  return kept.sort((a, b) => depth(a.path) - depth(b.path) || PRIORITY[a.kind] - PRIORITY[b.kind]);
}

function base(layout: SandboxLayout, home: string): string[] {
  if (layout.outside === "read-only") return ["--ro-bind", "/", "/"];
  if (layout.outside === "writable") return ["--bind", "/", "/"];
  // Hidden: an empty root with the system directories read-only and an empty scratch home.
  return [...SYSTEM_DIRS.flatMap((d) => ["--ro-bind-try", d, d]), "--tmpfs", home];
}

function privateScratch(layout: SandboxLayout): string[] {
  const args = ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", "/run"];
  // Name resolution may go through systemd-resolved's files; sockets elsewhere in /run stay hidden.
  if (layout.network) args.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
  return args;
}

function hide(p: string): string[] {
  return ["--tmpfs", p, "--remount-ro", p];
}

/**
 * The bubblewrap command line (without the `bwrap` itself) that runs `command` in `layout`.
 * Contract: every namespace bwrap offers is unshared (the network only without `network`), the
 * process cannot gain capabilities or create user namespaces, dies with its parent and gets a
 * session of its own (and, given `seccompFd`, the filter read from it); /tmp, /var/tmp and /run are private; workspace roots are bound writable
 * after them (so roots under /tmp stay visible); protections follow `orderedMounts`; Gatehouse's
 * own state is hidden or read-only last, so no layout can expose it.
 */
export function bwrapArgs(options: BwrapOptions): string[] {
  const { layout } = options;
  const args = [
    ...(options.statusFd === undefined ? [] : ["--json-status-fd", String(options.statusFd)]),
    ...(options.seccompFd === undefined ? [] : ["--seccomp", String(options.seccompFd)]),
    "--unshare-user",
    ...(options.disableUserns === false ? [] : ["--disable-userns"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
  ];
  if (!layout.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  args.push(...base(layout, options.home), ...privateScratch(layout));
  const roots = [...new Set(layout.writable.map((r) => path.resolve(r)))].sort((a, b) => depth(a) - depth(b));
  for (const root of roots) args.push("--bind", root, root);
  // A protected path removed between the plan and the mount is skipped (-try): what is gone
  // needs no protection, and a new one in its place is the guard's review to find.
  for (const mount of orderedMounts(layout, options.hostHidden)) {
    if (mount.kind === "pin") args.push("--bind-try", mount.path, mount.path);
    else if (mount.kind === "readOnly") args.push("--ro-bind-try", mount.path, mount.path);
    else if (options.isDirectory(mount.path)) args.push(...hide(mount.path));
    else args.push("--ro-bind", options.emptyFile, mount.path);
  }
  for (const p of options.hostReadOnly) args.push("--ro-bind", p, p);
  for (const p of options.hostHidden) args.push(...hide(p));
  args.push("--chdir", options.cwd, ...options.command);
  return args;
}
