/** A view of an object that records whether anything reachable through it was changed. */
export interface TrackedObject<T extends object> {
  proxy: T;
  isDirty(): boolean;
}

/**
 * Wraps a JSON-like object so that writes and deletes at any depth are detected.
 * Contract: the proxy writes through to the original object; reading is transparent.
 */
export function trackMutations<T extends object>(target: T): TrackedObject<T> {
  let dirty = false;
  const proxies = new WeakMap<object, object>();
  const handler: ProxyHandler<object> = {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver);
      return value !== null && typeof value === "object" ? wrap(value) : value;
    },
    set(obj, key, value) {
      dirty = true;
      return Reflect.set(obj, key, value);
    },
    deleteProperty(obj, key) {
      dirty = true;
      return Reflect.deleteProperty(obj, key);
    },
    defineProperty(obj, key, descriptor) {
      dirty = true;
      return Reflect.defineProperty(obj, key, descriptor);
    },
  };
  function wrap(obj: object): object {
    let proxy = proxies.get(obj);
    if (!proxy) {
      proxy = new Proxy(obj, handler);
      proxies.set(obj, proxy);
    }
    return proxy;
  }
  return { proxy: wrap(target) as T, isDirty: () => dirty };
}
