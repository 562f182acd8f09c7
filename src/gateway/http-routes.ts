// DeerFlow's Gateway routes as a web-standard `fetch(Request) → Response` handler over the typed Gateway
// (docs/architecture.md#d5-gateway), so the browser's code, the Fawn server and `@langchain/langgraph-sdk`'s Client
// can drive a thread. Each domain's routes live in `http/<domain>-routes.ts`; this file is their table of contents.
import type { Gateway } from "./create-gateway.ts";
import { agentsRoutes } from "./http/agents-routes.ts";
import { artifactRoutes } from "./http/artifact-routes.ts";
import { composerRoutes } from "./http/composer-routes.ts";
import { dataRoutes } from "./http/data-routes.ts";
import { memoryRoutes } from "./http/memory-routes.ts";
import { modelRoutes } from "./http/model-routes.ts";
import { fawnRoutes } from "./http/fawn-routes.ts";
import { feedbackRoutes } from "./http/feedback-routes.ts";
import { featureRoutes } from "./http/feature-routes.ts";
import { mcpRoutes } from "./http/mcp-routes.ts";
import { messageRoutes } from "./http/message-routes.ts";
import { errorResponse, newRouteApp, pathOf, problem, type RouteGroup } from "./http/route-kit.ts";
import { scheduleRoutes } from "./http/schedule-routes.ts";
import { skillRoutes } from "./http/skill-routes.ts";
import { threadRoutes } from "./http/thread-routes.ts";
import { uploadRoutes } from "./http/upload-routes.ts";

const ROUTE_GROUPS: readonly RouteGroup[] = [
  modelRoutes,
  threadRoutes,
  messageRoutes,
  feedbackRoutes,
  uploadRoutes,
  artifactRoutes,
  composerRoutes,
  memoryRoutes,
  skillRoutes,
  agentsRoutes,
  mcpRoutes,
  featureRoutes,
  fawnRoutes,
  dataRoutes,
  scheduleRoutes,
];

/**
 * A `fetch`-shaped handler for the Gateway's routes under `/api`. An unknown path answers 404, a known path with
 * another method 405, and every refusal or failure `{detail}` with its status (errorResponse).
 */
export function createGatewayFetch(gateway: Gateway): (request: Request) => Promise<Response> {
  const app = newRouteApp();
  for (const group of ROUTE_GROUPS) group(app, gateway);

  // Registered last, so a path's own methods answer first: any other method on a known path is 405.
  for (const path of new Set(app.routes.map((route) => route.path))) {
    app.all(path, (c) => problem(405, `${c.req.method} is not allowed on ${pathOf(c.req.raw)}.`));
  }
  app.notFound((c) => problem(404, `No route ${pathOf(c.req.raw)}.`));
  app.onError(errorResponse);

  return async (request) => app.fetch(request);
}
