// Feedback on the real server (server-harness.ts: HTTP, auth, PGlite, the mock model): DeerFlow's run feedback routes
// rate a run's reply and the thread's detail carries it; another user cannot rate it; a server workspace rates and
// reads it back through the same routes.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteContext } from "../../src/gateway/remote/remote-context.ts";
import { RemoteFeedback } from "../../src/gateway/remote/remote-feedback.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let ada: string;
let threadId: string;
let runId: string;

beforeAll(async () => {
  server = await startTestServer();
  ada = await server.addUser("Ada");
  const sdk = new Client({ apiUrl: server.apiUrl, apiKey: ada, callerOptions: { maxRetries: 0 } });
  threadId = (await sdk.threads.create()).thread_id;
  await sdk.runs.wait(threadId, "lead_agent", { input: { messages: [{ type: "human", content: "name a bee" }] } });
  const runs = await sdk.runs.list(threadId);
  runId = runs[0]!.run_id;
});
afterAll(async () => {
  await server?.close();
});

const put = (token: string, body: unknown) =>
  server.request(`/api/threads/${threadId}/runs/${runId}/feedback`, {
    token,
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("feedback on a Fawn server", () => {
  it("PUT rates the run's reply, kept in the user's storage and shown in the thread's detail", async () => {
    const response = await put(ada, { rating: 1, comment: "Named one." });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { message_id: string; rating: number; comment: string };
    expect(answer).toMatchObject({ run_id: runId, thread_id: threadId, rating: 1, comment: "Named one." });
    const detail = (await (await server.request(`/api/fawn/threads/${threadId}`, { token: ada })).json()) as {
      feedback?: Record<string, { rating: number; comment?: string }>;
    };
    expect(detail.feedback?.[answer.message_id]).toMatchObject({ rating: 1, comment: "Named one." });
  });

  it("another user cannot rate the thread", async () => {
    const bob = await server.addUser("Bob");
    expect((await put(bob, { rating: -1 })).status).toBe(404);
  });

  it("a server workspace rates the reply and reads it back", async () => {
    const remote = new RemoteFeedback(
      new RemoteContext({
        server: {
          id: "s",
          name: "Team",
          url: server.url,
          kind: "fawn",
          features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
          added_at: 0,
        },
        token: ada,
      }),
    );
    const [before] = await remote.list(threadId);
    expect(before).toMatchObject({ rating: 1, comment: "Named one." });
    await remote.set(threadId, before!.message_id, { rating: -1, comment: "On second thought, no." });
    expect(await remote.list(threadId)).toEqual([
      expect.objectContaining({ message_id: before!.message_id, rating: -1, comment: "On second thought, no." }),
    ]);
    await remote.clear(threadId, before!.message_id);
    expect(await remote.list(threadId)).toEqual([]);
  });
});
