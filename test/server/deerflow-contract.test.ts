// DeerFlow's route contract (deerflow-routes.ts, read from its backend) checked against what a DeerFlow workspace
// sends: LangGraph's SDK Client built as the remote workspace builds it, and the REST routes through `serverFetch`,
// both over `deerflowSession()`, at a fake deployment served from the table (deerflow-fake.ts) that refuses what
// DeerFlow refuses (unknown run fields, stream modes it lacks, a missing session cookie or CSRF pair). Runs in CI
// without DeerFlow.
import { Client } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";
import {
  DEERFLOW_CSRF_METHODS,
  DEERFLOW_ROUTES,
  DEERFLOW_RUN_FIELDS,
  DEERFLOW_STREAM_MODES,
  deerflowRefusal,
  deerflowRunBody,
  deerflowSession,
} from "../../src/gateway/remote/deerflow-session.ts";
import { RemoteContext } from "../../src/gateway/remote/remote-context.ts";
import { serverBases, serverFetch } from "../../src/gateway/remote/server-urls.ts";
import { STREAM_MODES as WORKSPACE_STREAM_MODES } from "../../src/gateway/runs/langgraph-stream-parts.ts";
import type { ServerSummary } from "../../src/protocol/index.ts";
import { fakeDeerflow, isPublic, type FakeDeerflow } from "./deerflow-fake.ts";
import { DEERFLOW_CONTRACT, FAWN_ONLY_PATHS, STREAM_MODES, THREAD_ID_PATTERN } from "./deerflow-routes.ts";

const URL_ = "https://deerflow.example";
const SESSION = "eyJhbGciOiJIUzI1NiJ9.session.jwt";

const server: ServerSummary = {
  id: "df",
  name: "deerflow.example",
  url: URL_,
  kind: "deerflow",
  features: { fawn: false, uploads: true, artifacts: true, memory: true, skills: true, models: true },
  added_at: 0,
};

/** The SDK Client as the remote workspace builds it (RemoteContext), over the fake. */
function workspaceClient(fake: FakeDeerflow, token: string | null = SESSION): RemoteContext {
  return new RemoteContext({
    server,
    ...(token && { token }),
    fetch: fake.fetch,
    kindFetch: deerflowSession(),
  });
}

function refused(fake: FakeDeerflow) {
  return fake.served.filter((request) => request.status >= 400 || !request.route);
}

async function drain<T>(parts: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe("DeerFlow's route table", () => {
  it("agrees with the constants the workspace uses", () => {
    const run = DEERFLOW_CONTRACT.find((route) => route.path === "/api/threads/{thread_id}/runs/stream");
    expect(new Set(run?.body?.fields)).toEqual(DEERFLOW_RUN_FIELDS);
    expect([...DEERFLOW_STREAM_MODES]).toEqual(STREAM_MODES);
    expect([...DEERFLOW_CSRF_METHODS].sort()).toEqual(["DELETE", "PATCH", "POST", "PUT"]);
    for (const route of DEERFLOW_CONTRACT) expect(isPublic(route.path), route.path).toBe(route.auth === "public");
    const paths = DEERFLOW_CONTRACT.map((route) => `${route.method} ${route.path}`);
    const at = (method: string, path: string) =>
      `${method} ${path.replace(/^\/(?!health)/, "/api/").replace(/t-1/g, "{thread_id}")}`;
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.health));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.models));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.features));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.memory));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.skills));
    expect(paths).toContain(at("POST", DEERFLOW_ROUTES.uploads("t-1")));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.uploadsList("t-1")));
    expect(paths).toContain(at("POST", DEERFLOW_ROUTES.suggestions("t-1")));
    expect(paths).toContain(at("GET", DEERFLOW_ROUTES.tokenUsage("t-1")));
    expect(paths).toContain(at("POST", DEERFLOW_ROUTES.login));
  });

  it("runs the stream modes the workspace asks for, and LangGraph's `messages` as `messages-tuple`", () => {
    const asked = JSON.parse(deerflowRunBody(JSON.stringify({ stream_mode: WORKSPACE_STREAM_MODES })) as string);
    expect(asked.stream_mode).toEqual([...WORKSPACE_STREAM_MODES]);
    for (const mode of WORKSPACE_STREAM_MODES) expect(STREAM_MODES).toContain(mode);
    const mapped = JSON.parse(deerflowRunBody(JSON.stringify({ stream_mode: ["messages", "events"] })) as string);
    expect(mapped.stream_mode).toEqual(["messages-tuple"]);
  });

  it("takes the thread ids a browser makes", () => {
    expect(THREAD_ID_PATTERN.test(crypto.randomUUID())).toBe(true);
  });
});

describe("LangGraph's SDK against DeerFlow's contract, through deerflowSession()", () => {
  it("creates, lists, reads, renames, runs, joins, stops and deletes a thread without a refusal", async () => {
    const fake = fakeDeerflow({ session: SESSION });
    const { client } = workspaceClient(fake);
    const threadId = crypto.randomUUID();

    const created = await client.threads.create({
      threadId,
      metadata: { title: "New thread" },
      ifExists: "do_nothing",
    });
    expect(created.thread_id).toBe(threadId);
    expect((await client.threads.search({ limit: 50, sortBy: "updated_at", sortOrder: "desc" })).length).toBe(1);
    expect((await client.threads.get(threadId)).metadata).toMatchObject({ title: "New thread" });
    await client.threads.update(threadId, { metadata: { title: "Renamed" } });
    await client.threads.getState(threadId);
    await client.threads.getHistory(threadId, { limit: 10 });

    // What the workspace's runs.stream asks (remote-runs.ts), plus what other SDK callers add.
    let createdRun: string | undefined;
    const parts = await drain(
      client.runs.stream(threadId, "lead_agent", {
        input: { messages: [{ type: "human", content: "Hello" }] },
        streamMode: ["values", "messages", "messages-tuple", "updates", "custom", "events"],
        streamResumable: true,
        onDisconnect: "continue",
        multitaskStrategy: "enqueue",
        ifNotExists: "create",
        durability: "async",
        checkpointDuring: true,
        onRunCreated: ({ run_id }) => (createdRun = run_id),
      }),
    );
    expect(parts.map((part) => part.event)).toEqual(["metadata", "messages", "values", "end"]);
    expect(createdRun).toBe("run-1");
    const sent = fake.served.find((request) => request.url.endsWith("/runs/stream"))?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      stream_mode: ["values", "messages-tuple", "updates", "custom"],
      on_disconnect: "continue",
    });
    expect(Object.keys(sent)).not.toContain("durability");

    await drain(client.runs.joinStream(threadId, "run-1", { lastEventId: "-1", streamMode: ["values"] }));
    await client.runs.cancel(threadId, "run-1", false, "interrupt");
    await client.runs.list(threadId);
    await client.threads.delete(threadId);

    expect(refused(fake)).toEqual([]);
    // Every request went to DeerFlow's LangGraph base, the gateway behind nginx's rewrite.
    expect(fake.served.every((request) => request.url.startsWith("/api/langgraph/"))).toBe(true);
    // The token rode in DeerFlow's cookie, never as a Bearer header, and every change carried the CSRF pair.
    for (const request of fake.served) {
      expect(request.headers.get("authorization")).toBeNull();
      expect(request.headers.get("cookie")).toContain(`access_token=${SESSION}`);
      if (DEERFLOW_CSRF_METHODS.has(request.method))
        expect(request.headers.get("x-csrf-token")).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("is refused without the session wrapper: DeerFlow reads no Bearer token and wants the CSRF pair", async () => {
    const fake = fakeDeerflow({ session: SESSION });
    const plain = new Client({
      apiUrl: serverBases(URL_, "deerflow").langgraph,
      apiKey: null,
      defaultHeaders: { authorization: `Bearer ${SESSION}` },
      callerOptions: { fetch: fake.fetch, maxRetries: 0 },
    });
    await expect(plain.threads.search({ limit: 1 })).rejects.toThrow(/403/);
    await expect(plain.threads.get("t-1")).rejects.toThrow(/401/);
  });

  it("is refused with a stale session, and says so in one sentence", async () => {
    const fake = fakeDeerflow({ session: SESSION });
    const { client } = workspaceClient(fake, "an-old-jwt");
    await expect(client.threads.search({ limit: 1 })).rejects.toThrow(/401/);
    const answer = fake.served.at(-1);
    expect(answer?.status).toBe(401);
    expect(deerflowRefusal(401, { code: "token_invalid", message: "Token error" }, "deerflow.example")).toMatch(
      /^deerflow\.example refused the access token: DeerFlow signs in with its access_token cookie/,
    );
    expect(deerflowRefusal(403, "CSRF token mismatch.", "deerflow.example")).toMatch(/CSRF token/);
    expect(deerflowRefusal(404, "Thread t not found", "deerflow.example")).toBeUndefined();
  });

  it("needs no token on a deployment with auth disabled", async () => {
    const fake = fakeDeerflow({ authDisabled: true });
    const { client } = workspaceClient(fake, null);
    await client.threads.create({ metadata: {} });
    await client.threads.search({ limit: 5 });
    expect(refused(fake)).toEqual([]);
    expect(fake.served.every((request) => !request.headers.get("cookie")?.includes("access_token"))).toBe(true);
  });

  it("gets DeerFlow's 422 for a run body the wrapper did not trim", async () => {
    const fake = fakeDeerflow({ authDisabled: true });
    const response = await fake.fetch(`${URL_}/api/langgraph/threads/t-1/runs/stream`, {
      method: "POST",
      body: JSON.stringify({ assistant_id: "lead_agent", stream_mode: ["messages"], durability: "async" }),
    });
    expect(response.status).toBe(422);
  });
});

describe("DeerFlow's REST routes through deerflowSession()", () => {
  it("uploads, lists, reads as an artifact and deletes a file; reads models, features, memory, skills, suggestions", async () => {
    const fake = fakeDeerflow({ session: SESSION });
    const rest = serverFetch(serverBases(URL_, "deerflow").rest ?? "", SESSION, deerflowSession()(fake.fetch));
    const threadId = "t-1";

    const form = new FormData();
    form.append("files", new File(["# Notes\n"], "notes.md", { type: "text/markdown" }));
    form.append("files", new File(["a,b\n1,2\n"], "data.csv", { type: "text/csv" }));
    const uploaded = await (await rest(DEERFLOW_ROUTES.uploads(threadId), { method: "POST", body: form })).json();
    expect(uploaded.files.map((file: { filename: string }) => file.filename)).toEqual(["notes.md", "data.csv"]);
    expect(uploaded.files[0].virtual_path).toBe("/mnt/user-data/uploads/notes.md");

    const listed = await (await rest(DEERFLOW_ROUTES.uploadsList(threadId))).json();
    expect(listed.count).toBe(2);
    const artifact = await rest(DEERFLOW_ROUTES.artifact(threadId, uploaded.files[0].virtual_path));
    expect(await artifact.text()).toBe("# Notes\n");
    expect((await rest(DEERFLOW_ROUTES.upload(threadId, "data.csv"), { method: "DELETE" })).status).toBe(200);

    const models = await (await rest(DEERFLOW_ROUTES.models)).json();
    expect(models.models[0]).toMatchObject({ name: "mock" });
    expect((await rest(DEERFLOW_ROUTES.features)).status).toBe(200);
    expect((await (await rest(DEERFLOW_ROUTES.memory)).json()).facts).toEqual([]);
    const skills = await (await rest(DEERFLOW_ROUTES.skills)).json();
    const toggled = await rest(DEERFLOW_ROUTES.skill(skills.skills[0].name), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    expect((await toggled.json()).enabled).toBe(false);
    const suggestions = await rest(DEERFLOW_ROUTES.suggestions(threadId), {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "Hi" }], n: 3 }),
    });
    expect((await suggestions.json()).suggestions).toHaveLength(1);

    // /health is at the root, public: what a probe reads to know it is DeerFlow.
    const health = await fake.fetch(`${URL_}${DEERFLOW_ROUTES.health}`);
    expect(await health.json()).toEqual({ status: "healthy", service: "deer-flow-gateway" });
    expect(refused(fake)).toEqual([]);
  });

  it("has none of the routes only Fawn's server offers", async () => {
    const fake = fakeDeerflow({ authDisabled: true });
    for (const path of FAWN_ONLY_PATHS) {
      const concrete = path.replace(/\{[^}]+\}/g, "x");
      const response = await fake.fetch(`${URL_}${concrete}${concrete.endsWith("/") ? "threads/x" : ""}`);
      expect([404, 405]).toContain(response.status);
    }
    expect((await fake.fetch(`${URL_}/api/langgraph/info`)).status).toBe(404);
    // With auth on, DeerFlow's session check runs before its router: a probe of /info without a session gets 401.
    const guarded = fakeDeerflow({ session: SESSION });
    expect((await guarded.fetch(`${URL_}/api/langgraph/info`)).status).toBe(401);
    expect(
      (await guarded.fetch(`${URL_}/api/langgraph/info`, { headers: { cookie: `access_token=${SESSION}` } })).status,
    ).toBe(404);
  });
});

describe("deerflowSession()", () => {
  it("sends the browser's DeerFlow session and its CSRF value when a page on DeerFlow's site gives it", async () => {
    const seen: { init: RequestInit | undefined }[] = [];
    const wrapped = deerflowSession({ csrfToken: () => "from-the-cookie" })(async (_input, init) => {
      seen.push({ init });
      return new Response(null, { status: 204 });
    });
    await wrapped(`${URL_}/api/threads/search`, { method: "POST", body: "{}" });
    await wrapped(`${URL_}/api/models`);
    const [post, get] = seen.map(({ init }) => new Headers(init?.headers));
    expect(post?.get("x-csrf-token")).toBe("from-the-cookie");
    expect(post?.get("cookie")).toBeNull();
    expect(get?.get("x-csrf-token")).toBeNull();
    expect(seen.every(({ init }) => init?.credentials === "include")).toBe(true);
  });

  it("passes non-run bodies as they are and keeps a caller's own CSRF header", async () => {
    const form = new FormData();
    const seen: RequestInit[] = [];
    const wrapped = deerflowSession({ random: () => "fixed" })(async (_input, init) => {
      seen.push(init ?? {});
      return new Response("{}");
    });
    await wrapped(`${URL_}/api/threads/t/uploads`, { method: "POST", body: form });
    await wrapped(`${URL_}/api/threads/t/state`, {
      method: "POST",
      body: '{"values":{}}',
      headers: { "X-CSRF-Token": "mine" },
    });
    expect(seen[0]?.body).toBe(form);
    expect(seen[1]?.body).toBe('{"values":{}}');
    expect(new Headers(seen[1]?.headers).get("x-csrf-token")).toBe("mine");
    expect(new Headers(seen[0]?.headers).get("cookie")).toBe("csrf_token=fixed");
  });
});
