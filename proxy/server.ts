// Optional localhost proxy: forwards /forward/<url> to endpoints that refuse browser requests, and serves the local
// stdio MCP servers of its config file at /mcp/<name>.
import dns from "node:dns";
import { realpathSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline, Transform } from "node:stream";
import { pathToFileURL } from "node:url";
import {
  MCP_ALLOWED_HEADERS,
  MCP_ALLOWED_METHODS,
  McpBridge,
  mcpServersFromEnv,
  type McpStdioServer,
} from "./mcp-bridge.ts";
import { TargetPolicy, targetPort, type ResolveHost } from "./target-policy.ts";
import {
  assertUsableToken,
  loadOrCreateToken,
  PROXY_TOKEN_HEADER,
  TOKEN_ERROR_TYPE,
  tokenFileFromEnv,
  tokenMatches,
} from "./token.ts";

export { TargetPolicy, type ResolveHost, type ResolvedAddress } from "./target-policy.ts";
export { McpConfigError, mcpServersFromConfig, mcpServersFromEnv, type McpStdioServer } from "./mcp-bridge.ts";
export { loadOrCreateToken, PROXY_TOKEN_HEADER, TOKEN_ERROR_TYPE, tokenFileFromEnv } from "./token.ts";

const MiB = 1024 * 1024;

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";
/** What `npm start` / `npm run preview` serve Fawn on: the one origin allowed by default. */
export const DEFAULT_APP_ORIGIN = "http://127.0.0.1:4173";
/**
 * Wait for response headers. Generous because a local model server (e.g. Ollama) answers only once it has loaded the
 * model, which can take a minute or more from disk.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 120_000;
/** Silence allowed between two chunks of a response: a reasoning model may think for minutes between SSE events. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** Room for a long conversation with a few images inlined as base64. */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * MiB;
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * MiB;
/** Redirects the proxy follows itself (checking each hop) before it gives up. */
export const DEFAULT_MAX_REDIRECTS = 5;

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

const FORWARD_PREFIX = "/forward/";
const MCP_PREFIX = "/mcp/";
const ALLOWED_METHODS = "GET,POST,PUT,PATCH,DELETE,OPTIONS";
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

export interface ProxyOptions {
  /**
   * The secret every request must carry in X-Fawn-Proxy-Token (the token file's, see loadOrCreateToken): the Origin
   * header alone is forged by any local process. Required.
   */
  token: string;
  /** Where the token is kept, named in the 401 that a missing or wrong token gets. */
  tokenFile?: string;
  /** The origin Fawn is served from; always allowed. Default DEFAULT_APP_ORIGIN (FAWN_APP_ORIGIN). */
  appOrigin?: string;
  /** More origins allowed to use the proxy ("*": any origin, and no Origin at all) (FAWN_PROXY_ORIGINS). */
  allowedOrigins?: readonly string[];
  /**
   * FAWN_PROXY_TARGETS entries: "*" (any public host), a host name, or host:port. Undefined or empty: any public host.
   * Loopback, private, link-local, CGNAT and metadata targets need their exact host:port listed (see TargetPolicy).
   */
  allowedTargets?: readonly string[];
  /** No response headers this long after the request began: 504. Default DEFAULT_HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
  /** No response bytes for this long while streaming: the stream is cut. Default DEFAULT_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** Larger request bodies get 413. Default DEFAULT_MAX_REQUEST_BYTES. */
  maxRequestBytes?: number;
  /** Larger responses get 502 (declared length) or are cut (streamed). Default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
  /** Default DEFAULT_MAX_REDIRECTS. */
  maxRedirects?: number;
  /** Resolves target host names at connect time; default dns.lookup (all addresses). */
  resolveHost?: ResolveHost;
  /**
   * Agents for upstream connections; default one keep-alive agent per scheme for this server. An agent must pass the
   * request's `lookup` option to its connections, or names skip the connect-time address check.
   */
  httpAgent?: http.Agent;
  httpsAgent?: https.Agent;
  /** Receives one line per request (never header values or query strings); null silences it. Default: console.log. */
  log?: ((line: string) => void) | null;
  /** Stdio MCP servers served at /mcp/<name>, from the config file only (mcpServersFromEnv). Default: none. */
  mcpServers?: readonly McpStdioServer[];
  /** Sessions (child processes) per MCP server. Default DEFAULT_MCP_MAX_SESSIONS (FAWN_PROXY_MCP_MAX_SESSIONS). */
  mcpMaxSessions?: number;
  /** An MCP session idle this long closes with its child. Default DEFAULT_MCP_IDLE_TIMEOUT_MS (FAWN_PROXY_MCP_IDLE_TIMEOUT). */
  mcpIdleTimeoutMs?: number;
  /** The MCP bridge's lines: sessions, each server's stderr, cancellations. Not silenced by `log: null`. Default: console.error. */
  mcpLog?: (line: string) => void;
}

export interface StartProxyOptions extends ProxyOptions {
  /** Default DEFAULT_PORT; 0 picks a free port. */
  port?: number;
  /** Default DEFAULT_HOST. */
  host?: string;
}

export interface RunningProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

function splitList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** A positive number of seconds from `env[name]`, in milliseconds; undefined when unset. */
function secondsFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds <= 0) {
    throw new Error(`${name} must be a number of seconds above 0, got "${raw}"`);
  }
  return Math.round(seconds * 1000);
}

/** A positive byte count from `env[name]` ("33554432", "32M", "32MiB", "1G"); undefined when unset. */
function bytesFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const match = /^(\d+)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(raw);
  const scale = { k: 1024, m: MiB, g: 1024 * MiB } as const;
  const unit = match?.[2]?.toLowerCase() as keyof typeof scale | undefined;
  const bytes = match === null ? NaN : Number(match[1]) * (unit === undefined ? 1 : scale[unit]);
  if (!(bytes > 0)) throw new Error(`${name} must be a size in bytes such as 33554432 or 32MiB, got "${raw}"`);
  return bytes;
}

/** The origin `value` names, or an error naming FAWN_APP_ORIGIN. */
function appOriginFromEnv(value: string | undefined): string {
  const raw = value?.trim();
  if (raw === undefined || raw === "") return DEFAULT_APP_ORIGIN;
  let origin: string | undefined;
  try {
    origin = new URL(raw).origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === "null" || normalizeOrigin(raw) !== origin) {
    throw new Error(`FAWN_APP_ORIGIN must be an origin such as ${DEFAULT_APP_ORIGIN} (no path), got "${raw}"`);
  }
  return origin;
}

/** A whole number above 0 from `env[name]`; undefined when unset. */
function countFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) === 0) throw new Error(`${name} must be a whole number above 0, got "${raw}"`);
  return Number(raw);
}

/**
 * Reads FAWN_PROXY_PORT, FAWN_PROXY_HOST, FAWN_APP_ORIGIN, FAWN_PROXY_ORIGINS, FAWN_PROXY_TARGETS,
 * FAWN_PROXY_HEADERS_TIMEOUT, FAWN_PROXY_IDLE_TIMEOUT (seconds), FAWN_PROXY_MAX_REQUEST_BYTES,
 * FAWN_PROXY_MAX_RESPONSE_BYTES, FAWN_PROXY_MCP_MAX_SESSIONS, FAWN_PROXY_MCP_IDLE_TIMEOUT (seconds) and
 * FAWN_PROXY_QUIET. Unset ones are left out, so the defaults apply. The MCP config file is read by mcpServersFromEnv.
 */
export function proxyOptionsFromEnv(
  env: Env,
): Omit<StartProxyOptions, "token"> & { port: number; host: string; appOrigin: string } {
  const rawPort = env.FAWN_PROXY_PORT?.trim();
  let port = DEFAULT_PORT;
  if (rawPort !== undefined && rawPort !== "") {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port > 65535) {
      throw new Error(`FAWN_PROXY_PORT must be a port number, got "${rawPort}"`);
    }
  }
  const origins = splitList(env.FAWN_PROXY_ORIGINS);
  const targets = splitList(env.FAWN_PROXY_TARGETS);
  // Fail at start-up, not on the first request, for an entry the policy cannot read.
  new TargetPolicy(targets);
  const quiet = env.FAWN_PROXY_QUIET === "1" || env.FAWN_PROXY_QUIET?.toLowerCase() === "true";
  const limits = {
    headersTimeoutMs: secondsFromEnv(env, "FAWN_PROXY_HEADERS_TIMEOUT"),
    idleTimeoutMs: secondsFromEnv(env, "FAWN_PROXY_IDLE_TIMEOUT"),
    maxRequestBytes: bytesFromEnv(env, "FAWN_PROXY_MAX_REQUEST_BYTES"),
    maxResponseBytes: bytesFromEnv(env, "FAWN_PROXY_MAX_RESPONSE_BYTES"),
    mcpMaxSessions: countFromEnv(env, "FAWN_PROXY_MCP_MAX_SESSIONS"),
    mcpIdleTimeoutMs: secondsFromEnv(env, "FAWN_PROXY_MCP_IDLE_TIMEOUT"),
  };
  return {
    port,
    host: env.FAWN_PROXY_HOST?.trim() || DEFAULT_HOST,
    appOrigin: appOriginFromEnv(env.FAWN_APP_ORIGIN),
    ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
    ...(targets.length > 0 ? { allowedTargets: targets } : {}),
    ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
    ...(quiet ? { log: null } : {}),
  };
}

function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}

function connectionTokens(value: string | undefined): Set<string> {
  return new Set(splitList(value?.toLowerCase()));
}

function errorBody(message: string): { error: { message: string; type: "proxy_error" } } {
  return { error: { message, type: "proxy_error" } };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

function corsHeaders(origin: string | undefined): http.OutgoingHttpHeaders {
  if (origin === undefined) return { vary: "Origin" };
  return {
    vary: "Origin",
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
  };
}

type TargetResult = { ok: true; url: URL } | { ok: false; message: string };

function parseTarget(rawTarget: string): TargetResult {
  let raw = rawTarget;
  // Some URL joiners percent-encode the whole target or collapse its "//"; both are unambiguous to undo.
  if (/^https?%3a/i.test(raw)) {
    try {
      raw = decodeURIComponent(raw);
    } catch {
      return { ok: false, message: "The target URL is not valid percent-encoding." };
    }
  }
  raw = raw.replace(/^(https?):\/(?!\/)/i, "$1://");
  if (raw === "") return { ok: false, message: "Missing target URL: use /forward/https://host/path." };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "The target is not an absolute URL: use /forward/https://host/path." };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, message: `Only http and https targets are supported, not ${url.protocol}` };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "Credentials in the target URL are not supported; send them as headers." };
  }
  return { ok: true, url };
}

function forwardedRequestHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
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

function forwardedResponseHeaders(upstream: http.IncomingMessage, target: URL): http.OutgoingHttpHeaders {
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

function mergeVary(upstreamVary: string | undefined, cors: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  if (upstreamVary === undefined) return cors;
  const tokens = connectionTokens(upstreamVary);
  if (tokens.has("*") || tokens.has("origin")) return { ...cors, vary: upstreamVary };
  return { ...cors, vary: `${upstreamVary}, Origin` };
}

/** Redirect statuses the proxy follows itself; other 3xx answers go to the client as they are. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers dropped when a redirect turns the request into a GET without a body (as fetch does). */
const BODY_HEADERS = [
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
const CROSS_ORIGIN_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "pragma",
  "user-agent",
  ...BODY_HEADERS,
]);

/** A lookup that found a refused address: answered with its sentence (403), not as an unreachable host (502). */
class TargetRefused extends Error {}

interface Limits {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

interface RelayContext {
  policy: TargetPolicy;
  limits: Limits;
  resolveHost: ResolveHost;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** Adds a note to this request's log line. */
  note(text: string): void;
}

function formatBytes(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

function withoutHeaders(headers: http.OutgoingHttpHeaders, drop: (name: string) => boolean): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop(name)));
}

/** The URL a redirect's Location leads to, if the proxy may follow it (http or https, no credentials). */
function redirectTarget(location: string, from: URL): URL | undefined {
  try {
    const next = new URL(location, from);
    if (next.protocol !== "http:" && next.protocol !== "https:") return undefined;
    if (next.username !== "" || next.password !== "") return undefined;
    return next;
  } catch {
    return undefined;
  }
}

/**
 * One client request relayed upstream. It follows redirects itself, so every hop passes the target policy (before
 * connecting, and on the addresses DNS gives at connect time) and the client only ever sees the final answer.
 * The request body streams through; a copy is kept until the final response so a 307/308 can send it again.
 */
class Relay {
  private current: http.ClientRequest | undefined;
  private currentUrl: URL;
  /** The upstream request the client's body is streaming into, if any. */
  private bodySink: http.ClientRequest | undefined;
  private bodyCopy: Buffer[] | undefined = [];
  private bodyBytes = 0;
  private bodyEnded = false;
  private redirects = 0;
  private failed = false;
  private headersTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly origin: string | undefined,
    private readonly ctx: RelayContext,
    target: URL,
  ) {
    this.currentUrl = target;
  }

  start(): void {
    const { policy, limits } = this.ctx;
    const first = policy.check(this.currentUrl);
    if (!first.ok) {
      this.fail(403, first.message, " (target refused)");
      return;
    }
    if (Number(this.req.headers["content-length"]) > limits.maxRequestBytes) {
      this.refuseBody();
      return;
    }
    // The client hanging up (stop button, closed tab) must cancel the upstream generation too.
    this.res.once("close", () => {
      clearTimeout(this.headersTimer);
      if (!this.res.writableFinished) this.abortUpstream();
    });
    this.req.on("data", (chunk: Buffer) => this.onBodyChunk(chunk));
    this.req.on("end", () => {
      this.bodyEnded = true;
      this.bodySink?.end();
    });
    this.headersTimer = setTimeout(() => {
      const message =
        `${this.currentUrl.host} sent no response within ${formatSeconds(limits.headersTimeoutMs)}; ` +
        "to wait longer, raise FAWN_PROXY_HEADERS_TIMEOUT (seconds).";
      this.fail(504, message, " (upstream timeout)");
    }, limits.headersTimeoutMs);
    this.hop(this.currentUrl, this.req.method ?? "GET", forwardedRequestHeaders(this.req), true, undefined);
  }

  private onBodyChunk(chunk: Buffer): void {
    if (this.failed) return;
    this.bodyBytes += chunk.length;
    if (this.bodyBytes > this.ctx.limits.maxRequestBytes) {
      this.refuseBody();
      return;
    }
    this.bodyCopy?.push(chunk);
    const sink = this.bodySink;
    if (sink !== undefined && !sink.write(chunk)) {
      this.req.pause();
      sink.once("drain", () => this.req.resume());
    }
  }

  private refuseBody(): void {
    const size = formatBytes(this.ctx.limits.maxRequestBytes);
    const message = `The request body is larger than Fawn's proxy accepts (${size}); to send it, raise FAWN_PROXY_MAX_REQUEST_BYTES.`;
    this.fail(413, message, " (body too large)");
  }

  /** Sends one request upstream: `withBody` streams the client's body (what has arrived, then the rest) into it. */
  private hop(url: URL, method: string, headers: http.OutgoingHttpHeaders, withBody: boolean, from?: string): void {
    if (this.failed || this.res.destroyed) return;
    const { policy, resolveHost } = this.ctx;
    const check = policy.check(url, from);
    if (!check.ok) {
      this.fail(403, check.message, " (target refused)");
      return;
    }
    const port = targetPort(url);
    // Runs at connect time for host names (Node skips it for IP literals, which check() has judged), so the addresses
    // checked are the addresses connected to: a name cannot pass here and then rebind to a refused address.
    const lookup: LookupFunction = (hostname, options, callback) => {
      resolveHost(hostname).then(
        (found) => {
          const refusal = check.explicit ? undefined : policy.checkResolved(hostname, port, found, from);
          if (refusal !== undefined) return callback(new TargetRefused(refusal), "");
          const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
          const usable = found.filter((entry) => family === 0 || entry.family === family);
          const [firstAddress] = usable;
          if (firstAddress === undefined) {
            const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            error.code = "ENOTFOUND";
            return callback(error, "");
          }
          if (options.all !== true) return callback(null, firstAddress.address, firstAddress.family);
          return callback(
            null,
            usable.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        },
        (error: NodeJS.ErrnoException) => callback(error, ""),
      );
    };
    const secure = url.protocol === "https:";
    const options: http.RequestOptions = {
      method,
      headers,
      lookup,
      agent: secure ? this.ctx.httpsAgent : this.ctx.httpAgent,
    };
    const upstreamReq = secure ? https.request(url, options) : http.request(url, options);
    this.current = upstreamReq;
    this.currentUrl = url;
    upstreamReq.on("response", (upstreamRes) => this.onResponse(upstreamReq, upstreamRes, method, headers));
    upstreamReq.on("error", (err: NodeJS.ErrnoException) => this.onError(upstreamReq, err));
    if (!withBody) {
      this.bodySink = undefined;
      upstreamReq.end();
      return;
    }
    this.bodySink = upstreamReq;
    for (const chunk of this.bodyCopy ?? []) upstreamReq.write(chunk);
    if (this.bodyEnded) upstreamReq.end();
    // It may have been paused for the previous hop's backpressure, whose drain will now never come.
    this.req.resume();
  }

  private onResponse(
    upstreamReq: http.ClientRequest,
    upstreamRes: http.IncomingMessage,
    method: string,
    headers: http.OutgoingHttpHeaders,
  ): void {
    if (upstreamReq !== this.current) {
      upstreamRes.resume();
      return;
    }
    const url = this.currentUrl;
    const status = upstreamRes.statusCode ?? 502;
    const location = upstreamRes.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      upstreamRes.on("error", () => {});
      upstreamRes.resume();
      const next = redirectTarget(location, url);
      if (next === undefined) {
        const message = `${url.host} redirected to a URL Fawn's proxy does not follow (only http and https, without credentials).`;
        this.fail(502, message, " (bad redirect)");
        return;
      }
      if (this.redirects >= this.ctx.limits.maxRedirects) {
        const message = `${url.host} redirected more than ${this.ctx.limits.maxRedirects} times, so Fawn's proxy stopped following.`;
        this.fail(502, message, " (too many redirects)");
        return;
      }
      this.redirects += 1;
      // The old request may still be uploading; this hop is over either way.
      this.current = undefined;
      this.bodySink = undefined;
      if (!upstreamReq.writableFinished) upstreamReq.destroy();
      // As fetch does: 303 (and 301/302 after a POST) become a GET without a body; 307/308 resend it.
      const toGet =
        ((status === 301 || status === 302) && method === "POST") ||
        (status === 303 && method !== "GET" && method !== "HEAD");
      let nextHeaders = toGet ? withoutHeaders(headers, (name) => BODY_HEADERS.includes(name)) : headers;
      if (next.origin !== url.origin) {
        nextHeaders = withoutHeaders(nextHeaders, (name) => !CROSS_ORIGIN_HEADERS.has(name));
      }
      this.hop(next, toGet ? "GET" : method, nextHeaders, !toGet, url.host);
      return;
    }
    this.relay(upstreamRes, status, url);
  }

  /** Passes the final response to the client, cutting it on idle or once it passes the size limit. */
  private relay(upstreamRes: http.IncomingMessage, status: number, url: URL): void {
    const { limits } = this.ctx;
    clearTimeout(this.headersTimer);
    this.bodyCopy = undefined;
    const tooLarge =
      `The response from ${url.host} is larger than Fawn's proxy relays (${formatBytes(limits.maxResponseBytes)}); ` +
      "to receive it, raise FAWN_PROXY_MAX_RESPONSE_BYTES.";
    if (Number(upstreamRes.headers["content-length"]) > limits.maxResponseBytes) {
      this.fail(502, tooLarge, " (response too large)");
      return;
    }
    const headers = forwardedResponseHeaders(upstreamRes, url);
    const cors = mergeVary(upstreamRes.headers.vary, corsHeaders(this.origin));
    this.res.writeHead(status, { ...headers, ...cors });
    // Send headers now so an SSE client sees the response before the first event.
    this.res.flushHeaders();

    let received = 0;
    const idleTimer = setTimeout(() => {
      this.ctx.note(" (upstream idle timeout)");
      guard.destroy(new Error(`${url.host} sent nothing for ${formatSeconds(limits.idleTimeoutMs)}.`));
    }, limits.idleTimeoutMs);
    const guard = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        received += chunk.length;
        if (received > limits.maxResponseBytes) {
          this.ctx.note(" (response too large)");
          callback(new Error(tooLarge));
          return;
        }
        idleTimer.refresh();
        callback(null, chunk);
      },
    });
    // On any failure mid-body this destroys `res`, so the client sees a cut stream rather than a clean end.
    pipeline(upstreamRes, guard, this.res, () => clearTimeout(idleTimer));
  }

  private onError(upstreamReq: http.ClientRequest, err: NodeJS.ErrnoException): void {
    if (upstreamReq !== this.current) return;
    this.current = undefined;
    if (err instanceof TargetRefused) {
      this.fail(403, err.message, " (target refused)");
      return;
    }
    const reason = err.message || err.code || "unknown error";
    this.fail(502, `Could not reach ${this.currentUrl.host}: ${reason}`, "");
  }

  private abortUpstream(): void {
    const upstreamReq = this.current;
    this.current = undefined;
    this.bodySink = undefined;
    upstreamReq?.destroy();
  }

  /**
   * Ends the relay with the proxy's own error body, or cuts the response if it has already begun. The rest of the
   * client's body is read and dropped, so the client gets the answer rather than a reset mid-upload.
   */
  private fail(status: number, message: string, note: string): void {
    if (this.failed) return;
    this.failed = true;
    this.ctx.note(note);
    clearTimeout(this.headersTimer);
    this.bodyCopy = undefined;
    this.abortUpstream();
    this.req.resume();
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    if (this.res.destroyed || this.res.writableEnded) return;
    sendJson(this.res, status, errorBody(message), corsHeaders(this.origin));
  }
}

/** Each server's MCP bridge, so closing the server can wait for its children to stop. */
const bridges = new WeakMap<http.Server, McpBridge>();

function isMcpPath(path: string): boolean {
  return path === "/mcp" || path.startsWith(MCP_PREFIX);
}

/** Creates (but does not start) the proxy server. */
export function createProxyServer(options: ProxyOptions): http.Server {
  const token = options.token;
  assertUsableToken(token);
  const tokenHint =
    options.tokenFile === undefined
      ? "the token the proxy was started with"
      : `the token from the proxy's token file (${options.tokenFile})`;
  const appOrigin = normalizeOrigin(options.appOrigin ?? DEFAULT_APP_ORIGIN);
  const origins = new Set([appOrigin, ...(options.allowedOrigins ?? []).map(normalizeOrigin)]);
  const anyOrigin = origins.has("*");
  const policy = new TargetPolicy(options.allowedTargets ?? []);
  const limits: Limits = {
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
  };
  const resolveHost: ResolveHost = options.resolveHost ?? ((hostname) => dns.promises.lookup(hostname, { all: true }));
  // Own agents, so keep-alive sockets (each checked when it connected) serve only this server's policy.
  const ownAgents: http.Agent[] = [];
  const httpAgent = options.httpAgent ?? new http.Agent({ keepAlive: true });
  const httpsAgent = options.httpsAgent ?? new https.Agent({ keepAlive: true });
  if (options.httpAgent === undefined) ownAgents.push(httpAgent);
  if (options.httpsAgent === undefined) ownAgents.push(httpsAgent);
  const log = options.log === undefined ? (line: string) => console.log(line) : options.log;
  const mcp = new McpBridge({
    servers: options.mcpServers ?? [],
    maxRequestBytes: limits.maxRequestBytes,
    log: options.mcpLog ?? ((line) => console.error(line)),
    ...(options.mcpMaxSessions !== undefined ? { maxSessionsPerServer: options.mcpMaxSessions } : {}),
    ...(options.mcpIdleTimeoutMs !== undefined ? { idleTimeoutMs: options.mcpIdleTimeoutMs } : {}),
  });

  const server = http.createServer((req, res) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const rawUrl = req.url ?? "/";
    const path = rawUrl.split("?")[0] ?? "/";
    const origin = req.headers.origin;
    let label = path;
    let note = "";

    if (log !== null) {
      res.once("close", () => {
        const status = res.headersSent ? String(res.statusCode) : "-";
        // A cut the proxy made itself carries its note instead.
        const closed = res.writableFinished || note !== "" ? "" : " (client closed)";
        log(`[fawn-proxy] ${method} ${label} ${status}${note}${closed} ${Math.round(performance.now() - started)}ms`);
      });
    }

    let target: TargetResult | undefined;
    if (rawUrl.startsWith(FORWARD_PREFIX)) {
      target = parseTarget(rawUrl.slice(FORWARD_PREFIX.length));
      // Host and path only: query strings can carry keys (e.g. ?key=...).
      label = target.ok ? `${target.url.host}${target.url.pathname}` : "(invalid target)";
    }

    if (origin !== undefined && !anyOrigin && !origins.has(normalizeOrigin(origin))) {
      note = " (origin not allowed)";
      const message =
        `Origin ${origin} is not allowed to use the Fawn proxy. Restart it with FAWN_APP_ORIGIN=${origin} if Fawn ` +
        `is served there, or add it to FAWN_PROXY_ORIGINS (comma-separated; "*" allows any origin).`;
      sendJson(res, 403, errorBody(message), { vary: "Origin" });
      return;
    }

    if (method === "OPTIONS") {
      const requested = isMcpPath(path) ? MCP_ALLOWED_HEADERS : req.headers["access-control-request-headers"];
      res.writeHead(204, {
        ...corsHeaders(origin),
        "access-control-allow-methods": isMcpPath(path) ? MCP_ALLOWED_METHODS : ALLOWED_METHODS,
        ...(requested !== undefined ? { "access-control-allow-headers": requested } : {}),
        "access-control-allow-private-network": "true",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }

    // Every request but the preflight (which browsers send without custom headers, and which runs nothing).
    if (!tokenMatches(token, req.headers[PROXY_TOKEN_HEADER])) {
      note = req.headers[PROXY_TOKEN_HEADER] === undefined ? " (no token)" : " (wrong token)";
      const message =
        "Fawn's proxy needs its token: the request carried no token or a wrong one. " +
        `Paste ${tokenHint} into Settings → Web → Proxy token.`;
      sendJson(res, 401, { error: { message, type: TOKEN_ERROR_TYPE } }, corsHeaders(origin));
      return;
    }

    if (path === "/health" && target === undefined) {
      sendJson(res, 200, { ok: true }, corsHeaders(origin));
      return;
    }

    if (target === undefined && !isMcpPath(path)) {
      const message = "Not found: use /forward/<target URL>, /mcp/<server name> or /health.";
      sendJson(res, 404, errorBody(message), corsHeaders(origin));
      return;
    }

    // Browsers send Origin on every CORS request, so a missing one means curl, a no-cors GET or DNS rebinding.
    if (origin === undefined && !anyOrigin) {
      note = " (no origin)";
      const message = "Requests without an Origin header are refused. Set FAWN_PROXY_ORIGINS=* to allow them.";
      sendJson(res, 403, errorBody(message), { vary: "Origin" });
      return;
    }

    if (target === undefined) {
      void mcp.handle(req, res, path, corsHeaders(origin));
      return;
    }

    if (!target.ok) {
      sendJson(res, 400, errorBody(target.message), corsHeaders(origin));
      return;
    }

    const context: RelayContext = {
      policy,
      limits,
      resolveHost,
      httpAgent,
      httpsAgent,
      note: (text) => (note ||= text),
    };
    new Relay(req, res, origin, context, target.url).start();
  });
  server.once("close", () => {
    ownAgents.forEach((agent) => agent.destroy());
    void mcp.close();
  });
  bridges.set(server, mcp);
  return server;
}

async function closeServer(server: http.Server): Promise<void> {
  // Children first: their sessions' open streams end with them.
  await bridges.get(server)?.close();
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Open SSE streams and keep-alive sockets would otherwise keep close() pending.
    server.closeAllConnections();
  });
}

/** Starts the proxy and resolves once it is listening. */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const server = createProxyServer(options);
  const host = options.host ?? DEFAULT_HOST;
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : (options.port ?? DEFAULT_PORT));
    });
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${urlHost}:${port}`, port, close: () => closeServer(server) };
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const options = proxyOptionsFromEnv(process.env);
  const mcp = mcpServersFromEnv(process.env, process.cwd(), (line) => console.log(line));
  const tokenFile = tokenFileFromEnv(process.env);
  const { token, created } = loadOrCreateToken(tokenFile);
  const proxy = await startProxy({ ...options, token, tokenFile, mcpServers: mcp.servers });
  const origins = [options.appOrigin, ...(options.allowedOrigins ?? [])].join(", ");
  const targets = new TargetPolicy(options.allowedTargets ?? []).describe();
  console.log(
    `Fawn proxy on ${proxy.url}${FORWARD_PREFIX}<target URL>; allowed origins: ${origins}; targets: ${targets}`,
  );
  // The path, never the token: terminals and service logs are kept and read more widely than a 0600 file.
  console.log(`Token: ${tokenFile}${created ? " (made now)" : ""}. Paste it into Fawn: Settings → Web → Proxy token.`);
  if (mcp.source !== undefined) {
    const urls = mcp.servers.map((server) => `${proxy.url}${MCP_PREFIX}${server.name}`).join(", ");
    console.log(`MCP servers from ${mcp.source}: ${urls || "none enabled"}`);
  }
  // Stop every MCP child before leaving.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => void proxy.close().finally(() => process.exit(code)));
  }
}

if (isMainModule()) {
  main().catch((err: unknown) => {
    const inUse = err instanceof Error && "code" in err && err.code === "EADDRINUSE";
    const message = inUse
      ? "port already in use; set FAWN_PROXY_PORT"
      : err instanceof Error
        ? err.message
        : String(err);
    console.error(`Fawn proxy failed to start: ${message}`);
    process.exitCode = 1;
  });
}
