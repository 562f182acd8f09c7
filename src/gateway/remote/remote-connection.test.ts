// The server workspace's connection over a fake fetch (the states a real server is impractical to put in on cue): a
// network failure is offline and reads answer from what was kept, 401/403 is unauthorized, a good answer is online
// again, a malformed one stays said until a good answer comes; forgetting a server forgets what was kept.
import { describe, expect, it } from "vitest";
import type { ServerSummary } from "../../protocol/index.ts";
import { forgetWorkspaceCache, RemoteConnection, ServerUnreachableError } from "./remote-connection.ts";

const server: ServerSummary = {
  id: "conn-test",
  name: "Team server",
  url: "https://fawn.example",
  kind: "fawn",
  features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
  added_at: 0,
};

describe("a server workspace's connection", () => {
  it("notes each answer's state, and answers reads from what it kept while the server is away", async () => {
    const connection = new RemoteConnection(server);
    let answer: () => Promise<Response> = async () => new Response("{}");
    const watched = connection.watch(() => answer());
    const read = () => connection.read("threads", async () => (await watched("https://fawn.example/x")).json());

    expect(await read()).toEqual({});
    expect(connection.current()).toEqual({ state: "online" });

    answer = () => Promise.reject(new TypeError("fetch failed"));
    expect(await read()).toEqual({});
    expect(connection.current()).toEqual({
      state: "offline",
      sentence: "fawn.example is unreachable: showing what this browser kept.",
    });
    const other = connection.read("other", async () => (await watched("https://fawn.example/y")).json());
    await expect(other).rejects.toBeInstanceOf(ServerUnreachableError);

    answer = async () => new Response("{}", { status: 401 });
    await watched("https://fawn.example/x");
    expect(connection.current()).toMatchObject({ state: "unauthorized" });

    answer = async () => new Response("{}");
    connection.malformed("a thread list");
    expect(connection.current()).toEqual({
      state: "malformed",
      sentence: "fawn.example answered with something that is not a thread list.",
    });
    await watched("https://fawn.example/x");
    expect(connection.current()).toEqual({ state: "online" });

    await forgetWorkspaceCache(server.id);
    answer = () => Promise.reject(new TypeError("fetch failed"));
    await expect(read()).rejects.toThrow("fawn.example is unreachable");
  });

  it("lets a caller's own abort through as it is", async () => {
    const connection = new RemoteConnection(server);
    const abort = new AbortController();
    abort.abort();
    const watched = connection.watch(() => Promise.reject(new DOMException("aborted", "AbortError")));
    await expect(watched("https://fawn.example/x", { signal: abort.signal })).rejects.toThrow("aborted");
    expect(connection.current()).toEqual({ state: "online" });
  });
});
