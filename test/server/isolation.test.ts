// Two users on one server and one database: each one's threads, runs, memory, skills and uploads are theirs alone.
// Another's thread id answers 404 to every route, as if it did not exist, and nothing of theirs is listed.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let alice: string;
let bob: string;
let aliceThread: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.addUser("alice");
  bob = await server.addUser("bob");
  // Alice's thread, with a reply (a run), an upload and a memory fact.
  const client = new Client({ apiUrl: server.apiUrl, apiKey: alice });
  aliceThread = (await client.threads.create({ metadata: { project: "apollo" } })).thread_id;
  for await (const _ of client.runs.stream(aliceThread, "lead_agent", {
    input: { messages: [{ type: "human", content: "Remember the launch code" }] },
  })) {
    // drained
  }
  const form = new FormData();
  form.append("files", new Blob(["alice's secret notes"], { type: "text/plain" }), "notes.txt");
  expect((await call(alice, "POST", `/api/threads/${aliceThread}/uploads`, form)).status).toBe(200);
  expect((await call(alice, "POST", "/api/memory/facts", { content: "Alice's launch code is 0000" })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

/** `method path` as the holder of `token`, with a JSON (or form) body. */
function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  const form = body instanceof FormData;
  return server.request(path, {
    method,
    token,
    ...(body !== undefined && {
      body: form ? body : JSON.stringify(body),
      ...(!form && { headers: { "content-type": "application/json" } }),
    }),
  });
}

describe("another user's thread", () => {
  it("answers 404 to every route that names it, under both prefixes", async () => {
    const runs = (await (await call(alice, "GET", `/api/threads/${aliceThread}/runs`)).json()) as { run_id: string }[];
    const runId = runs[0]?.run_id;
    expect(runId).toBeTruthy();
    const routes: [string, string, unknown?][] = [
      ["PATCH", `/threads/${aliceThread}`, { metadata: { project: "stolen" } }],
      ["POST", `/threads/${aliceThread}/copy`, {}],
      ["POST", `/threads/${aliceThread}/history`, { limit: 5 }],
      ["POST", `/threads/${aliceThread}/state`, { values: { messages: [] } }],
      ["GET", `/threads/${aliceThread}/runs/${runId}`],
      ["GET", `/threads/${aliceThread}/runs/${runId}/join`],
      ["POST", `/threads/${aliceThread}/runs/${runId}/cancel`],
      ["POST", `/threads/${aliceThread}/runs`, { assistant_id: "lead_agent", input: null }],
      ["GET", `/threads/${aliceThread}`],
      ["GET", `/threads/${aliceThread}/state`],
      ["GET", `/threads/${aliceThread}/runs`],
      [
        "POST",
        `/threads/${aliceThread}/runs/stream`,
        { assistant_id: "lead_agent", input: { messages: [{ type: "human", content: "hi" }] } },
      ],
      ["DELETE", `/threads/${aliceThread}/uploads/notes.txt`],
      ["GET", `/threads/${aliceThread}/artifacts/mnt/user-data/uploads/notes.txt`],
      ["DELETE", `/threads/${aliceThread}`],
    ];
    for (const prefix of ["/api", "/api/langgraph"]) {
      for (const [method, path, body] of routes) {
        const response = await call(bob, method, `${prefix}${path}`, body);
        expect({ route: `${method} ${prefix}${path}`, status: response.status }).toEqual({
          route: `${method} ${prefix}${path}`,
          status: 404,
        });
        const { detail } = (await response.json()) as { detail: string };
        expect(detail).not.toContain("alice");
      }
    }
    // Alice's thread is all there still.
    const uploads = await call(alice, "GET", `/api/threads/${aliceThread}/uploads/list`);
    expect(((await uploads.json()) as { files: { filename: string }[] }).files.map((file) => file.filename)).toEqual([
      "notes.txt",
    ]);
    const state = (await (await call(alice, "GET", `/api/threads/${aliceThread}/state`)).json()) as {
      values: { messages: unknown[] };
    };
    expect(state.values.messages).toHaveLength(2);
  });

  it("is never listed or found by search", async () => {
    const listed = (await (await call(bob, "POST", "/api/threads/search", {})).json()) as unknown[];
    expect(listed).toEqual([]);
    const searched = (await (await call(bob, "POST", "/api/threads/search", { query: "launch" })).json()) as unknown[];
    expect(searched).toEqual([]);
    const own = (await (await call(alice, "POST", "/api/threads/search", {})).json()) as { thread_id: string }[];
    expect(own.map((thread) => thread.thread_id)).toEqual([aliceThread]);
  });

  it("can be named by Bob for a thread of his own, which stays apart from Alice's", async () => {
    // Uploads answer an unknown thread as DeerFlow's new chat needs (an empty list; an upload makes the thread), so
    // Bob's upload to Alice's id makes a thread of his own, which the SDK's create then answers.
    const bobList = await call(bob, "GET", `/api/threads/${aliceThread}/uploads/list`);
    expect(await bobList.json()).toEqual({ files: [], count: 0 });
    const form = new FormData();
    form.append("files", new Blob(["bob's"]), "bob.txt");
    expect((await call(bob, "POST", `/api/threads/${aliceThread}/uploads`, form)).status).toBe(200);
    const client = new Client({ apiUrl: server.apiUrl, apiKey: bob });
    const thread = await client.threads.create({ threadId: aliceThread });
    expect(thread.thread_id).toBe(aliceThread);
    const bobState = (await (await call(bob, "GET", `/api/threads/${aliceThread}/state`)).json()) as {
      values: { messages?: unknown[] };
    };
    expect(bobState.values.messages ?? []).toHaveLength(0);
    expect((await call(bob, "DELETE", `/api/threads/${aliceThread}`)).status).toBeLessThan(300);
    expect((await call(alice, "GET", `/api/threads/${aliceThread}`)).status).toBe(200);
    const aliceList = await call(alice, "GET", `/api/threads/${aliceThread}/uploads/list`);
    expect(((await aliceList.json()) as { files: { filename: string }[] }).files.map((file) => file.filename)).toEqual([
      "notes.txt",
    ]);
  });
});

describe("a user's own data", () => {
  it("keeps memory apart: Bob's holds none of Alice's facts", async () => {
    const bobMemory = (await (await call(bob, "GET", "/api/memory")).json()) as { facts: { content: string }[] };
    expect(bobMemory.facts).toEqual([]);
    const aliceMemory = (await (await call(alice, "GET", "/api/memory")).json()) as { facts: { content: string }[] };
    expect(aliceMemory.facts.map((fact) => fact.content)).toContain("Alice's launch code is 0000");
  });

  it("keeps skills apart: a skill Alice turns off stays on for Bob", async () => {
    const skills = (await (await call(alice, "GET", "/api/skills")).json()) as {
      skills: { name: string; enabled: boolean }[];
    };
    const skill = skills.skills.find((entry) => entry.enabled);
    expect(skill).toBeDefined();
    expect((await call(alice, "PUT", `/api/skills/${skill!.name}`, { enabled: false })).status).toBe(200);
    const enabledFor = async (token: string) =>
      (
        (await (await call(token, "GET", "/api/skills")).json()) as { skills: { name: string; enabled: boolean }[] }
      ).skills.find((entry) => entry.name === skill!.name)?.enabled;
    expect(await enabledFor(alice)).toBe(false);
    expect(await enabledFor(bob)).toBe(true);
  });

  it("keeps the admin apart as well: the admin is one more user, not a window on the others", async () => {
    expect((await call(server.adminToken, "GET", `/api/threads/${aliceThread}`)).status).toBe(404);
    expect((await (await call(server.adminToken, "POST", "/api/threads/search", {})).json()) as unknown[]).toEqual([]);
  });

  it("keeps each user's rows under their own owner id in the database", async () => {
    const owners = await server.db.query<{ owner: string; rows: number }>(
      "SELECT owner, count(*)::int AS rows FROM fawn_rows GROUP BY owner",
    );
    const aliceId = (await server.server.users.byToken(alice))!.userId;
    const aliceRows = owners.find((row) => row.owner === aliceId)?.rows ?? 0;
    expect(aliceRows).toBeGreaterThan(0);
    // Alice's uploaded text sits in her rows only (values are V8-serialised, so the text is found as bytes).
    const holders = await server.db.query<{ owner: string }>(
      "SELECT DISTINCT owner FROM fawn_rows WHERE position($1::bytea in value) > 0",
      [new TextEncoder().encode("alice's secret notes")],
    );
    expect(holders.map((row) => row.owner)).toEqual([aliceId]);
  });
});
