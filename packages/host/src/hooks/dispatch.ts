import { isPromiseLike } from "../common/is-promise.ts";

/**
 * One tap as the dispatch loops call it: `tap.fn(tap, ...args, next)`, where `next` is the
 * dispatcher's next step. The tap answers synchronously with its value, or, when its handler is
 * asynchronous, with a promise of what `next` returned on its value (it applied `next` itself, in
 * the step that settled the handler: see `callHandler`'s `after`). So an asynchronous handler
 * costs its stage one promise, not two, and no microtask of the dispatcher's own.
 * Contract: a tap returns a promise only once it has handed its answer to `next`.
 *
 * Why the tap is passed to `fn` rather than closed over: `fn` is one module-level function per
 * kind of tap, the same function object in every bus of the process. A closure made per tap (per
 * host) is a new call target for every host; V8 inlines the one it saw, and when that host is
 * collected, the optimised loop that inlined it is thrown away, so every new host ran the hook
 * path cold again (see bench/README.md, "Why a run can be slow").
 */
export interface DispatchTap<A extends unknown[], R> {
  readonly fn: (tap: never, ...args: [...A, next: (value: R) => unknown]) => unknown;
}

/** `tap.fn` as the loops call it: with the tap itself first (see `DispatchTap`). */
type Called<A extends unknown[], R> = (
  tap: DispatchTap<A, R>,
  ...args: [...A, next: (value: R) => unknown]
) => R | Promise<unknown>;

/** A tapable hook, as far as dispatch is concerned: its taps, already in order. */
interface TappedHook {
  readonly taps: readonly object[];
}

/**
 * The taps of `hook` in tapable's order (stage, then registration), as tapable keeps them: each
 * carries the fields given in its tap options besides `fn`.
 * Why not tapable's own `promise()`: it compiles a function per hook instance, so every new bus
 * (every host, every reload) starts with cold code, and it makes at least one promise and a few
 * microtasks per tap even when every handler answers synchronously. The loops below are compiled
 * once for every bus, and stay synchronous until a tap returns a promise.
 * Contract: the same order and semantics as tapable's AsyncSeriesBail/Waterfall/Series hooks; the
 * list is read once (a bus is immutable).
 */
export function tapsOf<T>(hook: TappedHook): readonly T[] {
  return [...hook.taps] as T[];
}

/** The continuation when the caller gives none: the stage's result as it is. */
const same = (value: unknown): never => value as never;

// The loops are module-level, like the taps' functions: one function for every bus keeps its
// optimised code across hosts.

/**
 * Bail: the first tap that returns something other than `undefined` decides; else `undefined`.
 * `end` runs on the stage's result in the step that produces it, so an asynchronous stage costs
 * its caller no promise and no microtask of its own.
 */
export function bail<S, R, T = R | undefined>(
  taps: readonly DispatchTap<[S], R | undefined>[],
  state: S,
  end?: (value: R | undefined) => T | Promise<T>,
): T | Promise<T> {
  return bailFrom(taps, state, 0, end ?? same);
}

function bailFrom<S, R, T>(
  taps: readonly DispatchTap<[S], R | undefined>[],
  state: S,
  start: number,
  end: (value: R | undefined) => T | Promise<T>,
): T | Promise<T> {
  for (let i = start; i < taps.length; i++) {
    const next = (value: R | undefined) => (value !== undefined ? end(value) : bailFrom(taps, state, i + 1, end));
    const tap = taps[i] as DispatchTap<[S], R | undefined>;
    const out = (tap.fn as Called<[S], R | undefined>)(tap, state, next);
    if (isPromiseLike<T>(out)) return out as unknown as Promise<T>;
    if (out !== undefined) return end(out as R);
  }
  return end(undefined);
}

/** Waterfall: each tap gets the value the previous one returned (`undefined` keeps the value). */
export function waterfall<S, T = S>(
  taps: readonly DispatchTap<[S], S | undefined>[],
  state: S,
  end?: (value: S) => T | Promise<T>,
): T | Promise<T> {
  return waterfallFrom(taps, state, 0, end ?? same);
}

function waterfallFrom<S, T>(
  taps: readonly DispatchTap<[S], S | undefined>[],
  state: S,
  start: number,
  end: (value: S) => T | Promise<T>,
): T | Promise<T> {
  let value = state;
  for (let i = start; i < taps.length; i++) {
    const current = value;
    const next = (out: S | undefined) => waterfallFrom(taps, out !== undefined ? out : current, i + 1, end);
    const tap = taps[i] as DispatchTap<[S], S | undefined>;
    const out = (tap.fn as Called<[S], S | undefined>)(tap, value, next);
    if (isPromiseLike<T>(out)) return out as unknown as Promise<T>;
    if (out !== undefined) value = out as S;
  }
  return end(value);
}

/** Series: every tap in order, each after the previous one settled. */
export function series<A, B>(taps: readonly DispatchTap<[A, B], void>[], a: A, b: B): void | Promise<void> {
  return seriesFrom(taps, a, b, 0);
}

function seriesFrom<A, B>(taps: readonly DispatchTap<[A, B], void>[], a: A, b: B, start: number): void | Promise<void> {
  for (let i = start; i < taps.length; i++) {
    const tap = taps[i] as DispatchTap<[A, B], void>;
    const out = (tap.fn as Called<[A, B], void>)(tap, a, b, () => seriesFrom(taps, a, b, i + 1));
    if (isPromiseLike<void>(out)) return out as Promise<void>;
  }
  return undefined;
}
