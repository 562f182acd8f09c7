// What every domain of a server workspace shares, over a fake fetch (a server answering garbage or refusing on cue is
// impractical from a real one): an answer of Fawn's own routes that is not what the route gives marks the connection
// malformed, whichever call read it; a refusal is said in the same sentences as the workspace's other routes.
import { describe, expect, it } from "vitest";
import type { ServerSummary } from "../../protocol/index.ts";
import { RemoteContext } from "./remote-context.ts";

const server: ServerSummary = {
  id: "context-test",
  name: "Team server",
  url: "https://fawn.example",
  kind: "fawn",
  features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
  added_at: 0,
};

function context(answer: (url: string, init?: RequestInit) => Response) {
  return new RemoteContext({ server, fetch: async (input, init) => answer(String(input), init) });
}

describe("a Fawn server's own routes in a workspace", () => {
  it("mark the connection malformed for an answer that is not the route's, outside a kept read too", async () => {
    const remote = context(() => Response.json({ garbage: true }));
    await expect(remote.fawn!.updateThread("t1", { title: "A" })).rejects.toThrow(
      "fawn.example answered with something that is not a thread.",
    );
    expect(remote.connection.current()).toEqual({
      state: "malformed",
      sentence: "fawn.example answered with something that is not a thread.",
    });

    const again = context(() => new Response("not json"));
    await expect(again.fawn!.compact("t1")).rejects.toThrow("not a compaction");
    expect(again.connection.current().state).toBe("malformed");
  });

  it("say a refusal in the same sentences as the workspace's other routes", async () => {
    const remote = context((url) =>
      url.includes("/fawn/") ? new Response("", { status: url.includes("replay") ? 404 : 401 }) : Response.json({}),
    );
    await expect(remote.fawn!.replay("t1")).rejects.toThrow("fawn.example has no such thread or file.");
    await expect(remote.fawn!.listThreads()).rejects.toThrow("fawn.example refused the access token.");
    await expect(remote.refusal(new Response("", { status: 404 }))).rejects.toThrow(
      "fawn.example has no such thread or file.",
    );
    const refused = await remote.fawn!.shareLink("t1").catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, userFacing: "invalid" });
    const detailed = context(() => Response.json({ detail: "That thread is running." }, { status: 409 }));
    await expect(detailed.fawn!.compact("t1")).rejects.toMatchObject({
      message: "That thread is running.",
      userFacing: "conflict",
    });
  });
});
