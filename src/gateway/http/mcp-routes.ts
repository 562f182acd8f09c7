// DeerFlow's MCP configuration routes: `GET /api/mcp/config` (servers as DeerFlow's `mcp_servers` map, every secret
// masked as "***"), `PUT` (the whole map; a masked value keeps the stored secret) and `PATCH` (one server on or off).
// Fawn reaches MCP servers over HTTP only: a stdio server (a command) is refused with a sentence saying so.
import { z } from "zod";
import type { McpServerEntry } from "../../protocol/index.ts";
import { json, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** What DeerFlow's GET shows in place of a secret, and what a PUT sends back to keep it. */
const MASKED = "***";
const HTTP_TRANSPORTS = new Set(["http", "sse", "streamable_http", "streamable-http"]);

const serverBody = z.looseObject({
  enabled: z.boolean().default(true),
  type: z.string().optional(),
  transport: z.string().optional(),
  command: z.string().nullish(),
  url: z.string().nullish(),
  headers: z.record(z.string(), z.string()).default({}),
  description: z.string().nullish(),
  tools: z.record(z.string(), z.looseObject({ enabled: z.boolean().optional() })).default({}),
  tool_call_timeout: z.number().nullish(),
  use_proxy: z.boolean().optional(),
});
const configBody = z.object({ mcp_servers: z.record(z.string(), serverBody) });
const stateBody = z.object({ server_name: z.string().min(1), enabled: z.boolean() });

/** A server as DeerFlow's McpServerConfigResponse shows it, its header values and bearer token masked. */
function serverResponse(server: McpServerEntry) {
  const headers = Object.fromEntries(Object.keys(server.headers ?? {}).map((name) => [name, MASKED]));
  if (server.bearerToken) headers.Authorization = MASKED;
  return {
    enabled: server.enabled,
    type: "http",
    url: server.url,
    headers,
    description: server.description ?? "",
    tools: Object.fromEntries((server.disabledTools ?? []).map((tool) => [tool, { enabled: false }])),
    tool_call_timeout: server.timeoutSeconds ?? null,
    use_proxy: server.useProxy === true,
  };
}

function configResponse(servers: readonly McpServerEntry[]) {
  return { mcp_servers: Object.fromEntries(servers.map((server) => [server.name, serverResponse(server)])) };
}

/**
 * The Fawn entry a DeerFlow server config stands for: an `Authorization: Bearer …` header becomes the bearer token,
 * and a masked value the stored one. Refused (422, nothing saved) for a stdio server or a masked value with nothing
 * stored behind it.
 */
function toEntry(name: string, server: z.infer<typeof serverBody>, stored: McpServerEntry | undefined): unknown {
  const transport = (server.type ?? server.transport ?? (server.command ? "stdio" : "http")).toLowerCase();
  if (server.command || !HTTP_TRANSPORTS.has(transport)) {
    throw new RouteProblem(
      422,
      `Server ${JSON.stringify(name)} is a ${transport} server; Fawn reaches MCP servers over HTTP only, by their URL.`,
    );
  }
  const unmask = (header: string, value: string): string => {
    if (value !== MASKED) return value;
    const kept =
      header.toLowerCase() === "authorization"
        ? stored?.bearerToken && `Bearer ${stored.bearerToken}`
        : Object.entries(stored?.headers ?? {}).find(([key]) => key.toLowerCase() === header.toLowerCase())?.[1];
    if (kept) return kept;
    throw new RouteProblem(422, `Server ${JSON.stringify(name)}: header ${header} is "${MASKED}"; give its value.`);
  };
  const headers: Record<string, string> = {};
  let bearerToken: string | undefined;
  for (const [header, value] of Object.entries(server.headers)) {
    const real = unmask(header, value);
    const bearer = header.toLowerCase() === "authorization" ? /^Bearer\s+(\S+)$/i.exec(real) : null;
    if (bearer) bearerToken = bearer[1];
    else headers[header] = real;
  }
  const disabledTools = Object.entries(server.tools)
    .filter(([, tool]) => tool.enabled === false)
    .map(([tool]) => tool);
  return {
    name,
    url: server.url ?? "",
    enabled: server.enabled,
    ...(server.use_proxy && { useProxy: true }),
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(bearerToken !== undefined && { bearerToken }),
    ...(disabledTools.length > 0 && { disabledTools }),
    ...(typeof server.tool_call_timeout === "number" && { timeoutSeconds: Math.round(server.tool_call_timeout) }),
    ...(server.description && { description: server.description }),
    // DeerFlow's config has no pre-registered OAuth client: a server keeps the one Settings → Tools gave it.
    ...(stored?.oauthClientId && { oauthClientId: stored.oauthClientId }),
    ...(stored?.oauthClientSecret && { oauthClientSecret: stored.oauthClientSecret }),
  };
}

export const mcpRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/mcp/config", async () => json(configResponse(await gateway.mcp.list())));
  app.put("/api/mcp/config", async (c) => {
    const body = await readJson(c.req.raw, configBody);
    const stored = await gateway.mcp.list();
    const entries = Object.entries(body.mcp_servers).map(([name, server]) =>
      toEntry(
        name,
        server,
        stored.find((entry) => entry.name === name),
      ),
    );
    // McpService.save checks every entry (name, URL, headers) and stores all of them or none (UserError: 422).
    return json(configResponse(await gateway.mcp.save(entries)));
  });
  app.patch("/api/mcp/config", async (c) => {
    const body = await readJson(c.req.raw, stateBody);
    const stored = await gateway.mcp.list();
    if (!stored.some((server) => server.name === body.server_name)) {
      throw new RouteProblem(404, `MCP server ${JSON.stringify(body.server_name)} not found.`);
    }
    const updated = stored.map((server) =>
      server.name === body.server_name ? { ...server, enabled: body.enabled } : server,
    );
    return json(configResponse(await gateway.mcp.save(updated)));
  });
};
