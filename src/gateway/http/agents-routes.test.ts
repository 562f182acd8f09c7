// DeerFlow's /api/agents routes over the Gateway: their shapes and statuses (201 on create, 204 on delete, 404 for
// an unknown agent, 409 for a taken name, 422 for a bad one), and Fawn's agents zip out and back in.
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

const call = (method: string, path: string, body?: unknown) =>
  handle(
    new Request(`http://fawn.local${path}`, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    }),
  );

const helper = { name: "Helper", description: "Helps", soul: "Be kind.", tool_groups: ["web"], skills: [] };

describe("/api/agents", () => {
  it("creates, lists, gets, updates and deletes an agent in DeerFlow's shapes", async () => {
    const created = await call("POST", "/api/agents", helper);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      name: "helper",
      description: "Helps",
      soul: "Be kind.",
      model: null,
      tool_groups: ["web"],
      skills: [],
      memory: "shared",
    });
    const list = (await (await call("GET", "/api/agents")).json()) as { agents: Record<string, unknown>[] };
    expect(list.agents.map((agent) => agent.name)).toEqual(["helper"]);
    expect(list.agents[0]).not.toHaveProperty("soul");
    expect(await (await call("GET", "/api/agents/helper")).json()).toMatchObject({ soul: "Be kind." });

    const updated = await call("PUT", "/api/agents/helper", { name: "renamed", description: "Helps more" });
    expect(await updated.json()).toMatchObject({ name: "helper", description: "Helps more", soul: "Be kind." });

    expect((await call("DELETE", "/api/agents/helper")).status).toBe(204);
    expect((await call("GET", "/api/agents/helper")).status).toBe(404);
    expect(await gateway.agents.list()).toEqual([]);
  });

  it("checks names, refuses a taken or bad one and a bad field, and answers 404 for an unknown agent", async () => {
    expect(await (await call("GET", "/api/agents/check?name=Helper")).json()).toEqual({
      available: true,
      name: "helper",
    });
    await call("POST", "/api/agents", helper);
    expect(await (await call("GET", "/api/agents/check?name=helper")).json()).toEqual({
      available: false,
      name: "helper",
    });
    expect((await call("GET", "/api/agents/check?name=no%20way")).status).toBe(422);
    const taken = await call("POST", "/api/agents", helper);
    expect([taken.status, await taken.json()]).toEqual([409, { detail: "An agent named 'helper' already exists." }]);
    const bad = await call("POST", "/api/agents", { ...helper, name: "other", tool_groups: ["teleport"] });
    expect([bad.status, await bad.json()]).toEqual([
      422,
      { detail: "Tool groups are bash, file:read, file:write, web, mcp." },
    ]);
    const missing = await call("PUT", "/api/agents/ghost", { description: "x" });
    expect([missing.status, await missing.json()]).toEqual([404, { detail: "Agent 'ghost' not found" }]);
    expect((await call("DELETE", "/api/agents/ghost")).status).toBe(404);
  });

  it("exports the agents zip and imports it into another Gateway; a bad zip is refused with nothing written", async () => {
    await call("POST", "/api/agents", helper);
    const exported = await call("GET", "/api/fawn/agents/export");
    expect(exported.headers.get("content-type")).toBe("application/zip");
    const bytes = new Uint8Array(await exported.arrayBuffer());
    const other = createGatewayFetch(createGateway(memoryStorage()));
    const imported = await other(
      new Request("http://fawn.local/api/fawn/agents/import?file_name=mine.zip", { method: "POST", body: bytes }),
    );
    expect(imported.status).toBe(201);
    expect(((await imported.json()) as { agents: { name: string }[] }).agents.map((agent) => agent.name)).toEqual([
      "helper",
    ]);
    const again = await handle(
      new Request("http://fawn.local/api/fawn/agents/import?file_name=mine.zip", { method: "POST", body: bytes }),
    );
    expect(again.status).toBe(409);
    expect(((await again.json()) as { detail: string }).detail).toContain("'mine.zip' holds an agent you already have");
    expect((await (await call("GET", "/api/fawn/agents/examples")).json()) as { agents: unknown[] }).toMatchObject({
      agents: [{ name: "researcher" }, { name: "code-reviewer" }, { name: "writing-editor" }],
    });
  });
});
