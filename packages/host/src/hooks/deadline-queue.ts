/** One tracked handler call: expires unless marked done first. */
export interface Deadline {
  readonly at: number;
  done: boolean;
  expire: () => void;
  /** The call tracked after this one (the queue's link). */
  next: Deadline | undefined;
}

/**
 * Time limits for many short-lived calls with the same timeout, served by one timer.
 * Why: arming and clearing a timer per handler call costs more than a no-op handler itself
 * (Node rebuilds its timer list each time). With one timeout, deadlines arrive in FIFO order, so a
 * queue and one timer for its head suffice. The timer is unref'd while nothing is pending, so an
 * idle queue never keeps the process alive, and ref'd while a call is pending, so a hung handler
 * still expires.
 * The queue is a linked list of the deadlines themselves: no array to grow, slice or empty (an
 * array emptied and refilled once per handler call kept deoptimising `track` in the benchmarks).
 */
export class DeadlineQueue {
  readonly timeoutMs: number;
  #head: Deadline | undefined = undefined;
  #tail: Deadline | undefined = undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Starts tracking a call; `expire` runs once if `settle` was not called within the timeout. */
  track(expire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + this.timeoutMs, done: false, expire, next: undefined };
    if (this.#tail === undefined) this.#head = deadline;
    else this.#tail.next = deadline;
    this.#tail = deadline;
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
    let head = this.#head;
    while (head?.done) head = head.next;
    this.#head = head;
    if (head === undefined) {
      this.#tail = undefined;
      this.#timer?.unref();
    }
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, ms));
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let next = this.#head; next !== undefined && (next.done || next.at <= now); next = next.next) {
      this.#head = next.next;
      if (!next.done) {
        next.done = true;
        next.expire();
      }
    }
    this.#dropSettled();
    const head = this.#head;
    if (head) this.#arm(head.at - now);
  }
}
