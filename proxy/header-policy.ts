// What crosses the proxy and what does not: the CORS headers it answers with, the request headers it drops before a
// target (hop-by-hop, cookies, origin, its own token), the response headers it drops or rewrites, and the headers
// that may follow a redirect to another origin.
import type http from "node:http";
import { splitList } from "./config.ts";
import { PROXY_TOKEN_HEADER } from "./token.ts";

/** Response headers browser code may read: what the OpenAI-compatible clients and MCP Streamable HTTP look at. */
export const EXPOSED_HEADERS: readonly string[] = [
  "content-type",
  "content-length",
  "content-encoding",
  "cache-control",
  "date",
  "etag",
  "location",
  "retry-after",
  "www-authenticate",
  "mcp-session-id",
  "mcp-protocol-version",
  "x-request-id",
  "request-id",
  "openai-organization",
  "openai-processing-ms",
  "openai-version",
  "x-ratelimit-limit-requests",
  "x-ratelimit-limit-tokens",
  "x-ratelimit-remaining-requests",
  "x-ratelimit-remaining-tokens",
  "x-ratelimit-reset-requests",
  "x-ratelimit-reset-tokens",
];

export const FORWARD_PREFIX = "/forward/";
/** Methods a preflight to /forward/ may ask for. */
export const ALLOWED_METHODS = "GET,POST,PUT,PATCH,DELETE,OPTIONS";
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
// `expect` is dropped because Node has already answered any 100-continue on our side of the hop; the proxy's token is
// its own and never reaches a target.
const DROPPED_REQUEST_HEADERS = new Set(["host", "origin", "referer", "cookie", "expect", PROXY_TOKEN_HEADER]);
const DROPPED_RESPONSE_HEADERS = new Set(["set-cookie", "set-cookie2"]);

export function connectionTokens(value: string | undefined): Set<string> {
  return new Set(splitList(value?.toLowerCase()));
}

export function corsHeaders(origin: string | undefined): http.OutgoingHttpHeaders {
  if (origin === undefined) return { vary: "Origin" };
  return {
    vary: "Origin",
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
  };
}

export function forwardedRequestHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const listed = connectionTokens(req.headers.connection);
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined || HOP_BY_HOP.has(name) || listed.has(name) || DROPPED_REQUEST_HEADERS.has(name)) continue;
    if (name.startsWith("sec-") || name.startsWith("access-control-request-")) continue;
    out[name] = values.length === 1 ? values[0] : values;
  }
  // Without this, Node would send a chunked GET/DELETE body unframed.
  if (req.headers["transfer-encoding"] !== undefined && req.headers["content-length"] === undefined) {
    out["transfer-encoding"] = "chunked";
  }
  return out;
}

function rewriteLocation(value: string, target: URL): string {
  let resolved: URL;
  try {
    resolved = new URL(value, target);
  } catch {
    return value;
  }
  // Only same-origin redirects stay on the proxy: following a cross-origin one here would leak the key to that host.
  return resolved.origin === target.origin ? `${FORWARD_PREFIX}${resolved.href}` : value;
}

export function forwardedResponseHeaders(upstream: http.IncomingMessage, target: URL): http.OutgoingHttpHeaders {
  const listed = connectionTokens(upstream.headers.connection);
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries(upstream.headersDistinct)) {
    if (values === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    if (DROPPED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-")) continue;
    if (name === "location") {
      const first = values[0];
      if (first !== undefined) out.location = rewriteLocation(first, target);
      continue;
    }
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export function mergeVary(upstreamVary: string | undefined, cors: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  if (upstreamVary === undefined) return cors;
  const tokens = connectionTokens(upstreamVary);
  if (tokens.has("*") || tokens.has("origin")) return { ...cors, vary: upstreamVary };
  return { ...cors, vary: `${upstreamVary}, Origin` };
}

/** Headers dropped when a redirect turns the request into a GET without a body (as fetch does). */
export const BODY_HEADERS = [
  "content-length",
  "content-type",
  "content-encoding",
  "content-language",
  "content-location",
  "transfer-encoding",
];
/**
 * The only request headers that follow a redirect to another origin. Keys travel in many headers (authorization,
 * x-api-key, api-key, x-goog-api-key, ...), so the rest stay with the origin the client addressed.
 */
export const CROSS_ORIGIN_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "pragma",
  "user-agent",
  ...BODY_HEADERS,
]);

export function withoutHeaders(
  headers: http.OutgoingHttpHeaders,
  drop: (name: string) => boolean,
): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop(name)));
}
