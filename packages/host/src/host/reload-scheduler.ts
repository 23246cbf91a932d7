/**
 * When reloads run: at once while the host is idle, at the next turn boundary while a run is in
 * flight — so no call ever sees half a reload.
 * Contract: reloads never overlap (they queue); `request()` resolves once the reload it asked for
 * is in effect; `settled()` resolves when no reload is running.
 */
export class ReloadScheduler {
  readonly #reload: () => Promise<void>;
  readonly #running: () => boolean;
  #pending = false;
  #waiting: (() => void)[] = [];
  #chain: Promise<void> = Promise.resolve();

  constructor(options: { reload: () => Promise<void>; running: () => boolean }) {
    this.#reload = options.reload;
    this.#running = options.running;
  }

  /** Asks for a reload (a watched file changed). */
  schedule(): void {
    if (this.#running()) this.#pending = true;
    else
      this.#chain = this.#chain.then(
        () => this.#apply(),
        () => this.#apply(),
      );
  }

  /** Asks for a reload and resolves when it is in effect. */
  request(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.schedule();
    });
  }

  /** At a turn boundary: applies a reload that waited for it. */
  async atBoundary(): Promise<void> {
    if (this.#pending) await this.#apply();
  }

  /** After a run: a reload requested during it, not yet applied, runs now. */
  afterRun(): void {
    if (this.#pending) this.schedule();
  }

  /** Resolves when no reload is running. */
  settled(): Promise<void> {
    return this.#chain;
  }

  async #apply(): Promise<void> {
    this.#pending = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    await this.#reload();
    for (const resolve of waiting) resolve();
  }
}
