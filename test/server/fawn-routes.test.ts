// The remote workspace's FawnApiClient against the real server (server-harness.ts: real HTTP, auth, PGlite, the
// mock model): every Fawn route through the client, its answers validated; a user's routes see only their own
// threads; a refusal is the server's sentence; an answer that is not what the route gives is `malformed`.
import { Client } from "@langchain/langgraph-sdk";
import { request as httpRequest } from "node:http";
import { strToU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FawnApiClient, FawnApiError } from "../../src/gateway/remote/fawn-api-client.ts";
import { serverBases, serverFetch, type ServerFetch } from "../../src/gateway/remote/server-urls.ts";
import { deerFlowFixtures } from "../support/deerflow-fixtures.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

/** Where the app runs: the worker's fetch to the server is cross-origin. */
const APP_ORIGIN = "https://app.example.com";

let server: TestServer;
let ada: string;
let fawn: FawnApiClient;
let threadId: string;

/** The client as the remote workspace makes it: below the REST base of a Fawn server, with the user's token. */
function clientFor(token: string | undefined, prefix = ""): FawnApiClient {
  const base = `${serverBases(server.url, "fawn").rest!}${prefix}`;
  return new FawnApiClient(serverFetch(base, token), { serverName: "the test server" });
}

beforeAll(async () => {
  server = await startTestServer({ origins: [APP_ORIGIN] });
  ada = await server.addUser("Ada");
  fawn = clientFor(ada);
  const sdk = new Client({ apiUrl: server.apiUrl, apiKey: ada, callerOptions: { maxRetries: 0 } });
  threadId = (await sdk.threads.create()).thread_id;
  const form = new FormData();
  form.append("files", new File(["bees make honey\n"], "notes.txt"));
  const uploaded = await fetch(`${server.apiUrl}/threads/${threadId}/uploads`, {
    method: "POST",
    headers: { authorization: `Bearer ${ada}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  await sdk.runs.wait(threadId, "lead_agent", {
    input: { messages: [{ type: "human", content: "tell me about pollinators" }] },
  });
});
afterAll(async () => {
  await server?.close();
});

describe("FawnApiClient against the server", () => {
  it("lists, gets, searches and replays the user's threads", async () => {
    const listed = await fawn.listThreads();
    expect(listed.map((thread) => thread.thread_id)).toEqual([threadId]);
    const detail = await fawn.getThread(threadId);
    expect(detail?.entries.map((entry) => entry.kind === "message" && entry.message.type)).toEqual(["human", "ai"]);
    expect(await fawn.getThread("no-such-thread")).toBeUndefined();

    const found = await fawn.searchThreads("pollinators", { limit: 10 });
    expect([found.total, found.hits[0]?.thread.thread_id]).toEqual([1, threadId]);
    const replay = await fawn.replay(threadId);
    expect(replay.steps.length).toBeGreaterThan(0);
    expect(replay.messages.map((message) => message.type)).toContain("ai");
  });

  it("renames, pins and reads a file with its stored type, under both prefixes", async () => {
    expect((await fawn.updateThread(threadId, { title: "Bees" })).title).toBe("Bees");
    const renamed = await fawn.updateThread(threadId, { pinned: true });
    expect([renamed.title, renamed.pinned]).toEqual(["Bees", true]);
    expect((await clientFor(ada, "/langgraph").getThread(threadId))?.title).toBe("Bees");
    await expect(fawn.updateThread(threadId, { title: " " })).rejects.toThrow(
      new FawnApiError("A thread title is 1 to 200 characters.", 422),
    );
    await expect(fawn.updateThread(threadId, { memory: true })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^This thread holds no one else's messages/),
    });
    expect((await fawn.getThread(threadId))?.title).toBe("Bees");

    const file = await fawn.readFile(threadId, "/mnt/user-data/uploads/notes.txt");
    expect(new TextDecoder().decode(file.bytes)).toBe("bees make honey\n");
    expect(file.mime_type).toMatch(/^text\/plain/);
    await expect(fawn.readFile(threadId, "/etc/passwd")).rejects.toMatchObject({ status: 400 });
  });

  it("lets the app's origin send a PATCH and read a file's stored type across origins", async () => {
    const preflight = await server.request(`/api/fawn/threads/${threadId}`, {
      method: "OPTIONS",
      token: null,
      headers: {
        origin: APP_ORIGIN,
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/PATCH/);
    const path = encodeURIComponent("/mnt/user-data/uploads/notes.txt");
    const file = await server.request(`/api/fawn/threads/${threadId}/files?path=${path}`, {
      token: ada,
      headers: { origin: APP_ORIGIN },
    });
    expect(file.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(file.headers.get("access-control-expose-headers")).toMatch(/X-Fawn-Mime-Type/i);
    await file.body?.cancel();
  });

  it("exports a .fawn, imports it whole as a new thread, continues it; a damaged bundle writes nothing", async () => {
    const exported = await fawn.exportThread(threadId);
    expect(exported.file_name).toBe("Bees.fawn");
    const bytes = new Uint8Array(await exported.blob.arrayBuffer());
    expect(Object.keys(unzipSync(bytes)).length).toBeGreaterThan(1);

    const before = (await fawn.listThreads()).length;
    const damaged = fawn.importThread(bytes.slice(0, 200));
    await expect(damaged).rejects.toBeInstanceOf(FawnApiError);
    await expect(damaged).rejects.toMatchObject({ malformed: false });
    await expect(fawn.importThread(strToU8("garbage"))).rejects.toMatchObject({ status: 422 });
    expect((await fawn.listThreads()).length).toBe(before);

    const imported = await fawn.importThread(exported.blob);
    expect(imported).toMatchObject({ title: "Bees", read_only: true });
    const copied = await fawn.readFile(imported.thread_id, "/mnt/user-data/uploads/notes.txt");
    expect(new TextDecoder().decode(copied.bytes)).toBe("bees make honey\n");
    const continued = await fawn.continueThread(imported.thread_id);
    expect(continued.read_only).toBeUndefined();
    expect((await fawn.listThreads()).length).toBe(before + 2);

    const markdown = await fawn.exportThread(threadId, "markdown");
    expect(markdown.file_name).toBe("Bees.md");
    expect(await markdown.blob.text()).toContain("pollinators");
  });

  it("imports a DeerFlow thread with its files; a bad path refuses the whole import", async () => {
    const fixture = deerFlowFixtures().find((candidate) => candidate.files.length > 0)!;
    const before = (await fawn.listThreads()).length;
    const escaping = [...fixture.files, { path: "user-data/../../etc/passwd", bytes: strToU8("x") }];
    await expect(fawn.importDeerFlow({ thread: fixture.thread, files: escaping })).rejects.toMatchObject({
      status: 422,
    });
    expect((await fawn.listThreads()).length).toBe(before);

    const imported = await fawn.importDeerFlow({ thread: fixture.thread, files: fixture.files });
    expect(imported.title).toBe(fixture.thread.values.title);
    const [first] = fixture.files;
    const read = await fawn.readFile(imported.thread_id, `/mnt/${first!.path}`);
    expect(Buffer.from(read.bytes).equals(Buffer.from(first!.bytes))).toBe(true);
    expect((await fawn.getThread(imported.thread_id))?.entries.length).toBeGreaterThan(0);
  });

  it("shows a version, counts the context, compacts and makes a share link", async () => {
    const sdk = new Client({ apiUrl: server.apiUrl, apiKey: ada, callerOptions: { maxRetries: 0 } });
    const [run] = await sdk.runs.list(threadId);
    await fawn.showVersion(threadId, run!.run_id);
    await expect(fawn.showVersion(threadId, "no-such-run")).rejects.toThrow("That version has no saved steps to show.");

    const usage = await fawn.contextUsage(threadId, { model: "mock-model" });
    expect(usage.tokens).toBeGreaterThan(0);
    expect(usage.window).toBeGreaterThan(usage.tokens);
    const compaction = await fawn.compact(threadId);
    expect(compaction).toMatchObject({ compacted: false, folded: 0 });
    expect(await fawn.shareLink(threadId)).toEqual({ data: expect.any(String) });
  });

  it("sees only the user's own threads, and names a refused token", async () => {
    const grace = clientFor(await server.addUser("Grace"));
    expect(await grace.listThreads()).toEqual([]);
    expect(await grace.getThread(threadId)).toBeUndefined();
    await expect(grace.exportThread(threadId)).rejects.toMatchObject({ status: 404 });
    await expect(grace.updateThread(threadId, { title: "Mine" })).rejects.toMatchObject({ status: 404 });
    expect((await fawn.getThread(threadId))?.title).toBe("Bees");

    const stranger = clientFor("fawn_not-a-token");
    await expect(stranger.listThreads()).rejects.toThrow(
      new FawnApiError("This token is not valid on this server.", 401),
    );
  });
});

/** Every stored row of `token`'s user, as one digest (test/server/bad-input.test.ts's check). */
async function rowsOf(token: string): Promise<string> {
  const owner = (await server.server.users.byToken(token))!.userId;
  const [row] = await server.db.query<{ rows: number; digest: string | null }>(
    `SELECT count(*)::int AS rows,
            md5(string_agg(store || encode(sort_key, 'hex') || encode(value, 'hex'), ',' ORDER BY store, sort_key))
              AS digest
       FROM fawn_rows WHERE owner = $1`,
    [owner],
  );
  return JSON.stringify(row);
}

describe("Fawn's routes refusing bad input over HTTP", () => {
  it("answers each with a 4xx sentence and leaves every stored row as it was", async () => {
    const send = (method: string, path: string, body?: BodyInit, type = "application/json") =>
      server.request(`/api/fawn${path}`, { method, token: ada, headers: { "content-type": type }, body: body ?? null });
    const before = await rowsOf(ada);
    const cases: [() => Promise<Response>, number][] = [
      [() => send("PATCH", `/threads/${threadId}`, "{"), 400],
      [() => send("PATCH", `/threads/${threadId}`, JSON.stringify({ title: "x".repeat(201) })), 422],
      [() => send("PATCH", `/threads/${threadId}`, JSON.stringify({ title: "New", pinned: false })), 422],
      [() => send("PATCH", `/threads/${threadId}`, JSON.stringify([1, 2])), 422],
      [() => send("POST", "/threads/search", JSON.stringify({ query: 5 })), 422],
      [() => send("POST", "/threads/import", new Uint8Array(), "application/vnd.fawn.thread+zip"), 400],
      [
        () => send("POST", "/threads/import", strToU8("PK\u0003\u0004 not really"), "application/vnd.fawn.thread+zip"),
        422,
      ],
      [() => send("POST", "/threads/import-deerflow", JSON.stringify({ thread: {} })), 415],
      [() => send("POST", `/threads/${threadId}/versions`, JSON.stringify({ run_id: "" })), 422],
      [() => send("POST", `/threads/${threadId}/versions`, JSON.stringify({ run_id: "none" })), 422],
      [
        () => send("GET", `/threads/${threadId}/files?path=${encodeURIComponent("/mnt/user-data/../../etc/passwd")}`),
        400,
      ],
      [() => send("GET", `/threads/${threadId}/export?format=exe`), 422],
      [() => send("POST", "/threads/no-such-thread/continue"), 404],
      [() => send("DELETE", `/threads/${threadId}`), 405],
    ];
    for (const [response, status] of cases) {
      const answer = await response();
      const body = (await answer.json()) as { detail: string };
      expect([answer.status, body.detail]).toEqual([status, expect.stringMatching(/^\S/)]);
    }
    expect(await rowsOf(ada)).toBe(before);
  });
});

describe("A .fawn past the server's body limit", () => {
  it("is refused by its declared length with one sentence, before a byte is read or anything written", async () => {
    const before = await rowsOf(ada);
    // 100 MB of uploads plus 1 MB of framing: the most a file route takes at the default limit (16 MB for JSON).
    const limit = 101 * 1024 * 1024;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(new URL("/api/fawn/threads/import", server.url), {
        method: "POST",
        headers: {
          authorization: `Bearer ${ada}`,
          "content-type": "application/vnd.fawn.thread+zip",
          "content-length": String(limit + 1),
        },
      });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      request.on("error", reject);
      request.flushHeaders();
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      413,
      { detail: "The request body is larger than this server takes (101 MB)." },
    ]);
    expect(await rowsOf(ada)).toBe(before);
  });
});

describe("FawnApiClient reading what a server should not answer", () => {
  /** A server whose every answer is `response()`. */
  const answering = (response: () => Response) =>
    new FawnApiClient((async () => response()) as ServerFetch, { serverName: "garbage.example" });

  it("calls an answer that is not the route's malformed, naming the server, and never returns it", async () => {
    const cases: [() => Response, (client: FawnApiClient) => Promise<unknown>][] = [
      [() => new Response("<html>hi</html>"), (client) => client.listThreads()],
      [() => Response.json([{ thread_id: 5 }]), (client) => client.listThreads()],
      [() => Response.json({ thread_id: "t", title: "x" }), (client) => client.getThread("t")],
      [
        () =>
          Response.json({
            thread_id: "t",
            title: "x",
            created_at: 1,
            updated_at: 1,
            status: "idle",
            entries: [{ kind: "message", message: { type: "ai", id: "a", content: { html: "<b>" } } }],
          }),
        (client) => client.getThread("t"),
      ],
      [() => Response.json({ query: "q", hits: "all" }), (client) => client.searchThreads("q")],
      [() => Response.json({ tokens: -1, window: 10 }), (client) => client.contextUsage("t")],
      [() => Response.json({ detail: "ok" }), (client) => client.exportThread("t")],
    ];
    for (const [response, call] of cases) {
      const failure = await call(answering(response)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(FawnApiError);
      expect(failure).toMatchObject({ malformed: true, message: expect.stringMatching(/^garbage\.example answered/) });
    }
  });

  it("makes the workspace's own error for a malformed answer when given a maker", async () => {
    const seen: string[] = [];
    const client = new FawnApiClient((async () => new Response("not json")) as ServerFetch, {
      malformed: (what) => {
        seen.push(what);
        return new Error(`bad ${what}`);
      },
    });
    await expect(client.replay("t")).rejects.toThrow("bad a thread's replay");
    expect(seen).toEqual(["a thread's replay"]);
  });

  it("drops fields a thread does not have, and cuts a long refusal", async () => {
    const thread = {
      thread_id: "t",
      title: "x",
      created_at: 1,
      updated_at: 2,
      status: "idle",
      entries: [],
      script: "<script>alert(1)</script>",
    };
    const read = await answering(() => Response.json(thread)).getThread("t");
    expect(read).not.toHaveProperty("script");
    const refusal = answering(() => Response.json({ detail: "x".repeat(5000) }, { status: 409 })).listThreads();
    await expect(refusal).rejects.toMatchObject({ status: 409, userFacing: "conflict", message: "x".repeat(500) });
    const bare = answering(() => new Response("oops", { status: 502 })).listThreads();
    await expect(bare).rejects.toThrow("garbage.example refused the request (HTTP 502).");
  });
});
