// LangGraph's API on Fawn's server (docs/architecture.md#d11-server): assistants, threads with their state and
// history, and runs over the queue every replica shares, as `@langchain/langgraph-sdk`'s Client calls them. Paths are
// relative to `/api`; the server mounts this app before the in-browser routes, under `/api` and `/api/langgraph`.
import { Hono } from "hono";
import type { Gateway } from "../../src/gateway/index.ts";
import type { Database } from "../db/database.ts";
import type { RunQueue } from "../runs/index.ts";
import { assistantRoutes } from "./assistants.ts";
import { errorResponse, type LangGraphEnv } from "./http.ts";
import { runRoutes } from "./runs.ts";
import { ThreadMetadataTable } from "./thread-metadata.ts";
import { threadRoutes } from "./threads.ts";

export { GRAPH_ID, LEAD_AGENT_ASSISTANT_ID } from "./assistants.ts";
export type { LangGraphEnv } from "./http.ts";

export interface LangGraphDeps {
  db: Database;
  queue: RunQueue;
  /** Each user's Gateway (server/gateways.ts). */
  gateways: { forUser(owner: string): Promise<Gateway> };
}

/**
 * The routes, reading the requesting user's owner id from the hono variable `owner` (set by the server's auth); `E` is
 * the server's env, which holds at least that.
 */
export function langGraphRoutes<E extends LangGraphEnv = LangGraphEnv>(deps: LangGraphDeps): Hono<E> {
  const app = new Hono<E>({ strict: false });
  const metadata = new ThreadMetadataTable(deps.db);
  const gateway = (owner: string) => deps.gateways.forUser(owner);
  app.route("/", assistantRoutes(gateway));
  app.route("/", threadRoutes({ gateway, metadata, queue: deps.queue }));
  app.route("/", runRoutes({ gateway, queue: deps.queue, metadata }));
  app.onError(errorResponse);
  return app;
}
