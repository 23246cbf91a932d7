import { isPromiseLike } from "../common/is-promise.ts";

/**
 * How a tap is called: with the stage's state (or event and context) and `next`, the dispatcher's
 * next step. A tap answers synchronously with its value, or, when its handler is asynchronous, with
 * a promise of what `next` returned on its value (it applied `next` itself, in the step that
 * settled the handler: see `handlerRunner`'s `after`). So an asynchronous handler costs its stage
 * one promise, not two, and no microtask of the dispatcher's own.
 * Contract: a tap returns a promise only once it has handed its answer to `next`.
 */
type Tap<A extends unknown[], R> = (...args: [...A, next: (value: R) => unknown]) => R | Promise<unknown>;

/** A tapable hook, as far as dispatch is concerned: its taps, already in order. */
interface TappedHook {
  readonly taps: readonly { fn: unknown }[];
}

/** The functions tapped on `hook`, in tapable's order (stage, then registration). */
function tapsOf<A extends unknown[], R>(hook: TappedHook): readonly Tap<A, R>[] {
  return hook.taps.map((tap) => tap.fn as Tap<A, R>);
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
      const next = (value: R | undefined) => (value !== undefined ? end(value) : from(state, i + 1, end));
      const out = (taps[i] as Tap<[S], R | undefined>)(state, next);
      if (isPromiseLike<T>(out)) return out as unknown as Promise<T>;
      if (out !== undefined) return end(out as R);
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
      const current = value;
      const next = (out: S | undefined) => from(out !== undefined ? out : current, i + 1, end);
      const out = (taps[i] as Tap<[S], S | undefined>)(value, next);
      if (isPromiseLike<T>(out)) return out as unknown as Promise<T>;
      if (out !== undefined) value = out as S;
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
      const out = (taps[i] as Tap<[A, B], void>)(a, b, () => from(a, b, i + 1));
      if (isPromiseLike<void>(out)) return out as Promise<void>;
    }
    return undefined;
  };
  return (a, b) => from(a, b, 0);
}
