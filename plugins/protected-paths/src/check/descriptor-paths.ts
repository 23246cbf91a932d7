import path from "node:path";
import type { BashTarget } from "../bash/analyze-bash.ts";
import type { PolicyContext } from "./policy-context.ts";

/**
 * Paths that resolve through the process that opens them: its descriptors (`/dev/fd/N`,
 * `/dev/stdout`, `/proc/self/fd/N`), its working directory and root (`/proc/self/cwd`), its
 * mapped files. In the checker's process they lead elsewhere than in the shell's.
 */
const PROCESS_PATH =
  /^\/dev\/(fd|stdin|stdout|stderr)$|^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/(fd|fdinfo|cwd|root|exe|map_files)$/;

/** The descriptor a path of the running process names: `/dev/stdout` is 1, `/proc/self/fd/7` is 7. */
function descriptorNumber(p: string): number | undefined {
  const named = ["/dev/stdin", "/dev/stdout", "/dev/stderr"].indexOf(p);
  if (named !== -1) return named;
  const fd = /^\/dev\/fd\/(\d+)$|^\/proc\/(?:self|thread-self)\/fd\/(\d+)$/.exec(p);
  const digits = fd?.[1] ?? fd?.[2];
  return digits === undefined ? undefined : Number(digits);
}

/** What a path meets on its way: the process path, and whether a link on disk led there. */
export interface ProcessPath {
  reached: string;
  throughLink: boolean;
}

/**
 * Where `given` (absolute, `..` not yet resolved: `/proc/self/cwd/..` is the shell's parent
 * folder, not `/proc/self`) meets a path of the running process (see `PROCESS_PATH`) as the
 * kernel resolves it, following symbolic links on disk (`l -> /dev/stdout`), or `undefined`.
 * Contract: the process path is joined with the rest of `given` as written; `/proc/self` and
 * `/proc/thread-self` are not followed (they name the shell's process, not this one).
 */
export function processPathOf(ctx: PolicyContext, given: string): ProcessPath | undefined {
  let pending = given.split("/").filter((s) => s !== "");
  let at = "/";
  let throughLink = false;
  for (let hops = 0; pending.length > 0; ) {
    const segment = pending.shift()!;
    if (segment === ".") continue;
    if (segment === "..") {
      at = path.dirname(at);
      continue;
    }
    const next = path.posix.join(at, segment);
    if (PROCESS_PATH.test(next)) return { reached: [next, ...pending].join("/"), throughLink };
    const own = next === "/proc/self" || next === "/proc/thread-self";
    const link = !own && ctx.fs.lstat(next)?.isSymbolicLink ? ctx.fs.readlink(next) : undefined;
    if (link === undefined || hops >= 40) {
      at = next;
      continue;
    }
    hops += 1;
    throughLink = true;
    pending = [
      ...path
        .resolve(at, link)
        .split("/")
        .filter((s) => s !== ""),
      ...pending,
    ];
    at = "/";
  }
  return undefined;
}

/** Commands that act on a descriptor path's own directory entry, not on what it opens. */
const ENTRY_COMMANDS = new Set(["rm", "rmdir", "unlink", "mv source"]);

/**
 * Why a target that resolves to the process path `reached` cannot run unconfined, or `undefined`
 * for the agent's own streams. A descriptor path reopens what the descriptor holds with the
 * access of its command: `printf … 1<.git/config >/dev/stdout` and `tee /dev/fd/3 3<.git/config`
 * write a file the line opened only for reading.
 * Contract: passes only `/dev/std*`, `/dev/fd/0-2` and `/proc/self/fd/0-2`, named literally (not
 * through a link), opened (not made a link to, removed, moved or walked), when the line opens that
 * descriptor on no file or only with the same access; and the pipe of a process substitution.
 */
export function processPathProblem(target: BashTarget, met: ProcessPath): string | undefined {
  const { word } = target;
  const { reached } = met;
  // A process substitution's pipe, unless the line redirects high descriptors: bash opens the
  // pipe first, and `63<.git/config` then puts the file where `tee >(cat)` writes.
  const highOpened = [...target.descriptors.keys()].some((fd) => fd > 2);
  if (/^[<>]\(/.test(word.raw) && word.text === reached && !highOpened) return undefined;
  const fd = descriptorNumber(reached);
  if (met.throughLink) {
    return `a symbolic link on the way leads to ${reached}, which resolves through the shell's own process (its descriptors, its directories); name the file directly`;
  }
  if (fd === undefined) {
    return "a /dev/fd or /proc path resolves through the shell's own process (its descriptors, its directories), which the analysis cannot see; name the file directly";
  }
  if (fd > 2) {
    return `a descriptor path names whatever the shell opened as descriptor ${fd}, which the analysis cannot follow; name the file directly`;
  }
  if (
    target.via === "link target" ||
    target.creates === true ||
    target.recursive === true ||
    ENTRY_COMMANDS.has(target.via)
  ) {
    return "a descriptor path names whatever a later command opens there; only reading or writing the stream itself may use it";
  }
  const opened = target.descriptors.get(fd);
  if (opened !== undefined && !opened.has(target.access)) {
    return `the line opens descriptor ${fd} on a file for ${[...opened].join(" and ") || "different accesses"} only, and the descriptor path reopens that file for ${target.access === "write" ? "writing" : "reading"}; name the file directly`;
  }
  return undefined;
}
