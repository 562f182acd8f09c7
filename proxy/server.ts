// Optional localhost CORS proxy: forwards /forward/<url> to model and MCP endpoints that refuse browser requests.
import { realpathSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { pipeline } from "node:stream";
import { pathToFileURL } from "node:url";

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = [
  "http://127.0.0.1:4173",
  "http://localhost:4173",
  "http://127.0.0.1:5173",
  "http://localhost:5173",
];

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
// `expect` is dropped because Node has already answered any 100-continue on our side of the hop.
const DROPPED_REQUEST_HEADERS = new Set(["host", "origin", "referer", "cookie", "expect"]);
const DROPPED_RESPONSE_HEADERS = new Set(["set-cookie", "set-cookie2"]);

export interface ProxyOptions {
  /** Origins allowed to use the proxy ("*": any origin, and no Origin at all). Default: DEFAULT_ALLOWED_ORIGINS. */
  allowedOrigins?: readonly string[];
  /** Hostnames that may be targeted; undefined or empty allows any host. */
  allowedTargets?: readonly string[];
  /** Receives one line per request (never header values or query strings); null silences it. Default: console.log. */
  log?: ((line: string) => void) | null;
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

/** Reads FAWN_PROXY_PORT, FAWN_PROXY_HOST, FAWN_PROXY_ORIGINS, FAWN_PROXY_TARGETS and FAWN_PROXY_QUIET. */
export function proxyOptionsFromEnv(env: Env): StartProxyOptions & { port: number; host: string } {
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
  const quiet = env.FAWN_PROXY_QUIET === "1" || env.FAWN_PROXY_QUIET?.toLowerCase() === "true";
  return {
    port,
    host: env.FAWN_PROXY_HOST?.trim() || DEFAULT_HOST,
    allowedOrigins: origins.length > 0 ? origins : DEFAULT_ALLOWED_ORIGINS,
    ...(targets.length > 0 ? { allowedTargets: targets } : {}),
    ...(quiet ? { log: null } : {}),
  };
}

function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
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

function forward(req: http.IncomingMessage, res: http.ServerResponse, target: URL, origin: string | undefined): void {
  const options: http.RequestOptions = { method: req.method ?? "GET", headers: forwardedRequestHeaders(req) };
  const upstreamReq = target.protocol === "https:" ? https.request(target, options) : http.request(target, options);

  // The client hanging up (stop button, closed tab) must cancel the upstream generation too.
  res.once("close", () => {
    if (!res.writableFinished) upstreamReq.destroy();
  });

  upstreamReq.on("response", (upstreamRes) => {
    const headers = forwardedResponseHeaders(upstreamRes, target);
    const cors = mergeVary(upstreamRes.headers.vary, corsHeaders(origin));
    res.writeHead(upstreamRes.statusCode ?? 502, { ...headers, ...cors });
    // Send headers now so an SSE client sees the response before the first event.
    res.flushHeaders();
    // On upstream failure mid-body this destroys `res`, so the client sees a truncated stream rather than a clean end.
    pipeline(upstreamRes, res, () => {});
  });

  upstreamReq.on("error", (err: NodeJS.ErrnoException) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (res.destroyed || res.writableEnded) return;
    const reason = err.message || err.code || "unknown error";
    sendJson(res, 502, errorBody(`Could not reach ${target.host}: ${reason}`), corsHeaders(origin));
  });

  // Not `pipeline`: it would destroy `req` (and the client socket) on upstream errors, leaving no way to send the 502.
  req.pipe(upstreamReq);
}

/** Creates (but does not start) the proxy server. */
export function createProxyServer(options: ProxyOptions = {}): http.Server {
  const origins = new Set((options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map(normalizeOrigin));
  const anyOrigin = origins.has("*");
  const targets = new Set((options.allowedTargets ?? []).map((host) => host.trim().toLowerCase()).filter(Boolean));
  const log = options.log === undefined ? (line: string) => console.log(line) : options.log;

  return http.createServer((req, res) => {
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
        const closed = res.writableFinished ? "" : " (client closed)";
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
        `Origin ${origin} is not allowed to use the Fawn proxy. ` +
        `Restart it with FAWN_PROXY_ORIGINS=${origin} (comma-separated; "*" allows any origin).`;
      sendJson(res, 403, errorBody(message), { vary: "Origin" });
      return;
    }

    if (method === "OPTIONS") {
      const requested = req.headers["access-control-request-headers"];
      res.writeHead(204, {
        ...corsHeaders(origin),
        "access-control-allow-methods": ALLOWED_METHODS,
        ...(requested !== undefined ? { "access-control-allow-headers": requested } : {}),
        "access-control-allow-private-network": "true",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }

    if (path === "/health" && target === undefined) {
      sendJson(res, 200, { ok: true }, corsHeaders(origin));
      return;
    }

    if (target === undefined) {
      sendJson(res, 404, errorBody("Not found: use /forward/<target URL> or /health."), corsHeaders(origin));
      return;
    }

    // Browsers send Origin on every CORS request, so a missing one means curl, a no-cors GET or DNS rebinding.
    if (origin === undefined && !anyOrigin) {
      note = " (no origin)";
      const message = "Requests without an Origin header are refused. Set FAWN_PROXY_ORIGINS=* to allow them.";
      sendJson(res, 403, errorBody(message), { vary: "Origin" });
      return;
    }

    if (!target.ok) {
      sendJson(res, 400, errorBody(target.message), corsHeaders(origin));
      return;
    }

    const hostname = bareHostname(target.url);
    if (targets.size > 0 && !targets.has(hostname)) {
      note = " (target not allowed)";
      const message = `Target host ${hostname} is not allowed. Add it to FAWN_PROXY_TARGETS (comma-separated).`;
      sendJson(res, 403, errorBody(message), corsHeaders(origin));
      return;
    }

    forward(req, res, target.url, origin);
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Open SSE streams and keep-alive sockets would otherwise keep close() pending.
    server.closeAllConnections();
  });
}

/** Starts the proxy and resolves once it is listening. */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
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
  const proxy = await startProxy(options);
  const origins = (options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).join(", ");
  const targets = options.allowedTargets ? `; targets: ${options.allowedTargets.join(", ")}` : "";
  console.log(`Fawn proxy on ${proxy.url}${FORWARD_PREFIX}<target URL>; allowed origins: ${origins}${targets}`);
}

if (isMainModule()) {
  main().catch((err: unknown) => {
    const inUse = err instanceof Error && "code" in err && err.code === "EADDRINUSE";
    const message = inUse ? "port already in use; set FAWN_PROXY_PORT" : String(err);
    console.error(`Fawn proxy failed to start: ${message}`);
    process.exitCode = 1;
  });
}
