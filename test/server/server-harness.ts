// The server's tests start the real server in-process (server/http/start-server.ts) on a free port, over an embedded
// Postgres in memory (or `databaseUrl`), with the scripted mock model (test/mock-llm) as every user's model. Only
// the model is fake: HTTP, auth, the database and the Gateways are the ones `npm run server` runs.
import { resolveConfig, type ServerConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { startServer, type RunningServer } from "../../server/http/start-server.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";

export interface TestServerOptions {
  /** A real Postgres (test/support/postgres.ts); without one, PGlite in memory. */
  databaseUrl?: string;
  /** A mock model already running (shared by several servers); without one, the server starts its own. */
  mock?: MockLlm;
  /** The admin's token; a new one by default. */
  adminToken?: string;
  /** FAWN_SERVER_ORIGINS. */
  origins?: string[];
  /** The body size limit in MB (FAWN_SERVER_MAX_BODY_MB). */
  maxBodyMb?: number;
  /** FAWN_RUN_LEASE_MS (short in tests). */
  runLeaseMs?: number;
  replicaId?: string;
  /** More of fawn-server.json (web tools, MCP servers, more models); the mock stays the default model. */
  file?: Record<string, unknown>;
  /** More environment (variables the file names). */
  env?: Record<string, string>;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `<url>/api`, where LangGraph's SDK points. */
  apiUrl: string;
  adminToken: string;
  /** Adds a user; resolves to their token. */
  addUser(name: string): Promise<string>;
  db: Database;
  mock: MockLlm;
  server: RunningServer;
  config: ServerConfig;
  /** `fetch` of `path` (under `url`) with the admin's token, or `token` when given. */
  request(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** Stops the server, its mock (if it started it) and its database. */
  close(): Promise<void>;
}

/** Starts a server with the mock model configured; call `close()` in afterAll. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const mock = options.mock ?? (await startMockLlm({ port: 0 }));
  const db = await openDatabase(options.databaseUrl ? { url: options.databaseUrl } : {});
  try {
    const config = resolveConfig(
      {
        models: [
          { name: "Mock", id: "mock", baseUrl: mock.url, apiKey: "$FAWN_TEST_MOCK_KEY", models: ["mock-model"] },
        ],
        ...options.file,
      },
      {
        PORT: "0",
        HOST: "127.0.0.1",
        FAWN_TEST_MOCK_KEY: "sk-test",
        FAWN_SERVER_TOKEN: options.adminToken ?? `admin-${crypto.randomUUID()}`,
        ...(options.origins && { FAWN_SERVER_ORIGINS: options.origins.join(",") }),
        ...(options.maxBodyMb !== undefined && { FAWN_SERVER_MAX_BODY_MB: String(options.maxBodyMb) }),
        ...(options.runLeaseMs !== undefined && { FAWN_RUN_LEASE_MS: String(options.runLeaseMs) }),
        ...options.env,
      },
      { source: "the test server" },
    );
    const server = await startServer(config, {
      db,
      ...(options.replicaId && { replicaId: options.replicaId }),
      // The retry policy with short waits, so a scripted 500 does not take seconds.
      gatewayOptions: { retry: { initialDelayMs: 10, maxDelayMs: 50 } },
    });
    return {
      url: server.url,
      apiUrl: server.apiUrl,
      adminToken: server.adminToken,
      addUser: async (name) => (await server.users.add(name)).token,
      db,
      mock,
      server,
      config,
      request: (path, { token, headers, ...init } = {}) => {
        const sent = new Headers(headers);
        const used = token === undefined ? server.adminToken : token;
        if (used !== null) sent.set("authorization", `Bearer ${used}`);
        return fetch(`${server.url}${path}`, { ...init, headers: sent });
      },
      close: async () => {
        await server.close();
        await db.close();
        if (!options.mock) await mock.close();
      },
    };
  } catch (error) {
    await db.close();
    if (!options.mock) await mock.close();
    throw error;
  }
}
