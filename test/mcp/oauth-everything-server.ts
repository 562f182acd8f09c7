// server-everything behind OAuth, in-process, for the sign-in tests: one origin is both the authorization server
// (the SDK's auth router over its demo provider: dynamic client registration, an /authorize that approves at once and
// redirects back with code and state, a token endpoint that checks PKCE, plus refresh tokens, which the demo lacks)
// and the MCP server at /mcp, which answers 401 with the protected resource metadata's address until a token is sent.
// CORS lets a browser page read it all (WWW-Authenticate and mcp-session-id included). With `preRegistered`, the
// authorization server has no dynamic registration and knows that one client only (Settings → Tools' Client ID).
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer } from "@modelcontextprotocol/server-everything/dist/server/index.js";
import cors from "cors";
import express from "express";

/** The demo provider with refresh tokens, and a way to make every access token expire. */
class RefreshingAuthProvider extends DemoInMemoryAuthProvider {
  private readonly refreshTokens = new Map<string, string>();
  /** Access tokens this class made (refreshed ones), by token: the client's id. */
  private readonly refreshed = new Map<string, string>();
  private readonly expired = new Set<string>();
  readonly issued: string[] = [];
  /** The client ID of every authorization request, in order. */
  readonly authorizedClients: string[] = [];

  override async authorize(
    client: OAuthClientInformationFull,
    params: Parameters<DemoInMemoryAuthProvider["authorize"]>[1],
    response: Parameters<DemoInMemoryAuthProvider["authorize"]>[2],
  ): Promise<void> {
    this.authorizedClients.push(client.client_id);
    await super.authorize(client, params, response);
  }

  private withRefresh(clientId: string, tokens: OAuthTokens): OAuthTokens {
    const refreshToken = `refresh-${randomUUID()}`;
    this.refreshTokens.set(refreshToken, clientId);
    this.issued.push(tokens.access_token, refreshToken);
    return { ...tokens, refresh_token: refreshToken };
  }

  override async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    verifier?: string,
  ): Promise<OAuthTokens> {
    const tokens = await super.exchangeAuthorizationCode(client, code, verifier);
    return this.withRefresh(client.client_id, tokens);
  }

  override async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    if (this.refreshTokens.get(refreshToken) !== client.client_id) throw new InvalidGrantError("Unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    const token = randomUUID();
    this.refreshed.set(token, client.client_id);
    return this.withRefresh(client.client_id, { access_token: token, token_type: "bearer", expires_in: 3600 });
  }

  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    if (this.expired.has(token)) throw new InvalidTokenError("The token expired");
    const clientId = this.refreshed.get(token);
    if (!clientId) return super.verifyAccessToken(token);
    return { token, clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  }

  /** Every access token handed out so far stops working (as an hour later): the next request needs a refresh. */
  expireAccessTokens(): void {
    for (const token of this.issued) this.expired.add(token);
  }
}

export interface OAuthEverything {
  /** The MCP endpoint. */
  url: string;
  port: number;
  /** Every access and refresh token handed out so far. */
  issued: string[];
  /** Requests to /mcp with their Authorization header, in order. */
  authorizations: (string | undefined)[];
  /** The client ID of every authorization request, in order. */
  authorizedClients: string[];
  expireAccessTokens(): void;
  stop(): Promise<void>;
}

/** A client the authorization server knows beforehand; it then registers no other. */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/** Starts the server on `port` (default: any free one) of 127.0.0.1. */
export async function startOAuthEverything(port = 0, preRegistered?: PreRegisteredClient): Promise<OAuthEverything> {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening: Server = app.listen(port, "127.0.0.1", () => resolve(listening));
  });
  const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const provider = new RefreshingAuthProvider();
  if (preRegistered) {
    const client: OAuthClientInformationFull = {
      client_id: preRegistered.clientId,
      client_secret: preRegistered.clientSecret,
      redirect_uris: preRegistered.redirectUris,
      token_endpoint_auth_method: "client_secret_post",
    };
    // No registerClient: the router then offers no registration endpoint.
    const store = { getClient: async (id: string) => (id === client.client_id ? client : undefined) };
    // The demo types its store as its own class; the router asks only for getClient (and registerClient, if any).
    provider.clientsStore = store as unknown as typeof provider.clientsStore;
  }
  const authorizations: (string | undefined)[] = [];

  app.use(
    cors({
      origin: "*",
      exposedHeaders: ["mcp-session-id", "mcp-protocol-version", "www-authenticate", "last-event-id"],
    }),
  );
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: mcpUrl,
      scopesSupported: ["mcp:tools"],
      authorizationOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );

  const transports = new Map<string, StreamableHTTPServerTransport>();
  const cleanups: (() => void)[] = [];
  app.use("/mcp", (request: { headers: Record<string, string | undefined> }, _response: unknown, next: () => void) => {
    authorizations.push(request.headers.authorization);
    next();
  });
  app.all(
    "/mcp",
    express.json(),
    requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }),
    async (
      request: { headers: Record<string, string | undefined>; body: unknown; method: string },
      response: { status(code: number): { json(body: unknown): void } },
    ) => {
      const sessionId = request.headers["mcp-session-id"];
      let transport = sessionId ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId || request.method !== "POST") {
          response
            .status(404)
            .json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
          return;
        }
        const { server: mcp, cleanup } = createServer();
        cleanups.push(cleanup);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(request as never, response as never, request.body);
    },
  );

  return {
    url: mcpUrl.href,
    port: Number(new URL(base).port),
    issued: provider.issued,
    authorizations,
    authorizedClients: provider.authorizedClients,
    expireAccessTokens: () => provider.expireAccessTokens(),
    stop: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      for (const cleanup of cleanups) cleanup();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
