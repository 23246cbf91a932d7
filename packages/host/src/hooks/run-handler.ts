import type { HandlerContext } from "@gatehouse/sdk";
import { toError } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import type { DeadlineQueue } from "./deadline-queue.ts";

/** What one handler invocation produced: its value, or why it failed. */
export type HandlerOutcome<T> = { ok: true; value: T } | { ok: false; error: Error; timedOut: boolean };

/**
 * Calls one extension handler with a time limit.
 * Contract: never throws or rejects; a throw, a rejection or a timeout becomes `{ ok: false }`.
 * A synchronous handler's outcome is returned as is (no promise, no microtask): a synchronous
 * handler cannot be interrupted, so the limit applies to the promise a handler returns.
 */
export function runHandler<E, T>(
  handler: (event: E, ctx: HandlerContext) => T | Promise<T>,
  event: E,
  ctx: HandlerContext,
  deadlines: DeadlineQueue,
): HandlerOutcome<T> | Promise<HandlerOutcome<T>> {
  let returned: T | Promise<T>;
  try {
    returned = handler(event, ctx);
  } catch (error) {
    return { ok: false, error: toError(error), timedOut: false };
  }
  if (!isPromiseLike<T>(returned)) return { ok: true, value: returned };
  const pending = returned;
  return new Promise((resolve) => {
    const deadline = deadlines.track(() => {
      resolve({ ok: false, error: new Error(`timed out after ${deadlines.timeoutMs} ms`), timedOut: true });
    });
    pending.then(
      (value) => {
        if (deadlines.settle(deadline)) resolve({ ok: true, value });
      },
      (error: unknown) => {
        if (deadlines.settle(deadline)) resolve({ ok: false, error: toError(error), timedOut: false });
      },
    );
  });
}
