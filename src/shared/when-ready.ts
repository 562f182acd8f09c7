// An object whose methods wait for the real object to be ready, so a service can be exposed before it opens.

type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** Forwards every method call to the object `ready` resolves to; a failed `ready` rejects each call. */
export function whenReady<T extends object>(ready: Promise<T>): AsyncMethods<T> {
  return new Proxy({} as AsyncMethods<T>, {
    get(_target, property) {
      if (property === "then") return undefined; // not a thenable itself
      return async (...args: unknown[]) => {
        const target = await ready;
        const method = Reflect.get(target, property) as unknown;
        if (typeof method !== "function") throw new TypeError(`${String(property)} is not a method`);
        return (method as (...params: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
