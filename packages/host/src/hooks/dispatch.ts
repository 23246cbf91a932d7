import { isPromiseLike } from "../common/is-promise.ts";

/** A tap as the bus registers it: synchronous when its handler is, a promise only when it is not. */
type TapFn<A extends unknown[], R> = (...args: A) => R | Promise<R>;

/** A tapable hook, as far as dispatch is concerned: its taps, already in order. */
interface TappedHook {
  readonly taps: readonly { fn: unknown }[];
}

/** The functions tapped on `hook`, in tapable's order (stage, then registration). */
function tapsOf<A extends unknown[], R>(hook: TappedHook): readonly TapFn<A, R>[] {
  return hook.taps.map((tap) => tap.fn as TapFn<A, R>);
}

/**
 * How the bus calls its tapable hooks. tapable keeps the taps and their order; these loops call
 * them. Why not tapable's own `promise()`: it compiles a function per hook instance, so every new
 * bus (every host, every reload) starts with cold code, and it makes at least one promise and a few
 * microtasks per tap even when every handler answers synchronously. These loops are compiled once
 * for every bus, and stay synchronous until a tap returns a promise.
 * Contract: the same order and semantics as tapable's AsyncSeriesBail/Waterfall/Series hooks; a
 * dispatcher is built once per hook (its taps are fixed: a bus is immutable).
 */
export type Dispatch<A extends unknown[], R> = (...args: A) => R | Promise<R>;

/**
 * A dispatcher whose caller may hand it the continuation of the stage (`end`): it runs on the
 * stage's result in the step that produces it, so an asynchronous stage costs its caller no promise
 * and no microtask of its own.
 */
export type StageDispatch<S, R> = <T = R>(state: S, end?: (value: R) => T | Promise<T>) => T | Promise<T>;

/** The continuation when the caller gives none: the stage's result as it is. */
const same = (value: unknown): never => value as never;

/** Bail: the first tap that returns something other than `undefined` decides; else `undefined`. */
export function bailDispatch<S, R>(hook: TappedHook): StageDispatch<S, R | undefined> {
  const taps = tapsOf<[S], R | undefined>(hook);
  const from = <T>(state: S, start: number, end: (value: R | undefined) => T | Promise<T>): T | Promise<T> => {
    for (let i = start; i < taps.length; i++) {
      const out = (taps[i] as TapFn<[S], R | undefined>)(state);
      if (isPromiseLike<R | undefined>(out)) {
        return Promise.resolve(out).then((value) => (value !== undefined ? end(value) : from(state, i + 1, end)));
      }
      if (out !== undefined) return end(out);
    }
    return end(undefined);
  };
  return (state, end) => from(state, 0, end ?? same);
}

/** Waterfall: each tap gets the value the previous one returned (`undefined` keeps the value). */
export function waterfallDispatch<S>(hook: TappedHook): StageDispatch<S, S> {
  const taps = tapsOf<[S], S | undefined>(hook);
  const from = <T>(state: S, start: number, end: (value: S) => T | Promise<T>): T | Promise<T> => {
    let value = state;
    for (let i = start; i < taps.length; i++) {
      const out = (taps[i] as TapFn<[S], S | undefined>)(value);
      if (isPromiseLike<S | undefined>(out)) {
        const current = value;
        return Promise.resolve(out).then((next) => from(next !== undefined ? next : current, i + 1, end));
      }
      if (out !== undefined) value = out;
    }
    return end(value);
  };
  return (state, end) => from(state, 0, end ?? same);
}

/** Series: every tap in order, each after the previous one settled. */
export function seriesDispatch<A, B>(hook: TappedHook): Dispatch<[A, B], void> {
  const taps = tapsOf<[A, B], void>(hook);
  const from = (a: A, b: B, start: number): void | Promise<void> => {
    for (let i = start; i < taps.length; i++) {
      const out = (taps[i] as TapFn<[A, B], void>)(a, b);
      if (isPromiseLike<void>(out)) return Promise.resolve(out).then(() => from(a, b, i + 1));
    }
    return undefined;
  };
  return (a, b) => from(a, b, 0);
}
