// Optional localhost proxy: forwards /forward/<url> to endpoints that refuse browser requests, and serves the local
// stdio MCP servers of its config file at /mcp/<name>.
import dns from "node:dns";
import { realpathSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { pathToFileURL } from "node:url";
import {
  DEFAULT_APP_ORIGIN,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_PORT,
  normalizeOrigin,
  proxyOptionsFromEnv,
  type ProxyOptions,
  type RunningProxy,
  type StartProxyOptions,
} from "./config.ts";
import { ALLOWED_METHODS, corsHeaders, FORWARD_PREFIX } from "./header-policy.ts";
import { MCP_ALLOWED_HEADERS, MCP_ALLOWED_METHODS, McpBridge } from "./mcp-bridge.ts";
import { mcpServersFromEnv } from "./mcp-config-file.ts";
import { Relay, parseTarget, type Limits, type RelayContext, type TargetResult } from "./relay.ts";
import { errorBody, sendJson } from "./reply.ts";
import { TargetPolicy, type ResolveHost } from "./target-policy.ts";
import {
  assertUsableToken,
  loadOrCreateToken,
  PROXY_TOKEN_HEADER,
  TOKEN_ERROR_TYPE,
  tokenFileFromEnv,
  tokenMatches,
} from "./token.ts";

// What the proxy exported before it was cut into config / header policy / relay / server (tests and callers use it).
export {
  DEFAULT_APP_ORIGIN,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_PORT,
  proxyOptionsFromEnv,
  type ProxyOptions,
  type RunningProxy,
  type StartProxyOptions,
} from "./config.ts";
export { EXPOSED_HEADERS } from "./header-policy.ts";
export { TargetPolicy, type ResolveHost, type ResolvedAddress } from "./target-policy.ts";
export { McpConfigError, mcpServersFromConfig, mcpServersFromEnv, type McpStdioServer } from "./mcp-config-file.ts";
export { loadOrCreateToken, PROXY_TOKEN_HEADER, TOKEN_ERROR_TYPE, tokenFileFromEnv } from "./token.ts";

const MCP_PREFIX = "/mcp/";

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
