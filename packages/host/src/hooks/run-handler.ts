import type { HandlerContext } from "@gatehouse/sdk";
import { toError } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import type { DeadlineQueue } from "./deadline-queue.ts";

/** What one handler invocation produced: its value, or why it failed. */
export type HandlerOutcome<T> = { ok: true; value: T } | { ok: false; error: Error; timedOut: boolean };

/** The outcome of every handler that returned nothing (most of them): one shared, frozen object. */
const NOTHING: HandlerOutcome<never> = Object.freeze({ ok: true, value: undefined as never });

function succeeded<T>(value: T): HandlerOutcome<T> {
  return value === undefined ? NOTHING : { ok: true, value };
}

/**
 * Calls one extension handler with a time limit, then `then` on its outcome; for an asynchronous
 * handler, also `after` on what `then` returned, in the same step.
 * Contract: never throws or rejects because of the handler; a throw, a rejection or a timeout
 * becomes `{ ok: false }`. A synchronous handler's outcome is handed to `then` at once (no promise,
 * no microtask): a synchronous handler cannot be interrupted, so the limit applies to the promise a
 * handler returns, and `after` is not called (the caller goes on with `then`'s value itself). For
 * an asynchronous handler, `then` runs in the same step that settles the outcome, and so does
 * `after` on its value when given (a dispatcher's next step: the next handler, or the stage's end),
 * so neither costs a promise or a microtask of its own; the returned promise settles with what
 * `after` (else `then`) returned. A throw of `then` or `after` rejects the returned promise (as a
 * `.then` continuation would).
 * Module-level, and given the handler rather than closing over it: one function for every tap of
 * every host, so its optimised code outlives each host (see dispatch.ts).
 */
export function callHandler<E, T, R = HandlerOutcome<T>>(
  handler: (event: E, ctx: HandlerContext) => T | Promise<T>,
  deadlines: DeadlineQueue,
  event: E,
  ctx: HandlerContext,
  then?: (outcome: HandlerOutcome<T>) => R,
  after?: (value: R) => unknown,
): R | Promise<R> {
  let returned: T | Promise<T>;
  try {
    returned = handler(event, ctx);
  } catch (error) {
    const failed: HandlerOutcome<T> = { ok: false, error: toError(error), timedOut: false };
    return then ? then(failed) : (failed as R);
  }
  if (!isPromiseLike<T>(returned)) {
    const outcome = succeeded(returned);
    return then ? then(outcome) : (outcome as R);
  }
  return awaitHandler(returned, deadlines, then, after);
}

/** The asynchronous half of `callHandler`: the handler's promise, raced against its deadline. */
function awaitHandler<T, R>(
  pending: PromiseLike<T>,
  deadlines: DeadlineQueue,
  then: ((outcome: HandlerOutcome<T>) => R) | undefined,
  after: ((value: R) => unknown) | undefined,
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const settle = (outcome: HandlerOutcome<T>) => {
      try {
        const value = then ? then(outcome) : (outcome as R);
        resolve((after ? after(value) : value) as R);
      } catch (error) {
        reject(error);
      }
    };
    const deadline = deadlines.track(() => {
      settle({ ok: false, error: new Error(`timed out after ${deadlines.timeoutMs} ms`), timedOut: true });
    });
    pending.then(
      (value) => {
        if (deadlines.settle(deadline)) settle(succeeded(value));
      },
      (error: unknown) => {
        if (deadlines.settle(deadline)) settle({ ok: false, error: toError(error), timedOut: false });
      },
    );
  });
}

/**
 * Calls one extension handler with a time limit (see `callHandler`).
 * Contract: never throws or rejects; a throw, a rejection or a timeout becomes `{ ok: false }`.
 */
export function runHandler<E, T>(
  handler: (event: E, ctx: HandlerContext) => T | Promise<T>,
  event: E,
  ctx: HandlerContext,
  deadlines: DeadlineQueue,
): HandlerOutcome<T> | Promise<HandlerOutcome<T>> {
  return callHandler(handler, deadlines, event, ctx);
}
