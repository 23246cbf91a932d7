import type { HandlerContext } from "@gatehouse/sdk";
import { toError } from "../common/errors.ts";

/** What one handler invocation produced: its value, or why it failed. */
export type HandlerOutcome<T> = { ok: true; value: T } | { ok: false; error: Error; timedOut: boolean };

/**
 * Calls one extension handler with a time limit.
 * Contract: never rejects; a throw, a rejection or a timeout becomes `{ ok: false }`.
 * A synchronous handler cannot be interrupted, so the limit applies to the promise it returns.
 */
export function runHandler<E, T>(
  handler: (event: E, ctx: HandlerContext) => T | Promise<T>,
  event: E,
  ctx: HandlerContext,
  timeoutMs: number,
): Promise<HandlerOutcome<T>> {
  let returned: T | Promise<T>;
  try {
    returned = handler(event, ctx);
  } catch (error) {
    return Promise.resolve({ ok: false, error: toError(error), timedOut: false });
  }
  if (!(returned instanceof Promise) && !(returned && typeof (returned as { then?: unknown }).then === "function")) {
    return Promise.resolve({ ok: true, value: returned as T });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve({ ok: false, error: new Error(`timed out after ${timeoutMs} ms`), timedOut: true });
    }, timeoutMs);
    Promise.resolve(returned).then(
      (value) => {
        clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ ok: false, error: toError(error), timedOut: false });
      },
    );
  });
}
