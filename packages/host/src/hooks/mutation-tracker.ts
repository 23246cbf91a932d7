import { keepShape } from "../common/keep-shape.ts";

/** A view of an object that records whether anything reachable through it was changed. */
export interface TrackedObject<T extends object> {
  proxy: T;
  isDirty(): boolean;
}

/**
 * The proxy handler of one tracked object: proxy traps are called with the handler as `this`, so
 * one object per tracked input holds the state and no closure is made per call. The map from
 * objects to their proxies is made only when a nested object is first reached (most handlers read
 * a field or two of a flat input, or nothing at all).
 */
class MutationTracker implements ProxyHandler<object>, TrackedObject<object> {
  dirty = false;
  readonly #root: object;
  readonly #rootProxy: object;
  #proxies: WeakMap<object, object> | undefined;

  constructor(root: object) {
    this.#root = root;
    this.#rootProxy = new Proxy(root, this);
  }

  get proxy(): object {
    return this.#rootProxy;
  }

  isDirty(): boolean {
    return this.dirty;
  }

  get(obj: object, key: string | symbol, receiver: unknown): unknown {
    const value = Reflect.get(obj, key, receiver);
    return value !== null && typeof value === "object" ? this.#wrap(value) : value;
  }

  set(obj: object, key: string | symbol, value: unknown): boolean {
    this.dirty = true;
    return Reflect.set(obj, key, value);
  }

  deleteProperty(obj: object, key: string | symbol): boolean {
    this.dirty = true;
    return Reflect.deleteProperty(obj, key);
  }

  defineProperty(obj: object, key: string | symbol, descriptor: PropertyDescriptor): boolean {
    this.dirty = true;
    return Reflect.defineProperty(obj, key, descriptor);
  }

  #wrap(obj: object): object {
    if (obj === this.#root) return this.#rootProxy;
    this.#proxies ??= new WeakMap();
    let proxy = this.#proxies.get(obj);
    if (!proxy) {
      proxy = new Proxy(obj, this);
      this.#proxies.set(obj, proxy);
    }
    return proxy;
  }
}

/**
 * Wraps a JSON-like object so that writes and deletes at any depth are detected.
 * Contract: the proxy writes through to the original object; reading is transparent; an object
 * reached twice gives the same proxy both times.
 */
export function trackMutations<T extends object>(target: T): TrackedObject<T> {
  // The tracker is its own handle: no wrapper object or closure per tracked call.
  return new MutationTracker(target) as unknown as TrackedObject<T>;
}

// One tracker per transformed call: its layout (and the code built on it) outlives each run.
keepShape(new MutationTracker({}));
