// Fawn's proxy wants its token (the secret `npm run proxy` keeps in its token file) on every request. It goes in a
// header of its own, only to the proxy's origin: never to a model endpoint, an MCP server or a web page.

/** The header the proxy reads its token from (proxy/token.ts); `Authorization` carries the provider's key. */
export const PROXY_TOKEN_HEADER = "X-Fawn-Proxy-Token";

/** The `type` of the proxy's 401 body when a request lacks the token or carries a wrong one. */
export const PROXY_TOKEN_ERROR_TYPE = "proxy_token";
/** How the proxy's 401 sentence begins (proxy/server.ts); the app shows that sentence as it is. */
export const PROXY_TOKEN_SENTENCE = "Fawn's proxy needs its token";

function originOf(url: string | URL): string | undefined {
  try {
    return new URL(String(url)).origin;
  } catch {
    return undefined;
  }
}

/** True when a request to `url` goes to the proxy whose prefix is `proxyUrl` (same scheme, host and port). */
export function goesToProxy(url: string | URL, proxyUrl: string): boolean {
  const proxy = originOf(proxyUrl);
  return proxy !== undefined && proxy !== "null" && originOf(url) === proxy;
}

/**
 * `base` with the token added to every request that goes to the proxy at `proxyUrl` (its `/forward/` relay and its
 * `/mcp/<name>` bridge alike), and to no other. No token: `base` itself.
 */
export function withProxyToken<I extends string | URL | Request>(
  base: (input: I, init?: RequestInit) => Promise<Response>,
  proxyUrl: string,
  token: string | undefined,
): (input: I, init?: RequestInit) => Promise<Response> {
  const secret = token?.trim();
  if (!secret) return base;
  return (input, init) => {
    const url: string | URL = input instanceof Request ? input.url : (input as string | URL);
    if (!goesToProxy(url, proxyUrl)) return base(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(PROXY_TOKEN_HEADER, secret);
    return base(input, { ...init, headers });
  };
}
