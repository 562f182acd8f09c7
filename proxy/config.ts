// The proxy's settings: their defaults, the options createProxyServer/startProxy take, and FAWN_PROXY_* read from
// the environment (checked at start-up, each error naming its variable).
import type http from "node:http";
import type https from "node:https";
import type { McpStdioServer } from "./mcp-config-file.ts";
import { TargetPolicy, type ResolveHost } from "./target-policy.ts";

export const MiB = 1024 * 1024;

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

export function splitList(value: string | undefined): string[] {
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

export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}
