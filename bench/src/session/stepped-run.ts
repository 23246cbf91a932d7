import { nowUs } from "../measure.ts";
import type { Clock } from "../section.ts";

/** Called by a run's model at every request; resolves when the scheduler lets the run go on. */
export type Gate = () => Promise<void>;

/**
 * A run that advances one model request at a time, so several runs can share the same stretch
 * of time turn by turn, and that counts only its own time (from each release to its next
 * request or its end); the pauses in between are not counted.
 * Contract: the run's model must await `gate()` before answering each request.
 */
export class SteppedRun {
  readonly #start: () => Promise<unknown>;
  readonly #clock: Clock;
  #ownUs = 0;
  #since = 0;
  #started = false;
  #finished = false;
  #resume: (() => void) | undefined;
  #settle: ((running: boolean) => void) | undefined;
  #fail: ((error: unknown) => void) | undefined;

  constructor(start: () => Promise<unknown>, clock: Clock) {
    this.#start = start;
    this.#clock = clock;
  }

  /** µs this run spent working so far, pauses excluded. */
  get ownUs(): number {
    return this.#ownUs;
  }

  /** True once the run has ended (or failed). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Lets the run work until its next model request (true) or its end (false). */
  step(): Promise<boolean> {
    if (this.#finished) return Promise.resolve(false);
    return new Promise<boolean>((settle, fail) => {
      this.#settle = settle;
      this.#fail = fail;
      this.#since = nowUs(this.#clock);
      if (this.#started) {
        this.#resume!();
        return;
      }
      this.#started = true;
      this.#start().then(
        () => {
          this.#stopClock();
          this.#finished = true;
          this.#settle!(false);
        },
        (error: unknown) => {
          this.#finished = true;
          this.#fail!(error);
        },
      );
    });
  }

  /** What the model awaits at each request: stops this run's clock and hands control back. */
  readonly gate: Gate = () =>
    new Promise<void>((resume) => {
      this.#stopClock();
      this.#resume = resume;
      this.#settle!(true);
    });

  #stopClock(): void {
    this.#ownUs += nowUs(this.#clock) - this.#since;
  }
}
