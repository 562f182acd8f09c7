// What real clients need beyond LangGraph's routes, over real HTTP: agent-chat-ui's `${apiUrl}/info` check under
// either prefix (with its key, a wrong one or none), and DeerFlow's new chat, which uploads its files before it creates
// the thread: the limits and an empty list for the new id, the upload making the thread, and LangGraph's create (the
// SDK's, without if_exists) then answering it — while a thread that has run still answers 409; then its history page.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_LIMITS } from "../../src/protocol/index.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let user: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await server.addUser("dana");
});
afterAll(async () => {
  await server?.close();
});

function upload(threadId: string, files: Record<string, string>, token = user): Promise<Response> {
  const form = new FormData();
  for (const [name, text] of Object.entries(files)) form.append("files", new Blob([text]), name);
  return server.request(`/api/threads/${threadId}/uploads`, { method: "POST", token, body: form });
}

/** The user's rows (any store: the thread, its files) whose key names the thread. */
async function threadRows(threadId: string): Promise<number> {
  const owner = (await server.server.users.byToken(user))!.userId;
  const rows = await server.db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM fawn_rows WHERE owner = $1 AND key LIKE $2",
    [owner, `%${threadId}%`],
  );
  return rows[0]?.count ?? 0;
}

describe("agent-chat-ui's connection check", () => {
  it("finds /info and /ok under /api and /api/langgraph with its key, a wrong key or none", async () => {
    for (const prefix of ["", "/api", "/api/langgraph"]) {
      for (const init of [{ token: null }, { token: "wrong" }, { token: null, headers: { "x-api-key": user } }]) {
        const info = await server.request(`${prefix}/info`, init);
        expect({ prefix, status: info.status }).toEqual({ prefix, status: 200 });
        expect(await info.json()).toMatchObject({ name: "fawn", flags: { assistants: true } });
        expect((await server.request(`${prefix}/ok`, init)).status).toBe(200);
      }
    }
    // The rest of the API still wants a token.
    expect((await server.request("/api/threads/search", { method: "POST", token: null })).status).toBe(401);
  });
});

describe("DeerFlow's new chat with a file", () => {
  it("uploads to the new id, then creates the thread with the SDK and runs on it", async () => {
    const threadId = crypto.randomUUID();
    const limits = await server.request(`/api/langgraph/threads/${threadId}/uploads/limits`, { token: user });
    expect([limits.status, await limits.json()]).toEqual([200, UPLOAD_LIMITS]);
    const listed = await server.request(`/api/threads/${threadId}/uploads/list`, { token: user });
    expect(await listed.json()).toEqual({ files: [], count: 0 });

    const uploaded = await upload(threadId, { "brief.txt": "the brief" });
    expect(uploaded.status).toBe(200);
    expect(await uploaded.json()).toMatchObject({ files: [{ filename: "brief.txt" }] });
    expect(await threadRows(threadId)).toBeGreaterThan(0);

    const client = new Client({ apiUrl: `${server.url}/api/langgraph`, apiKey: user });
    const thread = await client.threads.create({ threadId, metadata: { source: "deerflow" } });
    expect(thread).toMatchObject({ thread_id: threadId, metadata: { source: "deerflow" } });
    const files = (await (await server.request(`/api/threads/${threadId}/uploads/list`, { token: user })).json()) as {
      files: { filename: string }[];
    };
    expect(files.files.map((file) => file.filename)).toEqual(["brief.txt"]);

    await client.runs.wait(threadId, "lead_agent", { input: { messages: [{ type: "human", content: "hello" }] } });
    // Now it has run: LangGraph's 409 again, and do_nothing still answers it.
    await expect(client.threads.create({ threadId })).rejects.toMatchObject({ status: 409 });
    expect((await client.threads.create({ threadId, ifExists: "do_nothing" })).thread_id).toBe(threadId);
    const state = await client.threads.getState<{ messages: unknown[] }>(threadId);
    expect(state.values.messages).toHaveLength(2);

    // DeerFlow's history page and token usage, with the run LangGraph's API names.
    const [run] = await client.runs.list(threadId);
    const page = await server.request(`/api/langgraph/threads/${threadId}/messages/page`, { token: user });
    expect(await page.json()).toMatchObject({
      data: [
        { seq: 1, run_id: run!.run_id, content: { type: "human" } },
        { seq: 2, run_id: run!.run_id, content: { type: "ai" } },
      ],
      has_more: false,
      next_before_seq: null,
    });
    const usage = await server.request(`/api/threads/${threadId}/token-usage`, { token: user });
    expect(await usage.json()).toMatchObject({ thread_id: threadId, total_runs: 1 });
  });

  it("keeps LangGraph's 409 for a thread LangGraph's create made, even one that never ran or holds an upload", async () => {
    const client = new Client({ apiUrl: server.apiUrl, apiKey: user });
    const { thread_id: threadId } = await client.threads.create();
    await expect(client.threads.create({ threadId })).rejects.toMatchObject({ status: 409 });
    expect((await upload(threadId, { "late.txt": "x" })).status).toBe(200);
    await expect(client.threads.create({ threadId })).rejects.toMatchObject({ status: 409 });
  });

  it("leaves no thread when the first upload is refused", async () => {
    const threadId = crypto.randomUUID();
    const tooMany = Object.fromEntries(
      Array.from({ length: UPLOAD_LIMITS.max_files + 1 }, (_, i) => [`f${i}.txt`, "x"]),
    );
    expect((await upload(threadId, tooMany)).status).toBe(413);
    expect((await upload(threadId, { "..": "x" })).status).toBe(400);
    expect((await server.request(`/api/threads/${threadId}`, { token: user })).status).toBe(404);
    expect(await threadRows(threadId)).toBe(0);
    // A malformed id is no thread to make.
    expect((await upload("not.an.id", { "a.txt": "x" })).status).toBe(404);
  });
});
