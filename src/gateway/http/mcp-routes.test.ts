import { beforeEach, describe, expect, it } from "vitest";
import { memoryStorage } from "../../storage/index.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";

let gateway: Gateway;
let handle: (request: Request) => Promise<Response>;

beforeEach(() => {
  gateway = createGateway(memoryStorage());
  handle = createGatewayFetch(gateway);
});

const call = (method: string, body?: unknown) =>
  handle(
    new Request("http://fawn.local/api/mcp/config", {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    }),
  );

const github = {
  type: "http",
  url: "https://mcp.example.com/github",
  enabled: true,
  headers: { Authorization: "Bearer secret-token", "X-Team": "team-secret" },
  description: "Repositories",
  tools: { delete_repo: { enabled: false } },
};

describe("MCP config routes", () => {
  it("saves DeerFlow's mcp_servers map and shows it back with every secret masked", async () => {
    expect(await (await call("GET")).json()).toEqual({ mcp_servers: {} });
    const saved = await call("PUT", { mcp_servers: { github } });
    expect(saved.status).toBe(200);
    const shown = {
      mcp_servers: {
        github: {
          enabled: true,
          type: "http",
          url: "https://mcp.example.com/github",
          headers: { "X-Team": "***", Authorization: "***" },
          description: "Repositories",
          tools: { delete_repo: { enabled: false } },
          tool_call_timeout: null,
          use_proxy: false,
        },
      },
    };
    expect(await saved.json()).toEqual(shown);
    expect(await (await call("GET")).json()).toEqual(shown);
    expect(await gateway.mcp.list()).toEqual([
      expect.objectContaining({ bearerToken: "secret-token", headers: { "X-Team": "team-secret" } }),
    ]);

    // What GET showed, sent back with a change: the masked secrets stay as they were.
    const edited = { ...shown.mcp_servers.github, description: "Repos and issues" };
    expect((await call("PUT", { mcp_servers: { github: edited } })).status).toBe(200);
    expect(await gateway.mcp.list()).toEqual([
      expect.objectContaining({
        description: "Repos and issues",
        bearerToken: "secret-token",
        headers: { "X-Team": "team-secret" },
      }),
    ]);
  });

  it("turns one server off with PATCH, and answers 404 for a server it does not have", async () => {
    await call("PUT", { mcp_servers: { github } });
    const off = await call("PATCH", { server_name: "github", enabled: false });
    expect(((await off.json()) as { mcp_servers: { github: { enabled: boolean } } }).mcp_servers.github.enabled).toBe(
      false,
    );
    expect((await gateway.mcp.list())[0]).toMatchObject({ enabled: false, bearerToken: "secret-token" });
    const missing = await call("PATCH", { server_name: "nope", enabled: true });
    expect([missing.status, await missing.json()]).toEqual([404, { detail: 'MCP server "nope" not found.' }]);
  });

  it("refuses a stdio server, a bad URL, or a masked secret it has not got, with one sentence and nothing saved", async () => {
    await call("PUT", { mcp_servers: { github } });
    const before = await gateway.mcp.list();
    const refusals = [
      [{ files: { command: "npx", args: ["-y", "server-files"] } }, /stdio server; Fawn reaches MCP servers over HTTP/],
      [{ github, bad: { type: "http", url: "ftp://x" } }, /Server "bad": The URL is an http/],
      [{ other: { type: "http", url: "https://x.example", headers: { "X-Key": "***" } } }, /header X-Key is "\*\*\*"/],
      [{ github: { ...github, url: 42 } }, /mcp_servers.github.url/],
    ] as const;
    for (const [servers, detail] of refusals) {
      const response = await call("PUT", { mcp_servers: servers });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect((await call("PUT", { servers: [] })).status).toBe(422);
    expect(await gateway.mcp.list()).toEqual(before);
  });
});
