import { describe, expect, it } from "vitest";
import { UserError } from "../shared/user-error.ts";
import type { Gateway } from "./create-gateway.ts";
import { createGatewayFetch } from "./http-routes.ts";

/** A Gateway whose threads.get fails with `error` (or finds nothing): enough for the routes' error answers. */
function gatewayFailingWith(error?: unknown): Gateway {
  return {
    threads: {
      get: async () => {
        if (error) throw error;
        return undefined;
      },
    },
  } as unknown as Gateway;
}

const get = (gateway: Gateway, path: string, method = "GET") =>
  createGatewayFetch(gateway)(new Request(`http://fawn.local${path}`, { method }));

describe("Gateway HTTP routes' errors", () => {
  it("answers a UserError with the status its kind names, as {detail}", async () => {
    const conflict = await get(gatewayFailingWith(new UserError("Busy.", "conflict")), "/api/threads/t");
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ detail: "Busy." });
    expect((await get(gatewayFailingWith(new UserError("Bad.")), "/api/threads/t")).status).toBe(422);
  });

  it("answers anything else with 500", async () => {
    const failed = await get(gatewayFailingWith(new Error("disk on fire")), "/api/threads/t");
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ detail: "disk on fire" });
  });

  it("tells a missing thread (404) from an unknown path (404) and a wrong method (405)", async () => {
    const missing = await get(gatewayFailingWith(), "/api/threads/t/");
    expect(await missing.json()).toEqual({ detail: "Thread t not found." });
    const unknown = await get(gatewayFailingWith(), "/api/nothing/");
    expect([unknown.status, await unknown.json()]).toEqual([404, { detail: "No route /api/nothing." }]);
    const wrong = await get(gatewayFailingWith(), "/api/threads/t/state", "POST");
    expect([wrong.status, await wrong.json()]).toEqual([
      405,
      { detail: "POST is not allowed on /api/threads/t/state." },
    ]);
    // A path one method owns can still be another route's for another method: GET /api/threads/search is a thread.
    expect((await get(gatewayFailingWith(), "/api/threads/search")).status).toBe(404);
  });

  it("decodes path parameters", async () => {
    const response = await get(gatewayFailingWith(), "/api/threads/a%20b");
    expect(await response.json()).toEqual({ detail: "Thread a b not found." });
  });
});
