/**
 * A schema built on first use (decision 0018). A contract's top-level `z.object(...)` runs zod's constructors when
 * the module loads — in the Worker, at every cold start, for every contract of every feature, though a request uses
 * one or two. `lazySchema(() => z.object(...))` gives the same schema, typed the same, built the first time anything
 * reads it (parse, shape, extend, describe ...), then the same object for ever.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => {
    built ??= build();
    return built;
  };
  // The target only anchors the proxy; every trap answers from the built schema.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      // A property the (empty) target lacks may only be reported as configurable.
      return d ? { ...d, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_, key, d) => Reflect.defineProperty(real(), key, d),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
  });
}
