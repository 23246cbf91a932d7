import { spawn } from "../common/lazy-spawn.ts";

/**
 * Whether a sandbox can start on this machine; if not, why and what to do about it. `disableUserns`
 * says whether bwrap can also forbid nested user namespaces (setuid builds cannot).
 */
export type SandboxSupport = { ok: true; disableUserns: boolean } | { ok: false; reason: string; fix: string };

/** How to get a sandbox, for messages that refuse to run without one. */
export const INSTALL_HINT =
  "install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)";

/** The namespace flags every sandboxed run uses (the probe starts bwrap exactly this way, with `--disable-userns` first). */
export const PROBE_FLAGS: readonly string[] = [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--die-with-parent",
  "--cap-drop",
  "ALL",
  "--ro-bind",
  "/",
  "/",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "true",
];

const PROBE_TIMEOUT_MS = 10_000;

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").slice(0, 300);
}

function runProbe(
  bwrap: string,
  flags: readonly string[],
): Promise<{ ok: true } | { ok: false; reason: string; fix: string }> {
  return new Promise((resolve) => {
    let stderr = "";
    const child = spawn(bwrap, flags, { stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why =
        error.code === "ENOENT" ? `${bwrap} was not found` : `${bwrap} could not be started (${error.message})`;
      resolve({ ok: false, reason: why, fix: INSTALL_HINT });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else {
        const said = firstLine(stderr);
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const why = `${bwrap} ${how}${said ? `: ${said}` : ""} (are unprivileged user namespaces disabled?)`;
        const fix = `${INSTALL_HINT}, and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0)`;
        resolve({ ok: false, reason: why, fix });
      }
    });
  });
}

const probes = new Map<string, Promise<SandboxSupport>>();

/** With `--disable-userns` when bwrap supports it; without it (the mounts stay locked) when not. */
async function probeBoth(bwrap: string): Promise<SandboxSupport> {
  const strict = await runProbe(bwrap, ["--disable-userns", ...PROBE_FLAGS]);
  if (strict.ok) return { ok: true, disableUserns: true };
  const plain = await runProbe(bwrap, PROBE_FLAGS);
  return plain.ok ? { ok: true, disableUserns: false } : strict;
}

/**
 * Finds out once per process whether `bwrap` can start a sandbox with the namespaces Gatehouse
 * uses (user, pid, network), by running `true` in one.
 * Contract: never rejects; off Linux the answer is "no" without trying; the answer is cached per
 * bwrap path for the life of the process (a bwrap removed later makes runs fail to start, never
 * run unconfined).
 */
export function sandboxSupport(options: { bwrap: string; platform?: NodeJS.Platform }): Promise<SandboxSupport> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    return Promise.resolve({
      ok: false,
      reason: `no sandbox is available on ${platform} yet (Gatehouse confines commands with bubblewrap, which needs Linux)`,
      fix: "run on Linux",
    });
  }
  let probe = probes.get(options.bwrap);
  if (!probe) {
    probe = probeBoth(options.bwrap);
    probes.set(options.bwrap, probe);
  }
  return probe;
}
