// LangGraph's API on Fawn's server, driven over real HTTP: the whole SDK suite (sdk-suite.ts) with LangGraph's own
// Client, then what only the server answers: SSE on the wire (ids, Content-Location, stream modes, a join from
// Last-Event-ID), the `/api/langgraph` prefix, refusals with one sentence, one user's threads and runs unseen by
// another, and cancels (on disconnect, a new run's `interrupt`, `rollback`).
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sdkSuite } from "./sdk-suite.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const clientFor = (token: string, prefix = "/api") =>
  new Client({ apiUrl: `${server.url}${prefix}`, apiKey: token, callerOptions: { maxRetries: 0 } });
const admin = () => clientFor(server.adminToken);

sdkSuite({ name: "Fawn's server", parts: ["core", "assistants", "threads", "state", "runs"], client: admin });

interface Frame {
  event: string;
  data: unknown;
  id: string | undefined;
}

/** A response's SSE frames. */
async function framesOf(response: Response): Promise<Frame[]> {
  const body = await response.text();
  return body
    .split("\n\n")
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1] ?? "",
      data: JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null") as unknown,
      id: /^id: (.*)$/m.exec(frame)?.[1],
    }));
}

const call = (path: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set("authorization", `Bearer ${token ?? server.adminToken}`);
  if (rest.body !== undefined) headers.set("content-type", "application/json");
  return fetch(`${server.url}/api${path}`, { ...rest, headers });
};
const post = (path: string, body: unknown, token?: string) =>
  call(path, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), ...(token && { token }) });
const human = (content: string) => ({ messages: [{ type: "human", content }] });

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}.`);
}

describe("LangGraph's API on the wire", () => {
  it("streams SSE frames with event, data and increasing ids, the run's place in Content-Location, and no end", async () => {
    const thread = await admin().threads.create();
    const response = await post(`/threads/${thread.thread_id}/runs/stream`, {
      assistant_id: "lead_agent",
      input: human("frames please"),
      stream_mode: ["updates", "values"],
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const location = response.headers.get("content-location") ?? "";
    expect(location).toMatch(new RegExp(`^/threads/${thread.thread_id}/runs/[0-9a-f-]{36}$`));
    const frames = await framesOf(response);
    expect(frames[0]).toMatchObject({ event: "metadata", data: { run_id: location.split("/").at(-1) } });
    const kinds = new Set(frames.map((frame) => frame.event));
    expect([...kinds].sort()).toEqual(["metadata", "updates", "values"]);
    const ids = frames.map((frame) => Number(frame.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);

    // A join from the first values frame's id, asking only for values, gets the values after it.
    const runId = location.split("/").at(-1)!;
    const values = frames.filter((frame) => frame.event === "values");
    const joined = await framesOf(
      await call(`/threads/${thread.thread_id}/runs/${runId}/stream?stream_mode=values`, {
        headers: { "last-event-id": values[0]!.id! },
      }),
    );
    expect(joined.map((frame) => frame.id)).toEqual(values.slice(1).map((frame) => frame.id));
  });

  it("streams custom events when asked for them alone: an Ultra run's subagents as they start and end", async () => {
    const thread = await admin().threads.create();
    const frames = await framesOf(
      await post(`/threads/${thread.thread_id}/runs/stream`, {
        assistant_id: "lead_agent",
        input: human("fan out"),
        context: { subagent_enabled: true },
        stream_mode: ["custom"],
      }),
    );
    expect(new Set(frames.map((frame) => frame.event))).toEqual(new Set(["metadata", "custom"]));
    const started = frames.filter((frame) => (frame.data as { type?: string }).type === "task_started");
    expect(started.map((frame) => (frame.data as { description: string }).description).sort()).toEqual([
      "Count the apples",
      "Count the pears",
      "Count the plums",
    ]);
  });

  it("answers under /api/langgraph as under /api (DeerFlow's frontend prefix)", async () => {
    const client = clientFor(server.adminToken, "/api/langgraph");
    expect((await client.assistants.search({ graphId: "lead_agent" })).map((found) => found.name)).toEqual([
      "lead_agent",
    ]);
    const thread = await client.threads.create({ metadata: { via: "deerflow" } });
    expect((await admin().threads.get(thread.thread_id)).metadata).toMatchObject({ via: "deerflow" });
    const values = await client.runs.wait(thread.thread_id, "lead_agent", { input: human("through the prefix") });
    expect(JSON.stringify(values)).toContain("You said: through the prefix");
  });

  it("refuses what it cannot do with a status and one sentence", async () => {
    const thread = await admin().threads.create();
    const runs = `/threads/${thread.thread_id}/runs`;
    const refusals: [Response, number][] = [
      [await post(runs, { assistant_id: "someone_else", input: human("x") }), 404],
      [await post(runs, { assistant_id: "lead_agent", input: human("x"), stream_mode: ["everything"] }), 422],
      [await post(runs, { assistant_id: "lead_agent", input: { messages: [] } }), 422],
      [await post(runs, { assistant_id: "lead_agent", command: { goto: "tools" } }), 422],
      [await post(runs, "{not json"), 400],
      [await post(`/threads/${crypto.randomUUID()}/runs`, { assistant_id: "lead_agent", input: human("x") }), 404],
      [await call(`${runs}/${crypto.randomUUID()}`), 404],
      [await post(`/threads/search`, { limit: 0 }), 422],
      [await post(`/threads`, { if_exists: "sometimes" }), 422],
    ];
    for (const [response, status] of refusals) {
      expect(response.status).toBe(status);
      const { detail } = (await response.json()) as { detail: string };
      expect(detail).toMatch(/^\S.*[.]$/);
    }
    expect(await admin().runs.list(thread.thread_id)).toEqual([]);
  });

  it("runs on a thread it creates when the run says if_not_exists: create", async () => {
    const threadId = crypto.randomUUID();
    const values = await admin().runs.wait(threadId, "lead_agent", {
      input: human("make the thread"),
      ifNotExists: "create",
    });
    expect(JSON.stringify(values)).toContain("You said: make the thread");
    expect((await admin().threads.get(threadId)).thread_id).toBe(threadId);
  });

  it("runs without a thread on a temporary one, deleted once the run ended unless kept", async () => {
    const before = (await admin().threads.search({ limit: 1000 })).length;
    const values = await admin().runs.wait(null, "lead_agent", { input: human("no thread needed") });
    expect(JSON.stringify(values)).toContain("You said: no thread needed");

    let runId = "";
    const events: string[] = [];
    for await (const part of admin().runs.stream(null, "lead_agent", {
      input: human("stream without a thread"),
      onRunCreated: (created) => (runId = created.run_id),
    })) {
      events.push(part.event);
    }
    expect(events).toEqual(expect.arrayContaining(["metadata", "values"]));
    const replay: string[] = [];
    for await (const part of admin().runs.joinStream(null, runId, { lastEventId: "-1" })) replay.push(part.event);
    expect(replay).toEqual(events);
    await until(async () => (await admin().threads.search({ limit: 1000 })).length === before, "the threads to go");

    // LangGraph's servers take `keep` or `delete` (the SDK's type names other words).
    const kept = await admin().runs.create(null, "lead_agent", {
      input: human("keep it"),
      onCompletion: "keep" as never,
    });
    expect(kept.thread_id).toEqual(expect.any(String));
    await admin().runs.join(kept.thread_id, kept.run_id);
    expect((await admin().threads.get(kept.thread_id)).thread_id).toBe(kept.thread_id);
  });

  it("keeps one user's threads and runs from another", async () => {
    const other = clientFor(await server.addUser("other-user"));
    const thread = await admin().threads.create({ metadata: { secret: "mine" } });
    const run = await admin().runs.create(thread.thread_id, "lead_agent", { input: human("private words") });
    await admin().runs.join(thread.thread_id, run.run_id);

    const status = async (call: Promise<unknown>) =>
      call.then(
        () => 200,
        (error: { status?: number }) => error.status,
      );
    expect(await status(other.threads.get(thread.thread_id))).toBe(404);
    expect(await status(other.threads.getState(thread.thread_id))).toBe(404);
    expect(await status(other.threads.getHistory(thread.thread_id))).toBe(404);
    expect(await status(other.runs.list(thread.thread_id))).toBe(404);
    expect(await status(other.runs.join(thread.thread_id, run.run_id))).toBe(404);
    expect(await status(other.threads.update(thread.thread_id, { metadata: { secret: "theirs" } }))).toBe(404);
    expect(await status(other.threads.delete(thread.thread_id))).toBe(404);
    expect(await other.threads.search({ metadata: { secret: "mine" } })).toEqual([]);

    // Their own thread of the same id is theirs alone.
    const theirs = await other.threads.create({ threadId: thread.thread_id });
    expect(theirs.metadata).toEqual({});
    expect((await admin().threads.get(thread.thread_id)).metadata).toMatchObject({ secret: "mine" });
    expect(await status(other.runs.get(thread.thread_id, run.run_id))).toBe(404);
  });

  it("cancels a streamed run when its client goes away, if the run asked for that", async () => {
    const thread = await admin().threads.create();
    const response = await post(`/threads/${thread.thread_id}/runs/stream`, {
      assistant_id: "lead_agent",
      input: human("long"),
      stream_mode: ["messages-tuple"],
      on_disconnect: "cancel",
    });
    const runId = (response.headers.get("content-location") ?? "").split("/").at(-1)!;
    const reader = response.body!.getReader();
    let seen = "";
    while (!seen.includes("event: messages")) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    await until(
      async () => (await admin().runs.get(thread.thread_id, runId)).status === "interrupted",
      "the run to end interrupted",
    );
  });

  it("interrupts a thread's run for a new one that asks so, and rolls a cancelled run back", async () => {
    const thread = await admin().threads.create();
    await admin().runs.wait(thread.thread_id, "lead_agent", { input: human("the first turn") });

    const long = await admin().runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    await until(async () => (await admin().runs.get(thread.thread_id, long.run_id)).status === "running", "a start");
    const next = await admin().runs.create(thread.thread_id, "lead_agent", {
      input: human("the third turn"),
      multitaskStrategy: "interrupt",
    });
    await admin().runs.join(thread.thread_id, next.run_id);
    expect((await admin().runs.get(thread.thread_id, long.run_id)).status).toBe("interrupted");
    expect((await admin().runs.get(thread.thread_id, next.run_id)).status).toBe("success");

    const rolled = await admin().runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    await until(async () => (await admin().runs.get(thread.thread_id, rolled.run_id)).status === "running", "a start");
    await admin().runs.cancel(thread.thread_id, rolled.run_id, true, "rollback");
    const state = await admin().threads.getState(thread.thread_id);
    const texts = ((state.values as { messages: { content: string }[] }).messages ?? []).map((m) => m.content);
    // The interrupted run's turn stays (interrupt keeps what it saved); the rolled-back one is gone.
    expect(texts.filter((text) => text === "long")).toHaveLength(1);
    expect(texts.at(-1)).toContain("You said: the third turn");
  });

  it("renames a thread through a state update of its title (DeerFlow's rename), and refuses an update that does not fit", async () => {
    const thread = await admin().threads.create();
    await admin().runs.wait(thread.thread_id, "lead_agent", { input: human("a thread to rename") });
    await admin().threads.updateState(thread.thread_id, { values: { title: "Renamed by hand" } });
    expect((await admin().threads.getState(thread.thread_id)).values).toMatchObject({ title: "Renamed by hand" });
    const [found] = await admin().threads.search({ ids: [thread.thread_id] });
    expect(found?.values).toMatchObject({ title: "Renamed by hand" });

    const before = await admin().threads.getState(thread.thread_id);
    const refusals = [
      await post(`/threads/${thread.thread_id}/state`, { values: { messages: 42 } }),
      await post(`/threads/${thread.thread_id}/state`, { values: { messages: [] }, as_node: "no_such_node" }),
      await post(`/threads/${thread.thread_id}/state`, { values: { title: " " } }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/^\S.*[.]$/);
    }
    expect((await admin().threads.getState(thread.thread_id)).checkpoint).toEqual(before.checkpoint);
  });

  it("answers history by GET with limit and before, and refuses to delete a busy thread", async () => {
    const thread = await admin().threads.create();
    await admin().runs.wait(thread.thread_id, "lead_agent", { input: human("some history") });
    const page = (await (await call(`/threads/${thread.thread_id}/history?limit=2`)).json()) as {
      checkpoint: { checkpoint_id: string };
    }[];
    expect(page).toHaveLength(2);
    const before = (await (
      await call(`/threads/${thread.thread_id}/history?limit=1&before=${page[0]!.checkpoint.checkpoint_id}`)
    ).json()) as { checkpoint: { checkpoint_id: string } }[];
    expect(before[0]!.checkpoint.checkpoint_id).toBe(page[1]!.checkpoint.checkpoint_id);

    const long = await admin().runs.create(thread.thread_id, "lead_agent", { input: human("long") });
    expect((await call(`/threads/${thread.thread_id}`, { method: "DELETE" })).status).toBe(409);
    expect((await admin().threads.get(thread.thread_id)).status).toBe("busy");
    await admin().runs.cancel(thread.thread_id, long.run_id, true);
    expect((await call(`/threads/${thread.thread_id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/threads/${thread.thread_id}/runs/${long.run_id}`)).status).toBe(404);
  });
});

describe("what real clients read", () => {
  it("lists threads with their messages, as agent-chat-ui names each by its first message", async () => {
    const thread = await admin().threads.create({ metadata: { listed: "yes" } });
    await admin().runs.wait(thread.thread_id, "lead_agent", { input: human("hello there") });
    const [listed] = await admin().threads.search({ metadata: { listed: "yes" } });
    const messages = (listed!.values as { messages: { type: string; content: unknown }[] }).messages;
    expect(messages[0]).toMatchObject({ type: "human", content: "hello there" });
    expect(messages.at(-1)?.type).toBe("ai");
    const [selected] = await admin().threads.search({ metadata: { listed: "yes" }, select: ["thread_id", "status"] });
    expect(selected).toEqual({ thread_id: thread.thread_id, status: "idle" });
  });

  it("leaves the connection header to Node, so a client that asked to close does not reuse the socket", async () => {
    const thread = await admin().threads.create();
    const response = await call(`/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { connection: "close" },
      body: JSON.stringify({ assistant_id: "lead_agent", input: human("hello") }),
    });
    expect(response.headers.get("connection")).not.toBe("keep-alive");
    await response.text();
  });
});
