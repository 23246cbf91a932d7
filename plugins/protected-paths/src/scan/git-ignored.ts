import { spawnSync } from "node:child_process";
import path from "node:path";

/**
 * Ignore patterns whose meaning git and ripgrep agree on: names, `*` wildcards and slashes, no
 * negation, no escapes, brackets or `**`. A file ignored by any other pattern counts as searched.
 */
const PLAIN_PATTERN = /^\/?[\w.*-]+(?:\/[\w.*-]+)*\/?$/;

/** The host's environment without git's own variables (GIT_DIR, GIT_CONFIG_*, …), which would point git elsewhere. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("GIT_")) env[name] = value;
  env.GIT_OPTIONAL_LOCKS = "0";
  return env;
}

/**
 * Which of `paths` (relative to `dir`; folders with a trailing slash) git ignores through a plain
 * pattern of an ignore file that `counts`, asked of the host's git in one `check-ignore`.
 * Contract: never throws; no git, no repository or any failure gives an empty set (nothing is
 * taken as ignored). A tracked file is never ignored (git says so, and the caller fails closed).
 */
export function gitIgnored(
  dir: string,
  paths: readonly string[],
  /** Whether patterns of this ignore file (absolute path) count. */
  counts: (source: string) => boolean,
): Set<string> {
  const ignored = new Set<string>();
  if (paths.length === 0) return ignored;
  const answer = spawnSync("git", ["-c", "core.fsmonitor=", "check-ignore", "-v", "-z", "--stdin"], {
    cwd: dir,
    input: `${paths.join("\0")}\0`,
    encoding: "utf8",
    timeout: 10_000,
    maxBuffer: 16 * 1024 * 1024,
    env: gitEnv(),
  });
  // 0: some are ignored; 1: none; anything else (128: no repository) says nothing.
  if (answer.status !== 0 || typeof answer.stdout !== "string") return ignored;
  // -v -z: source NUL line NUL pattern NUL path NUL, per matching path.
  const fields = answer.stdout.split("\0");
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const source = fields[i] as string;
    const pattern = fields[i + 2] as string;
    const file = fields[i + 3] as string;
    if (counts(path.resolve(dir, source)) && !pattern.startsWith("!") && PLAIN_PATTERN.test(pattern)) {
      ignored.add(file);
    }
  }
  return ignored;
}
