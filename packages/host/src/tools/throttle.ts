/** A rate-limited action: `trigger` as often as you like, it runs at most once per interval. */
export interface Throttled {
  trigger(): void;
  /** Drops a pending run; later triggers are ignored. */
  cancel(): void;
}

/**
 * Rate-limits `action` to one run per `intervalMs`, trailing edge only.
 * Contract: a trigger schedules a run `intervalMs` later unless one is already pending; triggers
 * in between collapse into it. Nothing runs at once, and `cancel` drops a pending run instead of
 * flushing it: a command that prints once and finishes within the interval reports no progress,
 * because its result follows immediately anyway.
 */
export function throttle(action: () => void, intervalMs: number): Throttled {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  return {
    trigger() {
      if (cancelled || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        action();
      }, intervalMs);
    },
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
