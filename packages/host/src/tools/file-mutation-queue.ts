import { resolveRealPath } from "./real-path.ts";

const ignore = (): void => undefined;

/**
 * Serialises mutations of the same real file; mutations of different files run concurrently.
 * Two spellings of one file (relative and absolute, or through a symlink) share one queue slot.
 */
export class FileMutationQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `mutate` once every earlier mutation of the same real file has settled.
   * Contract: the key (the real path, see `resolveRealPath`) is computed synchronously here, so
   * enqueue order is execution order. `mutate` receives that key, so it can re-check the target
   * it is about to change. A rejected mutation rejects only its own promise; the next one runs.
   */
  run<T>(absPath: string, mutate: (realTarget: string) => Promise<T>): Promise<T> {
    const key = resolveRealPath(absPath);
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(() => mutate(key));
    const tail = result.then(ignore, ignore);
    this.#tails.set(key, tail);
    // Drop settled chains so a long session does not keep one entry per file it ever touched.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** How many files currently have a queued or running mutation. */
  get pendingFiles(): number {
    return this.#tails.size;
  }
}
