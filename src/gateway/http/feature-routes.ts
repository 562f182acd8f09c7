// DeerFlow's `GET /api/features`: which optional parts its frontend may show. Fawn serves custom agents' API
// (`/api/agents`), not live browser control or durable MCP tasks, so the frontend hides those instead of calling
// routes that 404. Its
// IM channels (Slack, Lark…) are off too: the Channels tab lists none instead of loading, and stops polling.
import { json, type RouteGroup } from "./route-kit.ts";

export const featureRoutes: RouteGroup = (app) => {
  app.get("/api/features", () =>
    json({
      agents_api: { enabled: true },
      browser_control: { enabled: false },
      mcp_tasks: { enabled: false },
    }),
  );
  app.get("/api/channels/providers", () => json({ enabled: false, providers: [] }));
  app.get("/api/channels/connections", () => json({ connections: [] }));
};
