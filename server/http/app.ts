// The server's HTTP app: CORS for the configured origins, `/ok` and `/info` open to all (also under each prefix),
// then every `/api` request authenticated to one user, held to a body size, and answered by that user's routes —
// LangGraph's API (server/langgraph) first, then the in-browser routes over the user's Gateway (DeerFlow's REST) —
// under both `/api` and `/api/langgraph` (the prefix DeerFlow's frontend uses). Every refusal is JSON `{detail}`:
// one sentence.
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { UPLOAD_LIMITS } from "../../src/protocol/index.ts";
import type { UserGateways } from "../gateways.ts";
import type { ServerUser, Users } from "../users.ts";
import { adminRoutes } from "./admin-routes.ts";
import { authenticate } from "./auth.ts";
import { problem } from "./problem.ts";

/** What the auth middleware leaves for the routes (server/langgraph's LangGraphEnv reads `owner`). */
export interface ServerEnv {
  Variables: { owner: string; user: ServerUser };
}

/** The prefixes the user's routes answer under; `/api/langgraph` first, so `/api` does not take its paths. */
export const API_PREFIXES = ["/api/langgraph", "/api"] as const;

export interface ServerAppOptions {
  users: Users;
  gateways: UserGateways;
  /** Web origins allowed by CORS; `*` allows any. */
  origins: readonly string[];
  maxBodyBytes: number;
  /** LangGraph's API (paths relative to `/api`), answered before the in-browser routes. */
  langGraph?: Hono<ServerEnv>;
  /** What `/info` tells about this server. */
  info?: Record<string, unknown>;
}

export const SERVER_VERSION = "0.1.0";

export function createServerApp(options: ServerAppOptions): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>({ strict: false });

  app.use("*", closeUnreadBodies());
  app.use(
    "*",
    cors({
      origin: (origin) =>
        options.origins.includes("*") ? origin || "*" : options.origins.includes(origin) ? origin : null,
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      // LangGraph's SDK reads a new run's id from Content-Location; downloads are named by Content-Disposition.
      // Fawn's file route (/api/fawn/threads/{id}/files) names the file's stored type in X-Fawn-Mime-Type.
      exposeHeaders: ["Content-Location", "Content-Disposition", "Location", "X-Fawn-Mime-Type"],
      maxAge: 600,
    }),
  );

  // Open to all, also under each API prefix: agent-chat-ui checks `${apiUrl}/info` (apiUrl ends in /api) before it
  // connects. Registered before the auth middleware, so a token is neither needed nor checked here.
  const info = {
    version: SERVER_VERSION,
    name: "fawn",
    flags: { assistants: true, crons: false, langsmith: false },
    ...options.info,
  };
  for (const prefix of ["", ...API_PREFIXES]) {
    app.get(`${prefix}/ok`, (c) => c.json({ ok: true }));
    app.get(`${prefix}/info`, (c) => c.json(info));
  }

  for (const prefix of [...API_PREFIXES, "/admin"]) {
    app.use(`${prefix}/*`, authenticate(options.users));
    app.use(`${prefix}/*`, limitBody(options.maxBodyBytes));
  }

  app.route("/admin", adminRoutes(options.users));

  // LangGraph's API first (server/langgraph, given by start-server.ts); what it does not answer falls through.
  if (options.langGraph) for (const prefix of API_PREFIXES) app.route(prefix, options.langGraph);

  // The in-browser routes over the user's Gateway, for whatever LangGraph's routes did not answer.
  for (const prefix of API_PREFIXES) {
    app.all(`${prefix}/*`, async (c) => gatewayRoute(c, prefix, options.gateways));
  }

  app.notFound((c) => problem(404, `There is no route ${c.req.method} ${new URL(c.req.url).pathname}.`));
  app.onError((error) => {
    if (error instanceof HTTPException) {
      const status = error.status;
      return problem(status, status === 413 ? "The request body is too large." : error.message || "Bad request.");
    }
    console.error("Request failed:", error);
    return problem(500, "The server failed to answer this request.");
  });
  return app;
}

/**
 * An answer given without reading the request's body (a refusal before the route reads it: 401, 403, 404, 405) says
 * `Connection: close`. Otherwise @hono/node-server drains the unread rest for at most 500 ms, then destroys the socket,
 * under the client's next request on that kept-alive connection ("other side closed").
 */
function closeUnreadBodies(): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    await next();
    if (raw.body === null || raw.bodyUsed || raw.headers.get("content-length") === "0") return;
    try {
      c.res.headers.set("connection", "close");
    } catch {
      // Immutable headers (a fetched response passed on): a copy carries the header.
      const headers = new Headers(c.res.headers);
      headers.set("connection", "close");
      c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
    }
  };
}

/**
 * Every body is held to `maxBytes`, but uploads and a backup's import to what an upload may be (UPLOAD_LIMITS: its
 * files' total, plus the multipart framing) when that is more: they are files, not JSON.
 */
function limitBody(maxBytes: number): MiddlewareHandler<ServerEnv> {
  const fileBytes = Math.max(maxBytes, UPLOAD_LIMITS.max_total_size + 1024 * 1024);
  const limiter = (bytes: number) =>
    bodyLimit({
      maxSize: bytes,
      // The unread rest of the body is not waited for: the connection closes after the answer.
      onError: () =>
        problem(413, `The request body is larger than this server takes (${megabytes(bytes)}).`, {
          connection: "close",
        }),
    });
  const forJson = limiter(maxBytes);
  const forFiles = limiter(fileBytes);
  return (c, next) => (FILE_ROUTES.test(new URL(c.req.url).pathname) ? forFiles(c, next) : forJson(c, next));
}

/** Routes whose bodies are files: a thread's uploads, a backup's import, a `.fawn` bundle's or DeerFlow thread's import. */
const FILE_ROUTES = /\/(threads\/[^/]+\/uploads|data\/import|fawn\/threads\/import(-deerflow)?)\/?$/;

/** Passes the request to the user's in-browser routes, which take `/api/…` paths. */
async function gatewayRoute(c: Context<ServerEnv>, prefix: string, gateways: UserGateways): Promise<Response> {
  const url = new URL(c.req.url);
  const rest = url.pathname.slice(prefix.length);
  url.pathname = `/api${rest}`;
  const raw = c.req.raw;
  const hasBody = raw.method !== "GET" && raw.method !== "HEAD" && raw.body !== null;
  const request = new Request(url, {
    method: raw.method,
    headers: raw.headers,
    signal: raw.signal,
    ...(hasBody && { body: raw.body, duplex: "half" }),
  } as RequestInit);
  const fetch = await gateways.fetchFor(c.get("owner"));
  const response = await fetch(request);
  if (response.status !== 500) return response;
  // An unexpected failure's message (a database error, a stack's words) is for the server's log, not the client.
  console.error(`${raw.method} ${url.pathname} failed:`, await response.text().catch(() => ""));
  return problem(500, "The server failed to answer this request.");
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
