// Fuzz of requests to Fawn's server (reliability suite fuzz-server-requests): fast-check builds requests from the
// server's route table (test/server/fuzz-request-arbitraries.ts) — bad JSON, wrong types, huge and deeply nested
// bodies, odd, encoded and unicode paths, junk queries, wrong methods and content types, missing or wrong auth — and
// each goes over real HTTP to the real server (in-process, PGlite, the mock model). Never a 5xx, and the server keeps
// answering; every refusal is a 4xx whose `{detail}` is one sentence, and writes nothing (every table compared before
// and after). 100 cases in `npm test`, 1,000 under `npm run reliability`.
import { Client } from "@langchain/langgraph-sdk";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstSeed, recordCase, reliabilityCases } from "../support/reliability.ts";
import { fuzzRequest, withIds, type FuzzRequest, type KnownIds } from "./fuzz-request-arbitraries.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

const PORT = 15_420;
const MAX_BODY_MB = 1;

let server: TestServer;
let token: string;
let owner: string;
let known: KnownIds;
/** How many times the user was seeded (each seed's fact is new). */
let seeded = 0;

/** Every table's content as one string (run rows without their timestamps and lease), to prove nothing was written. */
async function snapshot(): Promise<string> {
  const [rows] = await server.db.query<{ n: number; digest: string | null }>(
    `SELECT count(*)::int AS n, md5(string_agg(owner || store || encode(sort_key, 'hex') || encode(value, 'hex'), ','
       ORDER BY owner, store, sort_key)) AS digest FROM fawn_rows`,
  );
  const [users] = await server.db.query<{ digest: string | null }>(
    "SELECT md5(string_agg(user_id || name || token_hash, ',' ORDER BY user_id)) AS digest FROM fawn_users",
  );
  const [metadata] = await server.db.query<{ digest: string | null }>(
    `SELECT md5(string_agg(owner || thread_id || metadata::text, ',' ORDER BY owner, thread_id)) AS digest
       FROM fawn_thread_metadata`,
  );
  const [runs] = await server.db.query<{ digest: string | null }>(
    `SELECT md5(string_agg(run_id || status || coalesce(cancel, '') || kwargs::text || metadata::text, ','
       ORDER BY run_id)) AS digest FROM fawn_runs`,
  );
  const [events] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fawn_run_events");
  return JSON.stringify({ rows, users, metadata, runs, events });
}

/** Until no run is pending or running (a request that started one is followed by its writes). */
async function idle(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [active] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM fawn_runs WHERE status IN ('pending', 'running')",
    );
    if (active?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("A run the fuzz started did not end within a minute.");
}

/** The user's thread with a finished run, an upload and a memory fact; made again when a request deleted them. */
async function seedUser(): Promise<KnownIds> {
  const client = new Client({ apiUrl: server.apiUrl, apiKey: token });
  const gateway = await server.server.gateways.forUser(owner);
  // Memory updates write after a debounce, long after the request that ran the turn: off, so writes are the request's.
  await gateway.memory.saveSettings({ ...(await gateway.memory.getSettings()), enabled: false });
  const thread = await client.threads.create({ metadata: { topic: "fuzz" } });
  await client.runs.wait(thread.thread_id, "lead_agent", {
    input: { messages: [{ type: "human", content: "hello" }] },
  });
  const [run] = await client.runs.list(thread.thread_id);
  const state = await client.threads.getState(thread.thread_id);
  const form = new FormData();
  form.append("files", new Blob(["some notes"]), "notes.txt");
  const upload = await server.request(`/api/threads/${thread.thread_id}/uploads`, {
    method: "POST",
    token,
    body: form,
  });
  expect(upload.status).toBe(200);
  const memory = await gateway.memory.addFact({
    content: `The user likes tea number ${++seeded}.`,
    category: "preference",
  });
  return {
    thread_id: thread.thread_id,
    run_id: run!.run_id,
    checkpoint_id: state.checkpoint.checkpoint_id!,
    filename: "notes.txt",
    fact_id: memory.facts.at(-1)!.id,
  };
}

/** Whether the seeded records are still there (a fuzzed DELETE or import may have removed them). */
async function seedIntact(): Promise<boolean> {
  const gateway = await server.server.gateways.forUser(owner);
  const thread = await gateway.threads.get(known.thread_id);
  const memory = await gateway.memory.get();
  const settings = await gateway.memory.getSettings();
  return Boolean(thread) && memory.facts.some((fact) => fact.id === known.fact_id) && !settings.enabled;
}

async function send(request: FuzzRequest): Promise<Response> {
  let body: BodyInit | undefined = request.body;
  if (request.form) {
    const form = new FormData();
    for (const file of request.form) form.append(file.field, new Blob([file.bytes.slice()]), file.name);
    body = form;
  }
  return fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(body !== undefined && { body }),
    signal: AbortSignal.timeout(30_000),
  });
}

/** What is wrong with a refusal's body (undefined: one sentence in `{detail}`). */
function refusalProblem(text: string, request: FuzzRequest): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `its body is not JSON: ${text.slice(0, 120)}`;
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail !== "string") return `no {detail} sentence: ${text.slice(0, 120)}`;
  // What the request itself put in the sentence (an id, a path) is the client's text, not a second sentence.
  let own = detail;
  const echoed = [decodeURIComponentSafe(request.path.split("?")[0]!), ...request.path.split(/[/?&=]/)];
  for (const part of echoed.map(decodeURIComponentSafe).sort((a, b) => b.length - a.length)) {
    if (part.length > 1) own = own.split(part).join("X");
  }
  if (own.trim().length < 5) return `too short: "${detail}"`;
  // zod's "received undefined" names a missing field; anywhere else "undefined" is a value printed by mistake.
  const printed = own.replaceAll("received undefined", "received nothing");
  if (/\n|\bat \S+ \(|undefined|\[object Object\]|^\w*Error:/.test(printed)) {
    return `not a sentence for a user: "${detail}"`;
  }
  if (/[.?!]\s+[A-Z]/.test(own.replace(/[.?!]$/, ""))) return `more than one sentence: "${detail}"`;
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface Outcome {
  survived: boolean;
  lost: number;
  detail?: string;
}

/** Sends one request and judges it: no 5xx, alive after, a refusal one sentence with nothing written. */
async function judge(request: FuzzRequest): Promise<Outcome> {
  await idle();
  const before = await snapshot();
  let response: Response;
  try {
    response = await send(request);
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    return { survived: false, lost: 0, detail: `no answer: ${(error as Error).message} (${cause?.message})` };
  }
  const text = await response.text().catch((error: Error) => `(body cut off: ${error.message})`);
  const alive = await fetch(`${server.url}/ok`)
    .then((ok) => ok.status === 200)
    .catch(() => false);
  if (!alive) return { survived: false, lost: 0, detail: "the server stopped answering /ok" };
  if (response.status >= 500) return { survived: false, lost: 0, detail: `${response.status}: ${text.slice(0, 200)}` };
  if (response.status < 400) return { survived: true, lost: 0 };
  const problem = request.method === "HEAD" ? undefined : refusalProblem(text, request);
  await idle();
  const after = await snapshot();
  if (after !== before) {
    const [was, is] = [JSON.parse(before), JSON.parse(after)] as { rows: { n: number } }[];
    return {
      survived: false,
      lost: Math.max(0, was!.rows.n - is!.rows.n),
      detail: `a ${response.status} refusal wrote: ${before} → ${after}`,
    };
  }
  if (problem) return { survived: false, lost: 0, detail: `${response.status} ${problem}` };
  return { survived: true, lost: 0 };
}

beforeAll(async () => {
  server = await startTestServer({ maxBodyMb: MAX_BODY_MB, env: { PORT: String(PORT) } });
  // Scheduled runs start by the clock, not by a request: a schedule the fuzz made must not write mid-comparison.
  await server.server.scheduler.stop();
  token = await server.addUser("fuzzed");
  owner = (await server.server.users.byToken(token))!.userId;
  known = await seedUser();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("fuzzed requests to the server", () => {
  it("never answer 5xx or stop the server; each refusal is a 4xx in one sentence that wrote nothing", async () => {
    const seed = firstSeed();
    const count = reliabilityCases(100, 1000);
    const requests = fc.sample(fuzzRequest({ user: token, admin: server.adminToken }, MAX_BODY_MB * 1024 * 1024), {
      seed,
      numRuns: count,
    });
    const failures: string[] = [];
    for (const [index, generated] of requests.entries()) {
      if (!(await seedIntact())) known = await seedUser();
      const request = withIds(generated, known);
      const started = Date.now();
      const outcome = await judge(request);
      const name = `seed ${seed} #${index}: ${request.method} ${request.path.slice(0, 80)} (${request.what})`;
      recordCase("fuzz-server-requests", { case: name, ...outcome, recoveryMs: Date.now() - started });
      if (!outcome.survived) failures.push(`${name}: ${outcome.detail}`);
    }
    expect(failures).toEqual([]);
  }, 1_800_000);
});

describe("requests the fuzz found answered wrongly, kept as plain cases", () => {
  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });

  it("a run refused for its input leaves no thread behind, made for it or asked for with if_not_exists", async () => {
    await idle();
    const before = await snapshot();
    const input = { messages: [{ type: "", content: "hello" }] };
    const threadless = await post("/api/langgraph/runs/stream", JSON.stringify({ assistant_id: "lead_agent", input }));
    expect(threadless.status).toBe(422);
    const missing = crypto.randomUUID();
    const created = await post(
      `/api/threads/${missing}/runs`,
      JSON.stringify({ assistant_id: "lead_agent", input, if_not_exists: "create" }),
    );
    expect(created.status).toBe(422);
    expect((await server.request(`/api/threads/${missing}`, { token })).status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it("a run whose input.messages is not a list is refused in one sentence, not a server error", async () => {
    const response = await post(
      `/api/threads/${known.thread_id}/runs/stream`,
      JSON.stringify({ assistant_id: "lead_agent", input: { messages: "KI" } }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ detail: "The run's input.messages must be a list of messages." });
  });

  it("a run id holding U+0000 is an unknown run, not a server error", async () => {
    const response = await server.request(`/api/threads/${known.thread_id}/runs/%00/stream`, { token });
    expect(response.status).toBe(404);
  });

  it("a refusal that never read its body closes the connection, so the next request on it is answered", async () => {
    const body = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const refused = await post("/api/langgraph/assistants/search//", body);
    expect(refused.status).toBe(404);
    expect(refused.headers.get("connection")).toBe("close");
    await refused.text();
    // The same pool (global fetch's keep-alive connections) sends the next one.
    const next = await post("/api/langgraph/threads/search", body);
    expect(next.status).toBe(422);
  });
});
