// A Gateway client whose calls wait for the client itself (a server workspace being opened in the agent worker), so
// the stores over it are made, and shown, at once (state/workspaces.ts).
/**
 * A client whose calls wait for `ready` (a workspace being opened), so the stores over it can be made, and shown, at
 * once: the page reads "loading" rather than nothing. Follows the stores' paths: `client.domain.method(…)` and
 * `client.protocolVersion()`.
 */
export function laterClient<Client extends object>(ready: Promise<Client>): Client {
  const call = (path: string[], args: unknown[]) =>
    ready.then((client) => {
      const method = path.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], client);
      return (method as (...args: unknown[]) => unknown)(...args);
    });
  const domain = (name: string) =>
    new Proxy(() => undefined, {
      apply: (_target, _this, args: unknown[]) => call([name], args),
      get: (_target, method) =>
        typeof method === "string" ? (...args: unknown[]) => call([name, method], args) : undefined,
    });
  return new Proxy({} as Client, {
    // Not a thenable: `await` and promise resolution take it as it is.
    get: (_target, name) => (typeof name === "string" && name !== "then" ? domain(name) : undefined),
  });
}
