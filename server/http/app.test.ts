// The HTTP app over fake users and Gateways: LangGraph's routes answer first and the in-browser routes get the rest
// with `/api/…` paths under either prefix; an unexpected failure's words stay in the server's log.
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UserGateways } from "../gateways.ts";
import type { Users } from "../users.ts";
import { createServerApp, type ServerEnv } from "./app.ts";

const users = {
  byToken: async (token: string) => (token === "good" ? { userId: "user_1", name: "one" } : undefined),
} as unknown as Users;

function appWith(inBrowser: (request: Request, owner: string) => Response) {
  const gateways = {
    fetchFor: async (owner: string) => async (request: Request) => inBrowser(request, owner),
  } as unknown as UserGateways;
  const langGraph = new Hono<ServerEnv>();
  langGraph.get("/assistants/:id", (c) => c.json({ from: "langgraph", owner: c.get("owner") }));
  return createServerApp({ users, gateways, origins: [], maxBodyBytes: 1024, langGraph });
}

const get = (app: Hono<ServerEnv>, path: string) => app.request(path, { headers: { authorization: "Bearer good" } });

afterEach(() => vi.restoreAllMocks());

describe("createServerApp", () => {
  it("answers LangGraph's routes first, then passes the rest to the user's in-browser routes as /api paths", async () => {
    const seen: string[] = [];
    const app = appWith((request, owner) => {
      seen.push(`${owner} ${new URL(request.url).pathname}`);
      return Response.json({ from: "gateway" });
    });
    expect(await (await get(app, "/api/assistants/lead_agent")).json()).toEqual({ from: "langgraph", owner: "user_1" });
    expect(await (await get(app, "/api/langgraph/assistants/x")).json()).toMatchObject({ from: "langgraph" });
    expect(await (await get(app, "/api/langgraph/models")).json()).toEqual({ from: "gateway" });
    expect(await (await get(app, "/api/memory")).json()).toEqual({ from: "gateway" });
    expect(seen).toEqual(["user_1 /api/models", "user_1 /api/memory"]);
  });

  it("answers /ok and /info at the root and under each API prefix, with a token, a wrong one or none", async () => {
    const app = appWith(() => Response.json({ from: "gateway" }));
    for (const prefix of ["", "/api", "/api/langgraph"]) {
      const sent: Record<string, string>[] = [{}, { authorization: "Bearer good" }, { "x-api-key": "wrong" }];
      for (const headers of sent) {
        const info = await app.request(`${prefix}/info`, { headers });
        expect([info.status, await info.json()]).toMatchObject([200, { name: "fawn", version: expect.any(String) }]);
        const ok = await app.request(`${prefix}/ok`, { headers });
        expect([ok.status, await ok.json()]).toEqual([200, { ok: true }]);
      }
    }
    expect((await app.request("/api/memory")).status).toBe(401);
  });

  it("keeps an unexpected failure's message out of the answer", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = appWith(() =>
      Response.json({ detail: "relation fawn_rows does not exist at /srv/x.ts:12" }, { status: 500 }),
    );
    const response = await get(app, "/api/memory");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: "The server failed to answer this request." });
    expect(String(logged.mock.calls[0]?.[1])).toContain("relation fawn_rows");
  });

  it("passes a refusal the routes chose through as it is", async () => {
    const app = appWith(() => Response.json({ detail: "Thread t not found." }, { status: 404 }));
    const response = await get(app, "/api/threads/t");
    expect([response.status, await response.json()]).toEqual([404, { detail: "Thread t not found." }]);
  });
});
