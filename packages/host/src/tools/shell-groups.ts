/**
 * The process groups of shells that exited while processes they started (`server &`) still ran.
 * Background jobs may outlive the command that started them (a later call may use the server), but
 * not the run (SPEC §6): the host kills what is left when a run ends.
 */
export class ShellGroups {
  readonly #groups = new Set<number>();

  /**
   * Remembers the group `pgid` led if a process of it still runs. While one does, the kernel never
   * hands that id to another group; a group that empties by itself leaves an id that could only be
   * reused after the pid space wraps around, which a run does not live to see.
   */
  addIfAlive(pgid: number): void {
    if (groupAlive(pgid)) this.#groups.add(pgid);
  }

  /** SIGKILLs every remembered group that still has a process, and forgets them all. */
  killAll(): void {
    for (const pgid of this.#groups) {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    this.#groups.clear();
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    // ESRCH: the group is empty. EPERM: what is left changed user, so it is not ours to kill either.
    return false;
  }
}
