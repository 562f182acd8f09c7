// Fawn's own routes (`/api/fawn/…`) in-process over a Gateway in memory, with the mock model for a real run: each
// route answers what its Gateway method answers, and bad input gets a 4xx with one sentence and writes nothing.
import { strToU8, unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../../../test/mock-llm/server.ts";
import {
  FAWN_MIME_TYPE_HEADER,
  THREAD_BUNDLE_MIME,
  type ThreadDetail,
  type ThreadSummary,
} from "../../protocol/index.ts";
import { memoryStorage } from "../../storage/index.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";

let mock: MockLlm;
let gateway: Gateway;
let handle: (request: Request) => Promise<Response>;
let threadId: string;

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});
afterAll(async () => {
  await mock.close();
});

beforeEach(async () => {
  gateway = createGateway(memoryStorage(), { notify: () => undefined });
  await gateway.settings.saveModels({
    endpoints: [{ id: "main", name: "Mock", baseUrl: mock.url, apiKey: "sk-test", models: [{ id: "mock-model" }] }],
    defaultModel: { endpoint: "main", model: "mock-model" },
  });
  handle = createGatewayFetch(gateway);
  threadId = (await gateway.threads.create()).thread_id;
  await gateway.threads.upload(threadId, [{ name: "notes.txt", bytes: strToU8("bees make honey\n") }]);
  await gateway.runs.stream(
    {
      run_id: crypto.randomUUID(),
      thread_id: threadId,
      input: { messages: [{ type: "human", content: "tell me about pollinators" }] },
    },
    () => undefined,
  );
});

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, headers };
  if (body instanceof Uint8Array) init.body = body.slice();
  else if (typeof body === "string") init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json", ...headers };
  }
  return handle(new Request(`http://fawn.local/api${path}`, init));
}

async function answer<T>(response: Promise<Response>, status = 200): Promise<T> {
  const settled = await response;
  const body: unknown = settled.headers.get("content-type")?.includes("json") ? await settled.json() : undefined;
  expect([settled.status, body]).toEqual([status, expect.anything()]);
  return body as T;
}

const threadCount = async () => (await gateway.threads.list()).length;

describe("Fawn's own routes", () => {
  it("answer the thread list and a thread as threads.list and threads.get do", async () => {
    await gateway.threads.pin(threadId, true);
    expect(await answer<ThreadSummary[]>(call("GET", "/fawn/threads"))).toEqual(await gateway.threads.list());
    const detail = await answer<ThreadDetail>(call("GET", `/fawn/threads/${threadId}`));
    expect(detail).toEqual(JSON.parse(JSON.stringify(await gateway.threads.get(threadId))));
    expect(detail.pinned).toBe(true);
    expect(detail.entries.map((entry) => entry.kind === "message" && entry.message.type)).toEqual(["human", "ai"]);
    const missing = await call("GET", "/fawn/threads/nope");
    expect([missing.status, await missing.json()]).toEqual([404, { detail: "Thread nope not found." }]);
  });

  it("search, replay and context use", async () => {
    const found = await answer<{ hits: { thread: ThreadSummary }[]; total: number }>(
      call("POST", "/fawn/threads/search", { query: "pollinators" }),
    );
    expect([found.total, found.hits[0]?.thread.thread_id]).toEqual([1, threadId]);
    const none = await answer<{ total: number }>(call("POST", "/fawn/threads/search", { query: "zebra", limit: 5 }));
    expect(none.total).toBe(0);
    const bad = await call("POST", "/fawn/threads/search", { query: "x", limit: 0 });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^limit: /);
    expect((await call("POST", "/fawn/threads/search", "{not json")).status).toBe(400);

    const replay = await answer<{ steps: unknown[]; messages: unknown[] }>(
      call("GET", `/fawn/threads/${threadId}/replay`),
    );
    expect(replay).toEqual(JSON.parse(JSON.stringify(await gateway.threads.replay(threadId))));
    expect(replay.steps.length).toBeGreaterThan(0);

    const usage = await answer<{ tokens: number; window: number }>(call("GET", `/fawn/threads/${threadId}/context`));
    expect(usage).toEqual(await gateway.context.usage(threadId));
    expect(usage.tokens).toBeGreaterThan(0);
    expect((await call("GET", `/fawn/threads/${threadId}/context?model=${"m".repeat(201)}`)).status).toBe(422);
  });

  it("rename, pin or memory, one per PATCH; bad input changes nothing", async () => {
    const renamed = await answer<ThreadSummary>(
      call("PATCH", `/fawn/threads/${threadId}`, { title: "  Bees   and flowers " }),
    );
    expect(renamed.title).toBe("Bees and flowers");
    expect(renamed).not.toHaveProperty("entries");
    const pinned = await answer<ThreadSummary>(call("PATCH", `/fawn/threads/${threadId}`, { pinned: true }));
    expect([pinned.title, pinned.pinned]).toEqual(["Bees and flowers", true]);

    const before = await gateway.threads.get(threadId);
    for (const [body, status, detail] of [
      [{ title: "  " }, 422, "A thread title is 1 to 200 characters."],
      [{ title: "x".repeat(201) }, 422, "A thread title is 1 to 200 characters."],
      [{}, 422, "body: Send one change at a time: title, pinned or memory."],
      // Two changes would be two writes: refused before either.
      [{ title: "Other", pinned: false }, 422, "body: Send one change at a time: title, pinned or memory."],
      [{ pinned: "yes" }, 422, expect.stringMatching(/^pinned: /)],
      [{ color: "red" }, 422, expect.stringMatching(/color/)],
      [{ memory: true }, 422, "This thread holds no one else's messages: it uses memory as Settings → Memory says."],
    ] as const) {
      const refused = await call("PATCH", `/fawn/threads/${threadId}`, body);
      expect([refused.status, await refused.json()]).toEqual([status, { detail }]);
    }
    expect(await gateway.threads.get(threadId)).toEqual(before);
    expect((await call("PATCH", "/fawn/threads/nope", { pinned: true })).status).toBe(404);
  });

  it("a file with its stored type, never as active content", async () => {
    const path = "/mnt/user-data/uploads/notes.txt";
    const file = await call("GET", `/fawn/threads/${threadId}/files?path=${encodeURIComponent(path)}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    expect(file.headers.get(FAWN_MIME_TYPE_HEADER)).toBe((await gateway.threads.readFile(threadId, path)).mime_type);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await file.text()).toBe("bees make honey\n");

    for (const [query, status] of [
      ["", 400],
      [`?path=${encodeURIComponent("/etc/passwd")}`, 400],
      [`?path=${encodeURIComponent("/mnt/user-data/uploads/../../../etc/passwd")}`, 400],
      [`?path=${encodeURIComponent("/mnt/user-data/outputs/none.md")}`, 404],
    ] as const) {
      expect((await call("GET", `/fawn/threads/${threadId}/files${query}`)).status).toBe(status);
    }
  });

  it("export a .fawn and import it whole as a new read-only thread; a bad bundle writes nothing", async () => {
    const exported = await call("GET", `/fawn/threads/${threadId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe(THREAD_BUNDLE_MIME);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.fawn"/);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    expect(Object.keys(unzipSync(bytes)).length).toBeGreaterThan(1);

    const markdown = await call("GET", `/fawn/threads/${threadId}/export?format=markdown`);
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await markdown.text()).toContain("pollinators");
    expect((await call("GET", `/fawn/threads/${threadId}/export?format=pdf`)).status).toBe(422);

    const count = await threadCount();
    for (const body of [new Uint8Array(), strToU8("not a zip"), bytes.slice(0, bytes.length / 2)]) {
      const refused = await call("POST", "/fawn/threads/import", body, { "content-type": THREAD_BUNDLE_MIME });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/\.$/);
    }
    expect(await threadCount()).toBe(count);

    const imported = await answer<ThreadSummary>(
      call("POST", "/fawn/threads/import", bytes, { "content-type": THREAD_BUNDLE_MIME }),
    );
    expect(imported.thread_id).not.toBe(threadId);
    expect(imported.read_only).toBe(true);
    expect(await threadCount()).toBe(count + 1);
    // `?own=1`: the user's own copy from another workspace stays writable; any other value is refused, nothing written.
    const bad = await call("POST", "/fawn/threads/import?own=yes", bytes, { "content-type": THREAD_BUNDLE_MIME });
    expect(bad.status).toBe(400);
    expect(await threadCount()).toBe(count + 1);
    const own = await answer<ThreadSummary>(
      call("POST", "/fawn/threads/import?own=1", bytes, { "content-type": THREAD_BUNDLE_MIME }),
    );
    expect(own.read_only).toBeUndefined();
    expect(await threadCount()).toBe(count + 2);
    const copy = await gateway.threads.readFile(imported.thread_id, "/mnt/user-data/uploads/notes.txt");
    expect(new TextDecoder().decode(copy.bytes)).toBe("bees make honey\n");

    const continued = await answer<ThreadSummary>(call("POST", `/fawn/threads/${imported.thread_id}/continue`));
    expect(continued.read_only).toBeUndefined();
    expect(await threadCount()).toBe(count + 3);
  });

  it("a DeerFlow import is multipart, checked whole: a bad part writes nothing", async () => {
    const thread = { values: { title: "From DeerFlow", messages: [{ type: "human", id: "m1", content: "hi" }] } };
    const form = (parts: [string, string | Blob][]) => {
      const body = new FormData();
      for (const [name, value] of parts) body.append(name, value);
      return handle(new Request("http://fawn.local/api/fawn/threads/import-deerflow", { method: "POST", body }));
    };
    const count = await threadCount();
    for (const [response, status] of [
      [call("POST", "/fawn/threads/import-deerflow", { thread }), 415],
      [form([["path", "user-data/outputs/a.md"]]), 422],
      [form([["thread", "{"]]), 422],
      [
        form([
          ["thread", JSON.stringify(thread)],
          ["path", "user-data/outputs/a.md"],
        ]),
        422,
      ],
      [
        form([
          ["thread", JSON.stringify(thread)],
          ["path", "../a.md"],
          ["file", new Blob(["x"])],
        ]),
        422,
      ],
      [form([["thread", JSON.stringify({ values: { messages: "none" } })]]), 422],
    ] as const) {
      const refused = await response;
      expect([refused.status, ((await refused.json()) as { detail: string }).detail]).toEqual([
        status,
        expect.stringMatching(/\.$/),
      ]);
    }
    expect(await threadCount()).toBe(count);

    const imported = await answer<ThreadSummary>(
      form([
        ["thread", JSON.stringify(thread)],
        ["path", "user-data/outputs/a.md"],
        ["file", new Blob(["# A"])],
      ]),
    );
    expect(imported.title).toBe("From DeerFlow");
    const file = await gateway.threads.readFile(imported.thread_id, "/mnt/user-data/outputs/a.md");
    expect(new TextDecoder().decode(file.bytes)).toBe("# A");
  });

  it("versions, compact and share link", async () => {
    const unknown = await call("POST", `/fawn/threads/${threadId}/versions`, { run_id: "no-such-run" });
    expect([unknown.status, await unknown.json()]).toEqual([
      422,
      { detail: "That version has no saved steps to show." },
    ]);
    expect((await call("POST", `/fawn/threads/${threadId}/versions`, {})).status).toBe(422);
    const [run] = await gateway.runs.list(threadId);
    const shown = await answer<ThreadDetail>(
      call("POST", `/fawn/threads/${threadId}/versions`, { run_id: run!.run_id }),
    );
    expect(shown.thread_id).toBe(threadId);

    const compaction = await answer<{ compacted: boolean; usage: { window: number } }>(
      call("POST", `/fawn/threads/${threadId}/compact`, {}),
    );
    expect(compaction.compacted).toBe(false);
    expect(compaction.usage.window).toBeGreaterThan(0);

    const link = await answer<{ data?: string }>(call("GET", `/fawn/threads/${threadId}/share-link`));
    expect(typeof link.data).toBe("string");
  });

  it("every thread route answers 404 for a thread that is not there, and 405 for another method", async () => {
    for (const [method, path] of [
      ["GET", "/fawn/threads/nope/replay"],
      ["GET", "/fawn/threads/nope/files?path=/mnt/user-data/outputs/a.md"],
      ["GET", "/fawn/threads/nope/export"],
      ["POST", "/fawn/threads/nope/continue"],
      ["GET", "/fawn/threads/nope/context"],
      ["POST", "/fawn/threads/nope/compact"],
      ["GET", "/fawn/threads/nope/share-link"],
    ] as const) {
      const response = await call(method, path);
      expect([path, response.status, await response.json()]).toEqual([path, 404, { detail: "Thread nope not found." }]);
    }
    expect((await call("POST", "/fawn/threads/nope/versions", { run_id: "r" })).status).toBe(404);
    expect((await call("DELETE", "/fawn/threads/search")).status).toBe(405);
    expect((await call("PUT", `/fawn/threads/${threadId}`)).status).toBe(405);
  });
});
