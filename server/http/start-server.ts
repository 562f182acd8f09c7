// The server's composition root: the database, the users, every user's Gateway, the run queue and LangGraph's
// routes, wired once and served over HTTP (@hono/node-server). `npm run server` (main.ts) and the tests' harness
// (test/server/server-harness.ts) both start the server through startServer.
import { randomUUID } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { GatewayOptions } from "../../src/gateway/index.ts";
import { ConfigError, type ServerConfig } from "../config.ts";
import { lockDataDir } from "../data-lock.ts";
import { openDatabase, type Database } from "../db/database.ts";
import { UserGateways } from "../gateways.ts";
import { langGraphRoutes } from "../langgraph/index.ts";
import { RunQueue } from "../runs/index.ts";
import { ServerScheduler } from "../schedules/scheduler.ts";
import { newToken, Users } from "../users.ts";
import { createServerApp, type ServerEnv } from "./app.ts";

export interface StartServerOptions {
  /** An open database to use (and leave open on close); without one, the configuration's is opened. */
  db?: Database;
  /** This replica's name among several on one database; a new one by default. */
  replicaId?: string;
  /** Overrides of every user's Gateway (tests: a model factory, short retries). */
  gatewayOptions?: GatewayOptions;
}

export interface RunningServer {
  /** `http://host:port`, the port the system gave when the configuration asked for 0. */
  url: string;
  /** Where LangGraph's SDK points: `<url>/api`. */
  apiUrl: string;
  adminToken: string;
  /** True when FAWN_SERVER_TOKEN was unset and the admin's token was made at this start. */
  adminTokenGenerated: boolean;
  replicaId: string;
  db: Database;
  users: Users;
  gateways: UserGateways;
  queue: RunQueue;
  /** Starts each user's scheduled runs at their times (server/schedules/). */
  scheduler: ServerScheduler;
  /** Stops taking requests and runs, closes the sandboxes and (if it opened it) the database. */
  close(): Promise<void>;
}

/** Opens everything the configuration names and listens; resolves once the port is open. */
export async function startServer(config: ServerConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  // The embedded Postgres is this process's alone while it runs (data-lock.ts).
  const lock = options.db || config.databaseUrl ? undefined : lockDataDir(config.dataDir);
  let db: Database;
  try {
    db =
      options.db ??
      (await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir }));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const replicaId = options.replicaId ?? `replica-${randomUUID().slice(0, 8)}`;
  const adminToken = config.adminToken ?? newToken();
  const users = new Users(db, adminToken);
  const gateways = new UserGateways({
    db,
    config,
    ...(options.gatewayOptions && { gatewayOptions: options.gatewayOptions }),
  });

  try {
    await gateways.checkConfig();
  } catch (error) {
    await gateways.close();
    if (!options.db) await db.close();
    lock?.release();
    throw error;
  }

  // Runs (server/runs): the queue every replica shares; this replica's worker claims, runs and reaps.
  const queue = new RunQueue({ db, gateways, replicaId, leaseMs: config.runLeaseMs });
  const scheduler = new ServerScheduler({
    db,
    users,
    gateways,
    queue,
    onError: (error) => console.error("A scheduled run could not be started:", error),
  });
  const app = createServerApp({
    users,
    gateways,
    // LangGraph's API (server/langgraph) over the queue, answered before the in-browser routes.
    langGraph: langGraphRoutes<ServerEnv>({ db, queue, gateways }),
    origins: config.origins,
    maxBodyBytes: config.maxBodyBytes,
  });

  const server = createAdaptorServer({ fetch: app.fetch }) as HttpServer;
  // Idle connections outlive a load balancer's (60 s is common), so it is never the server that drops a connection a
  // client or balancer is about to reuse.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await gateways.close();
    if (!options.db) await db.close();
    lock?.release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new ConfigError(`Port ${config.port} on ${config.host} is taken: set PORT to another.`);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  lock?.setUrl(url);
  queue.start();
  scheduler.start();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open streams (a run's SSE) would hold close() until they end.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await scheduler.stop();
      await queue.stop();
      await gateways.close();
      if (!options.db) await db.close();
      lock?.release();
    })());

  return {
    url,
    apiUrl: `${url}/api`,
    adminToken,
    adminTokenGenerated: config.adminToken === undefined,
    replicaId,
    db,
    users,
    gateways,
    queue,
    scheduler,
    close,
  };
}
