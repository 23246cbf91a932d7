/** One tracked handler call: expires unless marked done first. */
export interface Deadline {
  readonly at: number;
  done: boolean;
  expire: () => void;
}

/**
 * Time limits for many short-lived calls with the same timeout, served by one timer.
 * Why: arming and clearing a timer per handler call costs more than a no-op handler itself
 * (Node rebuilds its timer list each time). With one timeout, deadlines arrive in FIFO order, so a
 * queue and one timer for its head suffice. The timer is unref'd while nothing is pending, so an
 * idle queue never keeps the process alive, and ref'd while a call is pending, so a hung handler
 * still expires.
 */
export class DeadlineQueue {
  readonly timeoutMs: number;
  #queue: Deadline[] = [];
  #head = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Starts tracking a call; `expire` runs once if `settle` was not called within the timeout. */
  track(expire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + this.timeoutMs, done: false, expire };
    this.#queue.push(deadline);
    if (this.#timer) this.#timer.ref();
    else this.#arm(this.timeoutMs);
    return deadline;
  }

  /** Marks a call finished in time; returns false if it had already expired. */
  settle(deadline: Deadline): boolean {
    if (deadline.done) return false;
    deadline.done = true;
    this.#dropSettled();
    return true;
  }

  #dropSettled(): void {
    const q = this.#queue;
    while (this.#head < q.length && q[this.#head]?.done) this.#head++;
    if (this.#head === q.length) {
      this.#queue = [];
      this.#head = 0;
      this.#timer?.unref();
    } else if (this.#head > 1024) {
      this.#queue = q.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, ms));
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const q = this.#queue;
    while (this.#head < q.length) {
      const next = q[this.#head] as Deadline;
      if (!next.done && next.at > now) break;
      this.#head++;
      if (!next.done) {
        next.done = true;
        next.expire();
      }
    }
    this.#dropSettled();
    const head = this.#queue[this.#head];
    if (head) this.#arm(head.at - now);
  }
}
