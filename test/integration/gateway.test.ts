// The Gateway end to end in Node: real agent, real IndexedDB schema (fake-indexeddb), the scripted mock model.
import { describe, expect, it, vi } from "vitest";
import { openGateway } from "../../src/gateway/index.ts";
import { IndexedDbCheckpointSaver, openFawnDb, ThreadRepository } from "../../src/storage/index.ts";
import type { RunEvent, ThreadEntry } from "../../src/protocol/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("gateway-test");

const run = (threadId: string, text: string, onEvent?: (event: RunEvent) => void): Promise<RunEvent[]> =>
  runThread(harness.gateway, threadId, text, onEvent);

function texts(entries: ThreadEntry[]): string[] {
  return entries.map((entry) =>
    entry.kind === "error" ? `error: ${entry.error.error}` : `${entry.message.type}: ${String(entry.message.content)}`,
  );
}

describe("gateway.runs.stream", () => {
  it("streams LangGraph's events, metadata first and end last, and saves the exchange", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await run(thread.thread_id, "hello");
    const names = events.map((event) => event.event);
    expect(names[0]).toBe("metadata");
    expect(names.at(-1)).toBe("end");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(names.filter((name) => name === "messages").length).toBeGreaterThan(5);
    expect(names).toContain("values");
    expect(names).toContain("updates");

    const streamed = events.flatMap((event) => (event.event === "messages" ? [event.data[0].content] : [])).join("");
    expect(streamed).toContain("Hello! I am Fawn's mock model.");

    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(detail?.title).toBe("hello");
    expect(detail?.status).toBe("idle");
    expect(texts(detail?.entries ?? [])).toEqual([
      "human: hello",
      "ai: Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.",
    ]);
  });

  it("sends the thread's history with the next message", async () => {
    const thread = await harness.gateway.threads.create();
    await run(thread.thread_id, "hello");
    await run(thread.thread_id, "and again");
    const last = harness.mock.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(last.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(texts(detail?.entries ?? []).at(-1)).toBe("ai: You said: and again");
  });

  it("reports a wrong API key clearly, saves the error, and the thread still works with the right key", async () => {
    const thread = await harness.gateway.threads.create();
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-wrong-key", model: "mock-model" }),
    );
    const events = await run(thread.thread_id, "hello");
    const error = events.find((event) => event.event === "error");
    expect(error?.data).toMatchObject({ error: "authentication" });
    expect(error?.event === "error" && error.data.message).toMatch(/API key/);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "error" } });

    const runs = await harness.gateway.runs.list(thread.thread_id);
    expect(runs).toEqual([
      expect.objectContaining({ status: "error", error: expect.objectContaining({ error: "authentication" }) }),
    ]);

    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
    );
    const retry = await run(thread.thread_id, "hello");
    expect(retry.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(texts(detail?.entries ?? [])).toEqual([
      "human: hello",
      "error: authentication",
      "human: hello",
      "ai: Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.",
    ]);
  });

  it("reports an unreachable endpoint with its address", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "", model: "mock-model" }),
    );
    const thread = await harness.gateway.threads.create();
    const events = await run(thread.thread_id, "hello");
    const error = events.find((event) => event.event === "error");
    expect(error?.data).toMatchObject({ error: "unreachable" });
    expect(error?.event === "error" && error.data.message).toContain("http://127.0.0.1:9/v1");
  });

  it("asks for a model when none is configured", async () => {
    const fresh = await harness.freshGateway();
    const thread = await fresh.threads.create();
    const events: RunEvent[] = [];
    await fresh.runs.stream(
      { run_id: "r", thread_id: thread.thread_id, input: { messages: [{ type: "human", content: "hi" }] } },
      (event) => events.push(event),
    );
    expect(events.map((event) => event.event)).toEqual(["metadata", "error", "end"]);
    expect(events[1]?.data).toMatchObject({ error: "not_configured" });
  });

  it("stops a long reply on cancel, keeps what was streamed, and the next message works", async () => {
    const thread = await harness.gateway.threads.create();
    let runId = "";
    let deltas = 0;
    const events = await run(thread.thread_id, "tell me something long", (event) => {
      if (event.event === "metadata") runId = event.data.run_id;
      if (event.event === "messages" && ++deltas === 5) void harness.gateway.runs.cancel(runId);
    });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    const stopped = (await harness.gateway.threads.get(thread.thread_id))?.entries.at(-1);
    expect(stopped).toMatchObject({ kind: "message", stopped: true, message: { type: "ai" } });
    expect(stopped?.kind === "message" && String(stopped.message.content).length).toBeGreaterThan(0);

    const next = await run(thread.thread_id, "hello");
    expect(next.at(-1)).toEqual({ event: "end", data: { status: "success" } });
  });

  it("refuses a second run on a thread that is running", async () => {
    const thread = await harness.gateway.threads.create();
    let runId = "";
    const first = run(thread.thread_id, "long please", (event) => {
      if (event.event === "metadata") runId = event.data.run_id;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await run(thread.thread_id, "hello");
    expect(second.find((event) => event.event === "error")?.data).toMatchObject({ error: "busy" });
    await harness.gateway.runs.cancel(runId);
    await first;
  });
});

describe("Gateway with threads from before checkpoints", () => {
  it("carries their stored messages and errors into the first checkpointed run", async () => {
    // A thread as store version 1 kept it: every message and error an entry.
    const dbName = "gateway-legacy-thread-test";
    const db = await openFawnDb(dbName);
    const threads = new ThreadRepository(db);
    const legacy = await threads.create({ title: "old" });
    await threads.append(legacy.thread_id, [
      { kind: "message", message: { type: "human", id: "h0", content: "first question" } },
      { kind: "error", id: "e0", error: { error: "server_error", message: "boom" }, at: 1 },
      { kind: "message", message: { type: "human", id: "h1", content: "again" } },
      { kind: "message", message: { type: "ai", id: "a1", content: "old answer" }, stopped: true },
    ]);
    db.close();
    const fresh = await openGateway(dbName);
    await fresh.settings.saveModels(modelSettings({ baseUrl: harness.mock.url, apiKey: "k", model: "mock-model" }));

    const events: RunEvent[] = [];
    await fresh.runs.stream(
      { run_id: "r", thread_id: legacy.thread_id, input: { messages: [{ type: "human", content: "and now" }] } },
      (event) => events.push(event),
    );
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const sent = harness.mock.requests.at(-1)?.body as { messages: { role: string }[] };
    expect(sent.messages.map((message) => message.role)).toEqual(["system", "user", "user", "assistant", "user"]);
    const detail = await fresh.threads.get(legacy.thread_id);
    expect(texts(detail?.entries ?? [])).toEqual([
      "human: first question",
      "error: server_error",
      "human: again",
      "ai: old answer",
      "human: and now",
      "ai: You said: and now",
    ]);
    expect(detail?.entries[3]).toMatchObject({ stopped: true });
  });
});

describe("Gateway when storage is full", () => {
  it("says so clearly, ends the run, and keeps the thread at its last saved step", async () => {
    const thread = await harness.gateway.threads.create();
    const put = IndexedDbCheckpointSaver.prototype.put;
    let calls = 0;
    const spy = vi.spyOn(IndexedDbCheckpointSaver.prototype, "put").mockImplementation(function (
      this: IndexedDbCheckpointSaver,
      ...args
    ) {
      // Checkpoints 1 and 2 hold the input and the user's message; the step with the reply hits the quota.
      if (++calls === 3) return Promise.reject(new DOMException("The quota has been exceeded.", "QuotaExceededError"));
      return put.apply(this, args);
    });
    try {
      const events = await run(thread.thread_id, "hello");
      const error = events.find((event) => event.event === "error");
      expect(error?.data).toMatchObject({ error: "storage_full" });
      expect(error?.event === "error" && error.data.message).toMatch(/storage for Fawn is full/);
      expect(events.at(-1)).toEqual({ event: "end", data: { status: "error" } });
    } finally {
      spy.mockRestore();
    }
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(texts(detail?.entries ?? [])).toEqual(["human: hello", "error: storage_full"]);
    // Once space is back, the thread works again.
    const retry = await run(thread.thread_id, "hello");
    expect(retry.at(-1)).toEqual({ event: "end", data: { status: "success" } });
  });
});

describe("Gateway settings and threads", () => {
  it("refuses an invalid Base URL with a clear message and keeps the saved settings", async () => {
    await expect(
      harness.gateway.settings.saveModels(modelSettings({ baseUrl: "ftp://x", apiKey: "", model: "m" })),
    ).rejects.toThrow(/http:\/\/ or https:\/\//);
    expect((await harness.gateway.settings.getModels()).endpoints[0]?.baseUrl).toBe(harness.mock.url);
  });

  it("keeps the API key in the secrets store, never in settings", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-very-secret", model: "m" }),
    );
    const db = await openFawnDb(harness.gatewayDbName());
    const settings = await db.getAll("settings");
    expect(JSON.stringify(settings)).not.toContain("sk-very-secret");
    expect((await db.getAll("secrets")).map((secret) => secret.value)).toEqual(["sk-very-secret"]);
    db.close();
    expect((await harness.gateway.settings.getModels()).endpoints[0]?.apiKey).toBe("sk-very-secret");
    // An empty key removes the stored one.
    await harness.gateway.settings.saveModels(modelSettings({ baseUrl: harness.mock.url, apiKey: "", model: "m" }));
    expect((await harness.gateway.settings.getModels()).endpoints[0]?.apiKey).toBe("");
  });

  it("normalizes the Base URL and lists the endpoint's models", async () => {
    const saved = await harness.gateway.settings.saveModels(
      modelSettings({
        baseUrl: ` ${harness.mock.url}/ `,
        apiKey: "k",
        model: " mock-model ",
      }),
    );
    expect(saved).toEqual({
      endpoints: [
        {
          id: "main",
          name: "Main endpoint",
          provider: "openai-compatible",
          baseUrl: harness.mock.url,
          apiKey: "k",
          models: [{ id: "mock-model" }],
        },
      ],
      defaultModel: { endpoint: "main", model: "mock-model" },
    });
    expect(await harness.gateway.settings.listModels({ baseUrl: harness.mock.url, apiKey: "k" })).toEqual([
      "mock-model",
      "mock-thinking",
      "mock-vision",
    ]);
  });

  it("deletes a thread with its history", async () => {
    const thread = await harness.gateway.threads.create();
    await run(thread.thread_id, "hello");
    await harness.gateway.threads.delete(thread.thread_id);
    expect(await harness.gateway.threads.get(thread.thread_id)).toBeUndefined();
    expect((await harness.gateway.threads.list()).map((t) => t.thread_id)).not.toContain(thread.thread_id);
  });
});
