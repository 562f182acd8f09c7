// The server the LangGraph API tests drive: A's shell (users, auth, the in-browser routes) with these routes and
// R's run queue mounted, over PGlite in memory and the scripted mock model, on a free port.
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { resolveConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import { UserGateways } from "../../server/gateways.ts";
import { createServerApp } from "../../server/http/app.ts";
import { langGraphRoutes } from "../../server/langgraph/index.ts";
import { RunQueue } from "../../server/runs/index.ts";
import { Users } from "../../server/users.ts";
import { startMockLlm } from "../mock-llm/server.ts";

export interface LangGraphTestServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  adminToken: string;
  addUser(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startLangGraphServer(): Promise<LangGraphTestServer> {
  const mock = await startMockLlm({ port: 0 });
  const db = await openDatabase();
  const adminToken = `admin-${crypto.randomUUID()}`;
  const config = resolveConfig(
    { models: [{ name: "Mock", id: "mock", baseUrl: mock.url, apiKey: "$MOCK_KEY", models: ["mock-model"] }] },
    { PORT: "0", HOST: "127.0.0.1", MOCK_KEY: "sk-test", FAWN_SERVER_TOKEN: adminToken },
  );
  const users = new Users(db, adminToken);
  const gateways = new UserGateways({ db, config, gatewayOptions: { retry: { initialDelayMs: 10, maxDelayMs: 50 } } });
  const queue = new RunQueue({ db, gateways, replicaId: "langgraph-test", leaseMs: 2000, pollMs: 20 });
  queue.start();
  const app = createServerApp({
    users,
    gateways,
    origins: [],
    maxBodyBytes: config.maxBodyBytes,
    langGraph: langGraphRoutes({ db, queue, gateways }),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    adminToken,
    addUser: async (name) => (await users.add(name)).token,
    close: async () => {
      await queue.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await gateways.close();
      await db.close();
      await mock.close();
    },
  };
}
