// The remote workspace (src/gateway/remote/remote-workspace.ts) against REAL servers: a Fawn server in-process
// (startTestServer, the mock model) and `langgraphjs dev` serving Fawn's graph (langgraph-dev-harness.ts). Lists,
// creates, sends a message (its events in order, `end` last), reads the thread back, Stop, a second workspace joining
// the run, a presented file read back, uploads, the watch's notices, an unreachable server answered from what was
// kept, a refused token and a server that answers garbage.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteWorkspace } from "../../src/gateway/remote/remote-workspace.ts";
import type {
  ChangeNotice,
  GatewayApi,
  RunEvent,
  ServerFeatures,
  ServerKind,
  ServerSummary,
  WorkspaceGatewayApi,
} from "../../src/protocol/index.ts";
import { deerflowSession } from "../../src/gateway/remote/deerflow-session.ts";
import { fakeDeerflow } from "./deerflow-fake.ts";
import { startLangGraphDev, type LangGraphDev } from "./langgraph-dev-harness.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

const ALL: ServerFeatures = { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true };
const NONE: ServerFeatures = {
  fawn: false,
  uploads: false,
  artifacts: false,
  memory: false,
  skills: false,
  models: false,
};

/** This browser's Gateway, whose methods a test never reaches (a call throws, naming it). */
const local = new Proxy({} as GatewayApi, {
  get: (_target, domain) =>
    domain === "then"
      ? undefined
      : new Proxy(
          {},
          {
            get: (_inner, method) =>
              method === "then"
                ? undefined
                : () => {
                    throw new Error(`The test's local Gateway was asked for ${String(domain)}.${String(method)}.`);
                  },
          },
        ),
});

function summary(url: string, kind: ServerKind, features: ServerFeatures): ServerSummary {
  return { id: `s-${crypto.randomUUID()}`, name: "Test server", url, kind, features, added_at: Date.now() };
}

interface Opened {
  workspace: WorkspaceGatewayApi;
  notices: ChangeNotice[];
}

function open(
  server: ServerSummary,
  options: { token?: string; fetch?: typeof fetch; watchIntervalMs?: number } = {},
): Opened {
  const notices: ChangeNotice[] = [];
  const workspace = createRemoteWorkspace({
    server,
    local,
    notify: (notice) => notices.push(notice),
    watchIntervalMs: 0,
    ...options,
  });
  return { workspace, notices };
}

async function send(
  workspace: WorkspaceGatewayApi,
  threadId: string,
  text: string,
  during?: () => void,
  model?: string,
) {
  const events: RunEvent[] = [];
  const batches: number[] = [];
  await workspace.runs.streamBatched(
    {
      run_id: crypto.randomUUID(),
      thread_id: threadId,
      input: { messages: [{ type: "human", content: text }] },
      ...(model && { context: { model, endpoint: "server" } }),
    },
    (batch) => {
      batches.push(batch.length);
      events.push(...batch);
      during?.();
    },
  );
  return { events, batches };
}

function replyText(events: RunEvent[]): string {
  return events
    .flatMap((event) =>
      event.event === "messages" && event.data[0].type === "AIMessageChunk" ? [event.data[0].content] : [],
    )
    .join("");
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("Timed out waiting.");
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

const NOTE = JSON.stringify({
  description: "Write a note",
  path: "/mnt/user-data/outputs/note.md",
  content: "# Hello from the server\n",
});

describe("a Fawn server's workspace", () => {
  let fawn: TestServer;
  let server: ServerSummary;
  let token: string;

  beforeAll(async () => {
    fawn = await startTestServer();
    token = await fawn.addUser("alice");
    server = summary(fawn.url, "fawn", ALL);
  }, 60_000);
  afterAll(async () => {
    await fawn?.close();
  });

  it("creates a thread, streams a reply in order with end last, and reads it back; the list shows it", async () => {
    const { workspace, notices } = open(server, { token });
    const thread = await workspace.threads.create();
    expect(notices).toContainEqual({ type: "thread-changed", thread_id: thread.thread_id });
    const { events } = await send(workspace, thread.thread_id, "hello");
    expect(events[0]?.event).toBe("metadata");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(events.filter((event) => event.event === "end")).toHaveLength(1);
    expect(events.some((event) => event.event === "values")).toBe(true);
    expect(replyText(events).length).toBeGreaterThan(0);

    const detail = await workspace.threads.get(thread.thread_id);
    const messages = detail!.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
    expect(messages.map((message) => message.type)).toEqual(["human", "ai"]);
    expect(messages[0]!.content).toBe("hello");
    expect(notices.filter((notice) => notice.type === "thread-changed")).toHaveLength(2);
    const list = await workspace.threads.list();
    expect(list.map((item) => item.thread_id)).toContain(thread.thread_id);
    expect(await workspace.workspace.connection()).toEqual({ state: "online" });
  }, 60_000);

  it("reads back a file the agent wrote, uploads, lists and deletes a file, renames and pins", async () => {
    const { workspace } = open(server, { token });
    const thread = await workspace.threads.create();
    const { events } = await send(workspace, thread.thread_id, `call tool write_file ${NOTE}`);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const file = await workspace.threads.readFile(thread.thread_id, "/mnt/user-data/outputs/note.md");
    expect(new TextDecoder().decode(file.bytes)).toBe("# Hello from the server\n");
    expect(file.mime_type).toMatch(/markdown|text/);

    const uploaded = await workspace.threads.upload(thread.thread_id, [
      { name: "data.csv", bytes: new TextEncoder().encode("a,b\n1,2\n") },
    ]);
    expect(uploaded.files.map((item) => item.virtual_path)).toEqual(["/mnt/user-data/uploads/data.csv"]);
    expect((await workspace.threads.listUploads(thread.thread_id)).map((item) => item.filename)).toEqual(["data.csv"]);
    await workspace.threads.deleteUpload(thread.thread_id, "data.csv");
    expect(await workspace.threads.listUploads(thread.thread_id)).toEqual([]);

    expect((await workspace.threads.rename(thread.thread_id, "  A  note ")).title).toBe("A note");
    expect((await workspace.threads.pin(thread.thread_id, true)).pinned).toBe(true);
    expect((await workspace.threads.list())[0]).toMatchObject({ thread_id: thread.thread_id, pinned: true });
    await workspace.threads.delete(thread.thread_id);
    expect(await workspace.threads.get(thread.thread_id)).toBeUndefined();
  }, 60_000);

  it("reads and changes memory and skills, lists the server's models, and copies a thread out and back as .fawn", async () => {
    const { workspace, notices } = open(server, { token });
    const memory = await workspace.memory.addFact({ content: "Prefers tea", category: "preference" });
    expect(memory.facts.map((fact) => fact.content)).toContain("Prefers tea");
    expect(notices).toContainEqual({ type: "memory-changed" });
    expect((await workspace.memory.get()).facts).toHaveLength(memory.facts.length);
    expect(typeof (await workspace.memory.getSettings()).enabled).toBe("boolean");
    const skills = await workspace.skills.list();
    expect(skills.length).toBeGreaterThan(0);
    const skill = skills[0]!;
    expect((await workspace.skills.setEnabled(skill.name, !skill.enabled)).enabled).toBe(!skill.enabled);
    const models = await workspace.settings.getModels();
    expect(models.endpoints[0]?.models.length).toBeGreaterThan(0);
    expect(models.defaultModel).toEqual({ endpoint: "server", model: models.endpoints[0]!.models[0]!.id });
    await expect(workspace.settings.saveModels(models)).rejects.toThrow(/not available on Fawn server/);

    const thread = await workspace.threads.create();
    await send(workspace, thread.thread_id, "hello", undefined, models.endpoints[0]!.models[0]!.id);
    const exported = await workspace.bundles.export(thread.thread_id, "fawn");
    expect(exported.file_name).toMatch(/\.fawn$/);
    const copy = await workspace.bundles.import(new Uint8Array(await exported.blob.arrayBuffer()));
    expect(copy.thread_id).not.toBe(thread.thread_id);
    const copied = await workspace.threads.get(copy.thread_id);
    expect(copied!.entries.filter((entry) => entry.kind === "message")).toHaveLength(2);
  }, 60_000);

  it("stops a run (end interrupted) while a second workspace joins it from its first event", async () => {
    const first = open(server, { token });
    const second = open(server, { token });
    const thread = await first.workspace.threads.create();
    const runId = crypto.randomUUID();
    const sent: RunEvent[] = [];
    const running = first.workspace.runs.streamBatched(
      { run_id: runId, thread_id: thread.thread_id, input: { messages: [{ type: "human", content: "long" }] } },
      (batch) => void sent.push(...batch),
    );
    await until(() => sent.some((event) => event.event === "messages"));
    const joined: RunEvent[] = [];
    const joining = second.workspace.runs.join(thread.thread_id, (batch) => void joined.push(...batch));
    await until(() => joined.some((event) => event.event === "messages"));
    await first.workspace.runs.cancel(runId);
    await running;
    expect(await joining).toBe(true);
    expect(sent.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    expect(joined[0]?.event).toBe("metadata");
    expect(joined.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    // Joined from the start: the same reply's first words as the run's own stream.
    expect(replyText(joined).slice(0, 20)).toBe(replyText(sent).slice(0, 20));
    // Nothing runs now: a join answers false at once.
    expect(await second.workspace.runs.join(thread.thread_id, () => undefined)).toBe(false);
  }, 60_000);

  it("regenerates a reply and edits a message by the message's id, as the page asks", async () => {
    const { workspace } = open(server, { token });
    const thread = await workspace.threads.create();
    await send(workspace, thread.thread_id, "first words");
    const messages = async () =>
      (await workspace.threads.get(thread.thread_id))!.entries.flatMap((entry) =>
        entry.kind === "message" ? [entry.message] : [],
      );
    const human = (await messages())[0]!;
    const regenerated: RunEvent[] = [];
    await workspace.runs.streamBatched(
      {
        run_id: crypto.randomUUID(),
        thread_id: thread.thread_id,
        input: { messages: [] },
        branch: { kind: "regenerate", message_id: human.id },
      },
      (batch) => void regenerated.push(...batch),
    );
    expect(regenerated.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect((await messages()).map((message) => message.type)).toEqual(["human", "ai"]);
    const edited: RunEvent[] = [];
    await workspace.runs.streamBatched(
      {
        run_id: crypto.randomUUID(),
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: "second words" }] },
        branch: { kind: "edit", message_id: human.id },
      },
      (batch) => void edited.push(...batch),
    );
    expect(edited.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const after = await messages();
    expect(after.map((message) => message.type)).toEqual(["human", "ai"]);
    expect(after[0]!.content).toBe("second words");
  }, 60_000);

  it("posts notices for another device's threads while it watches", async () => {
    const watching = open(server, { token, watchIntervalMs: 100 });
    const other = open(server, { token });
    await new Promise((wake) => setTimeout(wake, 400));
    const thread = await other.workspace.threads.create();
    await until(() =>
      watching.notices.some((notice) => "thread_id" in notice && notice.thread_id === thread.thread_id),
    );
    await other.workspace.threads.delete(thread.thread_id);
    await until(() =>
      watching.notices.some((notice) => notice.type === "thread-deleted" && notice.thread_id === thread.thread_id),
    );
    await watching.workspace.workspace.close();
  }, 30_000);

  it("answers reads from what it kept when the server is unreachable, and says so", async () => {
    let down = false;
    const flaky: typeof fetch = (input, init) =>
      down ? Promise.reject(new TypeError("fetch failed")) : globalThis.fetch(input, init);
    const { workspace } = open(server, { token, fetch: flaky });
    const thread = await workspace.threads.create();
    const list = await workspace.threads.list();
    const detail = await workspace.threads.get(thread.thread_id);
    down = true;
    expect(await workspace.threads.list()).toEqual(list);
    expect(await workspace.threads.get(thread.thread_id)).toEqual(detail);
    const host = new URL(fawn.url).host;
    expect(await workspace.workspace.connection()).toEqual({
      state: "offline",
      sentence: `${host} is unreachable: showing what this browser kept.`,
    });
    await expect(workspace.threads.create()).rejects.toThrow(`${host} is unreachable`);
    down = false;
    await workspace.threads.list();
    expect(await workspace.workspace.connection()).toEqual({ state: "online" });
  }, 30_000);

  it("says the token was refused, and never shows it", async () => {
    const { workspace } = open(server, { token: "fawn_wrong-token-0123456789" });
    const error = await workspace.threads.list().catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain("wrong-token");
    const connection = await workspace.workspace.connection();
    expect(connection.state).toBe("unauthorized");
    expect(JSON.stringify(connection)).not.toContain("wrong-token");
  });
});

describe("a server that answers garbage", () => {
  let garbage: Server;
  let url = "";
  beforeAll(async () => {
    garbage = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"threads": "<img src=x onerror=alert(1)>", "values": 12');
    });
    await new Promise<void>((done) => garbage.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => garbage.close(() => done())));

  for (const kind of ["fawn", "langgraph"] as const) {
    it(`is a clear sentence and a malformed connection, never a crash (${kind})`, async () => {
      const { workspace } = open(summary(url, kind, kind === "fawn" ? ALL : NONE), { watchIntervalMs: 50 });
      await new Promise((wake) => setTimeout(wake, 200));
      expect((await workspace.workspace.connection()).state).toBe("malformed");
      const error = await workspace.threads.list().catch((caught: Error) => caught);
      expect((error as Error).message).toMatch(/answered with something that is not/);
      const connection = await workspace.workspace.connection();
      expect(connection.state).toBe("malformed");
      await expect(workspace.threads.get("t1")).rejects.toThrow(/answered with something that is not/);
      await workspace.workspace.close();
    });
  }
});

describe("a DeerFlow deployment's workspace (the route contract's fake, through DeerFlow's session)", () => {
  it("creates, streams with end last, uploads and lists, and reads the models, skills and memory", async () => {
    const fake = fakeDeerflow({ session: "session-jwt" });
    const notices: ChangeNotice[] = [];
    const workspace = createRemoteWorkspace({
      server: summary("http://deerflow.test", "deerflow", { ...ALL, fawn: false }),
      token: "session-jwt",
      local,
      fetch: fake.fetch,
      kindFetch: deerflowSession(),
      notify: (notice) => notices.push(notice),
      watchIntervalMs: 0,
    });
    const thread = await workspace.threads.create();
    expect((await workspace.threads.list()).map((item) => item.thread_id)).toContain(thread.thread_id);
    const { events } = await send(workspace, thread.thread_id, "hi");
    expect(events[0]?.event).toBe("metadata");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    await workspace.threads.upload(thread.thread_id, [{ name: "a.txt", bytes: new Uint8Array([97]) }]);
    expect((await workspace.threads.listUploads(thread.thread_id)).map((file) => file.filename)).toEqual(["a.txt"]);
    expect((await workspace.settings.getModels()).endpoints[0]?.models.length).toBeGreaterThan(0);
    expect(Array.isArray(await workspace.skills.list())).toBe(true);
    expect(Array.isArray((await workspace.memory.get()).facts)).toBe(true);
    await expect(workspace.bundles.export(thread.thread_id, "fawn")).rejects.toThrow(
      "Exporting a thread is not available on DeerFlow (deerflow.test).",
    );
    expect(await workspace.workspace.connection()).toEqual({ state: "online" });
  });
});

describe("langgraphjs dev's workspace (Fawn's graph, no REST routes)", () => {
  let dev: LangGraphDev;
  let server: ServerSummary;

  beforeAll(async () => {
    dev = await startLangGraphDev();
    server = summary(dev.url, "langgraph", NONE);
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
  });

  it("creates, streams a reply with end last, reads it back, pins, renames, finds it by title and replays it", async () => {
    const { workspace } = open(server);
    const thread = await workspace.threads.create();
    const { events } = await send(workspace, thread.thread_id, "hello");
    expect(events[0]?.event).toBe("metadata");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(replyText(events).length).toBeGreaterThan(0);
    const detail = await workspace.threads.get(thread.thread_id);
    const types = detail!.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message.type] : []));
    expect(types).toEqual(["human", "ai"]);
    expect((await workspace.threads.pin(thread.thread_id, true)).pinned).toBe(true);
    expect((await workspace.threads.rename(thread.thread_id, "Greeting")).title).toBe("Greeting");
    const listed = (await workspace.threads.list()).find((item) => item.thread_id === thread.thread_id);
    expect(listed).toMatchObject({ title: "Greeting", pinned: true });
    expect((await workspace.threads.search("greet")).hits.map((hit) => hit.thread.thread_id)).toContain(
      thread.thread_id,
    );
    const replay = await workspace.threads.replay(thread.thread_id);
    expect(replay.steps.length).toBeGreaterThan(0);
  }, 90_000);

  it("stops a run, and joins a running one from another workspace", async () => {
    const first = open(server);
    const second = open(server);
    const thread = await first.workspace.threads.create();
    const runId = crypto.randomUUID();
    const sent: RunEvent[] = [];
    const running = first.workspace.runs.streamBatched(
      { run_id: runId, thread_id: thread.thread_id, input: { messages: [{ type: "human", content: "long" }] } },
      (batch) => void sent.push(...batch),
    );
    await until(() => sent.some((event) => event.event === "messages"));
    const joined: RunEvent[] = [];
    const joining = second.workspace.runs.join(thread.thread_id, (batch) => void joined.push(...batch));
    await until(() => joined.length > 0);
    await first.workspace.runs.cancel(runId);
    await running;
    expect(await joining).toBe(true);
    expect(sent.at(-1)?.event).toBe("end");
    expect(joined.at(-1)?.event).toBe("end");
  }, 90_000);

  it("says what a LangGraph server lacks, naming it", async () => {
    const { workspace } = open(server);
    const host = new URL(dev.url).host;
    await expect(workspace.threads.upload("t1", [{ name: "a.txt", bytes: new Uint8Array([97]) }])).rejects.toThrow(
      `Uploads are not available on langgraphjs dev (${host}).`,
    );
    await expect(workspace.memory.get()).rejects.toThrow(`Memory is not available on langgraphjs dev (${host}).`);
    await expect(workspace.bundles.export("t1", "fawn")).rejects.toThrow(/not available on langgraphjs dev/);
  });
});
