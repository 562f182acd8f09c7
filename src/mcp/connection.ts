// One MCP server's connection: Streamable HTTP first, SSE when the server answers the first POST with a 4xx (the
// SDK's documented fallback); directly or through Fawn's proxy; made on first use and again after it broke. A
// watchdog pings the server when the transport reports a broken stream while calls are pending, and closes the
// client if the ping fails, so those calls fail at once instead of hanging until their timeout. docs/architecture.md#d7-mcp
import { extractWWWAuthenticateParams, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { normalizeProxyUrl } from "../models/index.ts";
import {
  DEFAULT_PROXY_URL,
  MCP_DEFAULT_TIMEOUT_SECONDS,
  type McpServerConfig,
  type McpServerSecrets,
  type McpToolInfo,
  usesMcpOAuth,
} from "../protocol/index.ts";
import { goesToProxy, PROXY_TOKEN_ERROR_TYPE, PROXY_TOKEN_SENTENCE, withProxyToken } from "../shared/proxy-token.ts";
import {
  abortError,
  describeMcpError,
  McpScopeRefused,
  ProxyTokenRefused,
  unknownTool,
  type McpErrorContext,
} from "./errors.ts";
import type { McpOAuthProvider } from "./oauth-provider.ts";

export type { FetchLike };

/** How a server was reached; remembered so a reconnect skips the probe. */
export type McpTransportKind = "streamable-http" | "sse";

/** A progress notification of a running call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface McpConnectionOptions {
  /** Fawn's proxy (Settings → Web), used when the server's `useProxy` is on; a bare address gets `/forward/`. */
  proxyUrl?: string;
  /**
   * The proxy's token (Settings → Web): sent with every request to the proxy's origin, whether through its relay
   * (`useProxy`) or to its stdio bridge (`…/mcp/<name>`), and to no other address.
   */
  proxyToken?: string;
  /** The fetch under everything (tests); default globalThis.fetch. */
  fetch?: FetchLike;
  clientInfo?: { name: string; version: string };
  /** The transport that worked last time; default: probe Streamable HTTP, then SSE. */
  transport?: McpTransportKind;
  /** Connecting (initialize) may take this long. Default 20. */
  connectTimeoutSeconds?: number;
  /** No call runs longer than this, progress or not. Default 600. */
  maxTotalSeconds?: number;
  /** The watchdog's ping waits this long for an answer. Default 3000. */
  pingTimeoutMs?: number;
  /**
   * The OAuth client of a server that has no token or Authorization header of its own: on a 401 the SDK refreshes
   * its tokens or, when it cannot, the connection fails with the "needs you to sign in" sentence. A scope the
   * server names (401) or asks for more of (403 insufficient_scope) is kept for the next sign-in.
   */
  oauth?: (config: McpServerConfig, secrets: McpServerSecrets) => McpOAuthProvider | undefined;
}

export interface McpCallOptions {
  /** The run's signal: aborting it cancels the call (the server is told) and rejects with an AbortError. */
  signal?: AbortSignal;
  onProgress?: (progress: McpProgress) => void;
  /** Seconds without an answer or progress before the call fails; default the server's, else 60. */
  timeoutSeconds?: number;
}

const DEFAULT_CLIENT_INFO = { name: "Fawn", version: "1.0.0" };
const MAX_TOOL_PAGES = 100;

/**
 * An SDK client that validates tool output with @cfworker/json-schema: the SDK's default, Ajv, compiles schemas
 * with `new Function`, which Fawn's CSP (`script-src 'self'`) forbids.
 */
export function createMcpClient(info: { name: string; version: string } = DEFAULT_CLIENT_INFO): Client {
  return new Client(info, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
}

/**
 * A fetch that sends each request to Fawn's proxy as `<proxy>/forward/<real url>`. The transports keep the real URL
 * (an SSE server's message endpoint is resolved against it, and would miss if the proxy were in the URL).
 */
export function proxiedFetch(proxyUrl: string, base: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  const prefix = normalizeProxyUrl(proxyUrl);
  return (url, init) => base(`${prefix}${new URL(String(url)).href}`, init);
}

/**
 * `base` with the proxy's token on requests to the proxy (its relay or its bridge), when a token is set. The proxy's
 * "needs its token" 401 becomes a ProxyTokenRefused, so the SDK never takes it for the server's sign-in.
 */
export function tokenFetch(options: Pick<McpConnectionOptions, "proxyUrl" | "proxyToken">, base: FetchLike): FetchLike {
  const proxyUrl = options.proxyUrl?.trim() || DEFAULT_PROXY_URL;
  const withToken = withProxyToken(base, proxyUrl, options.proxyToken);
  return async (url, init) => {
    const response = await withToken(url, init);
    if (response.status !== 401 || !goesToProxy(url, proxyUrl)) return response;
    const said = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: { type?: unknown; message?: unknown } } | undefined;
    if (said?.error?.type !== PROXY_TOKEN_ERROR_TYPE) return response;
    void response.body?.cancel().catch(() => undefined);
    throw new ProxyTokenRefused(typeof said.error.message === "string" ? said.error.message : PROXY_TOKEN_SENTENCE);
  };
}

/**
 * `base` reading the OAuth scope challenges of the server at `serverUrl` before the SDK does: a 401's scope is kept
 * for the next sign-in; a 403 insufficient_scope becomes an McpScopeRefused (a step-up sign-in to ask the user for,
 * or a refusal), since the SDK's own answer to it, a sign-in, cannot open from the worker.
 */
export function scopeFetch(base: FetchLike, provider: McpOAuthProvider, serverUrl: string): FetchLike {
  const origin = new URL(serverUrl).origin;
  return async (url, init) => {
    const response = await base(url, init);
    if (response.status !== 401 && response.status !== 403) return response;
    if (new URL(String(url)).origin !== origin) return response;
    const { scope, error } = extractWWWAuthenticateParams(response);
    if (!scope) return response;
    if (response.status === 401) {
      await provider.scopeNamed(scope);
      return response;
    }
    if (error !== "insufficient_scope") return response;
    void response.body?.cancel().catch(() => undefined);
    const challenge = await provider.scopeChallenge(scope);
    throw new McpScopeRefused(challenge.scope, challenge.signIn, challenge.signIn ? undefined : challenge.reason);
  };
}

/** Rejects with the abort as soon as `signal` aborts, whatever `promise` does. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A 4xx (other than a sign-in) to the first POST: the server may speak the older SSE transport. */
function wantsSseFallback(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || typeof error.code !== "number") return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

/**
 * The server answered (it is there): it asked for a sign-in, or refused the optional GET stream with a 404 as some
 * servers do instead of 405. A lost session still breaks the pending calls' own streams, which the watchdog sees.
 */
function answeredWithStatus(error: unknown): boolean {
  if (wantsAuthorization(error)) return true;
  return error instanceof StreamableHTTPError && error.code === 404 && /open SSE stream/i.test(error.message);
}

/** The server answered, asking for a sign-in or more access: it is not down. */
function wantsAuthorization(error: unknown): boolean {
  if (error instanceof UnauthorizedError || error instanceof McpScopeRefused) return true;
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403);
}

/**
 * The server no longer knows our session (it restarted, or ended it): the spec says 404; some servers (the SDK's
 * examples among them) answer 400 naming the session.
 */
function sessionLost(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
}

/** One server's connection, made on first use and remade after it broke. */
export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private kind: McpTransportKind | undefined;
  private tools: McpToolInfo[] | undefined;
  private inFlight = 0;
  private checking = false;
  private readonly fetch: FetchLike;
  private readonly authProvider: McpOAuthProvider | undefined;
  private settings: McpServerConfig;

  constructor(
    config: McpServerConfig,
    private readonly secrets: McpServerSecrets = {},
    private readonly options: McpConnectionOptions = {},
  ) {
    this.settings = config;
    const base = tokenFetch(options, options.fetch ?? ((url, init) => fetch(url, init)));
    const routed = this.viaProxy ? proxiedFetch(options.proxyUrl ?? "", base) : base;
    this.kind = options.transport;
    this.authProvider = usesMcpOAuth(config, secrets) ? options.oauth?.(config, secrets) : undefined;
    this.fetch = this.authProvider ? scopeFetch(routed, this.authProvider, config.url) : routed;
  }

  get name(): string {
    return this.config.name;
  }

  /** The server's settings this connection follows. */
  get config(): McpServerConfig {
    return this.settings;
  }

  /**
   * Takes settings that need no new connection (switched-off tools, timeout, description); the registry remakes
   * the connection when the URL, the proxy, the headers or the token change.
   */
  update(config: McpServerConfig): void {
    this.settings = {
      ...config,
      url: this.settings.url,
      useProxy: this.settings.useProxy,
      headers: this.settings.headers,
    };
  }

  /** The transport that worked, once connected. */
  get transportKind(): McpTransportKind | undefined {
    return this.kind;
  }

  /** True while a client is open. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  private get viaProxy(): boolean {
    return Boolean(this.config.useProxy && this.options.proxyUrl);
  }

  private context(extra: Partial<McpErrorContext> = {}): McpErrorContext {
    return { server: this.config.name, url: this.config.url, viaProxy: this.viaProxy, ...extra };
  }

  private headers(): Record<string, string> {
    const token = this.secrets.bearerToken?.trim();
    return { ...this.config.headers, ...(token && { Authorization: `Bearer ${token}` }) };
  }

  /** Connects if not connected; rejects with the sentence when it cannot. */
  async connect(): Promise<void> {
    try {
      await this.ensureClient();
    } catch (error) {
      throw describeMcpError(error, this.context());
    }
  }

  private ensureClient(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    let client: Client;
    if (this.kind === "sse") client = await this.attempt("sse");
    else {
      try {
        client = await this.attempt("streamable-http");
      } catch (error) {
        if (!wantsSseFallback(error)) throw error;
        client = await this.attempt("sse");
      }
    }
    this.client = client;
    this.tools = undefined;
    return client;
  }

  private async attempt(kind: McpTransportKind): Promise<Client> {
    const url = new URL(this.config.url);
    const transportOptions = {
      fetch: this.fetch,
      requestInit: { headers: this.headers() },
      ...(this.authProvider && { authProvider: this.authProvider }),
    };
    const transport =
      kind === "sse"
        ? new SSEClientTransport(url, transportOptions)
        : new StreamableHTTPClientTransport(url, transportOptions);
    const client = createMcpClient(this.options.clientInfo);
    client.onerror = (error) => {
      // An HTTP answer (a GET stream refused with 404, a sign-in asked for) is the server being there, not a break.
      if (!answeredWithStatus(error)) this.watch(client);
    };
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.client === client) this.tools = undefined;
    });
    try {
      await client.connect(transport, { timeout: (this.options.connectTimeoutSeconds ?? 20) * 1000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    this.kind = kind;
    return client;
  }

  /** The watchdog: a transport error while calls are pending → ping; no answer → close, failing those calls now. */
  private watch(client: Client): void {
    if (this.inFlight === 0 || this.checking || this.client !== client) return;
    this.checking = true;
    client
      .ping({ timeout: this.options.pingTimeoutMs ?? 3000 })
      .catch((error: unknown) => {
        // A server that answers the ping with a sign-in (401, 403) is up: the pending calls get that answer too.
        if (this.client !== client || wantsAuthorization(error)) return;
        this.client = undefined;
        return client.close();
      })
      .catch(() => undefined)
      .finally(() => {
        this.checking = false;
      });
  }

  /** Runs `work` on a connected client; a lost session is reconnected and `work` tried once more. */
  private async withClient<T>(work: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.inFlight++;
    try {
      const client = await raceAbort(this.ensureClient(), signal);
      try {
        return await work(client);
      } catch (error) {
        if (!sessionLost(error) || signal?.aborted) throw error;
        if (this.client === client) {
          this.client = undefined;
          await client.close().catch(() => undefined);
        }
        return await work(await raceAbort(this.ensureClient(), signal));
      }
    } finally {
      this.inFlight--;
    }
  }

  /** Every tool the server offers (all pages), cached until the server says its list changed or we reconnect. */
  async listTools(): Promise<McpToolInfo[]> {
    if (this.tools && this.client) return this.tools;
    try {
      const tools = await this.withClient(async (client) => {
        const found: McpToolInfo[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_TOOL_PAGES; page++) {
          const result = await client.listTools(cursor === undefined ? undefined : { cursor });
          for (const tool of result.tools) {
            found.push({
              name: tool.name,
              ...(tool.description !== undefined && { description: tool.description }),
              inputSchema: tool.inputSchema as Record<string, unknown>,
            });
          }
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return found;
      });
      this.tools = tools;
      return tools;
    } catch (error) {
      throw describeMcpError(error, this.context());
    }
  }

  /**
   * Calls a tool by the server's own name. Resolves with the raw result (an `isError` result too); rejects with an
   * McpClientError sentence, or with an AbortError when `signal` aborted (the server is told to cancel).
   */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw abortError(signal);
    const timeoutSeconds = options.timeoutSeconds ?? this.config.timeoutSeconds ?? MCP_DEFAULT_TIMEOUT_SECONDS;
    const context = this.context({ tool: name, timeoutSeconds });
    const maxTotalSeconds = Math.max(timeoutSeconds, this.options.maxTotalSeconds ?? 600);
    try {
      return await this.withClient(async (client) => {
        if (this.tools && !this.tools.some((tool) => tool.name === name)) throw unknownTool({ ...context, tool: name });
        const result = await client.callTool({ name, arguments: args }, undefined, {
          ...(signal && { signal }),
          timeout: timeoutSeconds * 1000,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: maxTotalSeconds * 1000,
          // Always asked for: progress is what restarts the timeout.
          onprogress: (progress) =>
            onProgress?.({
              progress: progress.progress,
              ...(progress.total !== undefined && { total: progress.total }),
              ...(progress.message !== undefined && { message: progress.message }),
            }),
        });
        return result as CallToolResult;
      }, signal);
    } catch (error) {
      // A Stop and a timeout share the SDK's code -32001: our own signal tells them apart.
      if (signal?.aborted) throw abortError(signal);
      throw describeMcpError(error, context);
    }
  }

  /** Closes the client (ending a Streamable HTTP session politely); the next use connects again. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.tools = undefined;
    if (!client) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      // A polite DELETE, but a server that does not answer must not hold up closing.
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]);
    }
    await client.close().catch(() => undefined);
  }
}
