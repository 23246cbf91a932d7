import type { Redirection } from "./simple-commands.ts";

/** How a command line may use a descriptor: the accesses a reopened descriptor path may have. */
export type Access = "read" | "write";

/**
 * The descriptors a command line opens on files, each with the accesses every opening of it was
 * checked for. A descriptor path (`/dev/stdout`, `/dev/fd/3`) reopens what the descriptor holds
 * with the access its own command asks for: `printf … 1<.git/config >/dev/stdout` writes a file
 * the line opened read-only. A descriptor the line never opens is the agent's own stream.
 */
export type LineDescriptors = ReadonlyMap<number, ReadonlySet<Access>>;

/** Targets that open nothing a protected file could be behind. */
function opensNothing(redirect: Redirection): boolean {
  const { target } = redirect;
  if (target.unresolved !== undefined || target.glob !== undefined) return false;
  // A process substitution is a pipe; /dev/null is nobody's file.
  return target.text === "/dev/null" || /^[<>]\(/.test(target.raw);
}

/** The descriptor a redirection names, with bash's default for its operator. */
function descriptorOf(redirect: Redirection): number {
  if (redirect.fd !== undefined) return Number(redirect.fd);
  return redirect.op.startsWith("<") ? 0 : 1;
}

/**
 * What the redirections of a whole command line (wherever they stand: a group, a loop, `exec`)
 * do to descriptors.
 * Contract: order-insensitive and conservative — a descriptor opened twice keeps only the
 * accesses both openings were checked for; one duplicated from a descriptor the line opened, or
 * from an inherited one other than 0–2, keeps what that one allows (nothing when unknown).
 */
export function lineDescriptors(redirects: readonly Redirection[]): LineDescriptors {
  const covers = new Map<number, Set<Access>>();
  const open = (fd: number, accesses: readonly Access[]) => {
    const now = covers.get(fd);
    covers.set(fd, new Set(now === undefined ? accesses : accesses.filter((a) => now.has(a))));
  };
  const duplicates: { to: number; from: number }[] = [];
  for (const redirect of redirects) {
    const { op, target } = redirect;
    if (op === "<<" || op === "<<-" || op === "<<<") continue;
    if (opensNothing(redirect)) continue;
    const fd = descriptorOf(redirect);
    if (op === "<&" || op === ">&") {
      const from = target.unresolved === undefined ? /^(\d+)-?$/.exec(target.text)?.[1] : undefined;
      if (from !== undefined) duplicates.push({ to: fd, from: Number(from) });
      else if (target.unresolved === undefined && target.text === "-") continue;
      // `>&FILE` is `&>FILE` (both 1 and 2) without a number; unknown words may be anything.
      else for (const to of redirect.fd === undefined ? [1, 2] : [fd]) open(to, op === "<&" ? [] : ["write"]);
      continue;
    }
    if (op === "&>" || op === "&>>") {
      open(1, ["write"]);
      open(2, ["write"]);
    } else if (op === "<>") open(fd, ["read", "write"]);
    else open(fd, op === "<" ? ["read"] : ["write"]);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const { to, from } of duplicates) {
      const source = covers.get(from);
      // An inherited descriptor above 2 is something the agent's process left open: unknown.
      if (source === undefined && from <= 2) continue;
      const before = covers.get(to);
      open(to, [...(source ?? [])]);
      if (before === undefined || before.size !== covers.get(to)?.size) changed = true;
    }
  }
  return covers;
}
