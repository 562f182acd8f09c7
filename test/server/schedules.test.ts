// Scheduled runs on a Fawn server (server/schedules/scheduler.ts, DeerFlow's /api/scheduled-tasks routes): a due
// schedule starts a real run through the run queue over PGlite against the mock model, a missed time runs once, a
// "new thread each time" schedule makes its thread, and a wrong schedule is refused in one sentence, nothing saved.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteWorkspace } from "../../src/gateway/remote/remote-workspace.ts";
import type { GatewayApi, ServerKind } from "../../src/protocol/index.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let token: string;
let sdk: Client;

const MINUTE = 60_000;

function api(path: string, init: RequestInit = {}) {
  return server.request(`/api${path}`, {
    ...init,
    token,
    headers: { "content-type": "application/json", ...init.headers },
  });
}

async function tasks() {
  return (await (await api("/scheduled-tasks")).json()) as Record<string, unknown>[];
}

beforeAll(async () => {
  server = await startTestServer();
  token = await server.addUser("Grace");
  sdk = new Client({ apiUrl: server.apiUrl, apiKey: token, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close();
});

describe("scheduled runs on a Fawn server", () => {
  it("start a run in the schedule's thread at its time, once for every missed time, and record how it went", async () => {
    const threadId = (await sdk.threads.create()).thread_id;
    const created = await api("/scheduled-tasks", {
      method: "POST",
      body: JSON.stringify({
        title: "Morning check",
        prompt: "scheduled: how are the bees today?",
        context_mode: "reuse_thread",
        thread_id: threadId,
        schedule_type: "cron",
        schedule_spec: { cron: "*/5 * * * *" },
        timezone: "UTC",
      }),
    });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string; next_run_at: string; status: string };
    expect(task.status).toBe("enabled");
    const due = Date.parse(task.next_run_at);

    expect(await server.server.scheduler.tick(due - 1000)).toEqual([]);
    // The server was down for three of its times: it runs once.
    const started = await server.server.scheduler.tick(due + 3 * 5 * MINUTE + 1000);
    expect(started).toHaveLength(1);
    expect(await server.server.scheduler.tick(due + 3 * 5 * MINUTE + 2000)).toEqual([]);
    await server.server.scheduler.settled();

    const asked = server.mock.requests.filter((request) =>
      JSON.stringify(request.body).includes("how are the bees today?"),
    );
    expect(asked.length).toBeGreaterThan(0);
    const state = await sdk.threads.getState<{ messages: { type: string }[] }>(threadId);
    expect(state.values.messages.map((message) => message.type)).toEqual(["human", "ai"]);
    const [after] = await tasks();
    expect(after).toMatchObject({
      run_count: 1,
      last_run_id: started[0],
      last_thread_id: threadId,
      fawn: { last_outcome: "success" },
      next_run_at: new Date(due + 4 * 5 * MINUTE).toISOString(),
    });
    expect(
      (await api(`/threads/${threadId}/scheduled-tasks`).then((answer) => answer.json())) as unknown[],
    ).toHaveLength(1);
    expect((await api(`/scheduled-tasks/${task.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await tasks()).toEqual([]);
  });

  it("make a new thread for each run of a schedule without one, and pause and resume it", async () => {
    const created = await api("/scheduled-tasks", {
      method: "POST",
      body: JSON.stringify({
        title: "Fresh digest",
        prompt: "scheduled: a fresh digest",
        schedule_type: "cron",
        schedule_spec: { cron: "0 9 * * *" },
        timezone: "Europe/Paris",
      }),
    });
    const task = (await created.json()) as { id: string; next_run_at: string };
    const paused = (await (await api(`/scheduled-tasks/${task.id}/pause`, { method: "POST" })).json()) as object;
    expect(paused).toMatchObject({ status: "paused", next_run_at: null });
    expect(await server.server.scheduler.tick(Date.parse(task.next_run_at) + 1000)).toEqual([]);
    const resumed = (await (await api(`/scheduled-tasks/${task.id}/resume`, { method: "POST" })).json()) as {
      next_run_at: string;
    };
    const before = (await sdk.threads.search()).length;
    const [runId] = await server.server.scheduler.tick(Date.parse(resumed.next_run_at) + 1000);
    expect(runId).toBeDefined();
    await server.server.scheduler.settled();
    expect((await sdk.threads.search()).length).toBe(before + 1);
    const [after] = await tasks();
    expect(after).toMatchObject({ context_mode: "fresh_thread_per_run", fawn: { last_outcome: "success" } });
  });

  it("refuse a schedule that cannot run with one sentence per problem, saving nothing", async () => {
    const before = (await tasks()).length;
    const refused = await api("/scheduled-tasks", {
      method: "POST",
      body: JSON.stringify({
        title: "Broken",
        prompt: "never",
        schedule_type: "cron",
        schedule_spec: { cron: "every day" },
        timezone: "Atlantis/Capital",
      }),
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      detail:
        '"Atlantis/Capital" is not a time zone (for example Europe/Paris). A cron expression has five fields: minute, hour, day of month, month and day of week.',
    });
    expect(await tasks()).toHaveLength(before);
  });
});

describe("a server workspace's schedules", () => {
  const workspaceOf = (kind: ServerKind) =>
    createRemoteWorkspace({
      server: {
        id: "s1",
        name: "Test server",
        url: server.url,
        kind,
        features: { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true },
        added_at: 0,
      },
      token,
      // This browser's Gateway is never asked: the schedules are the server's.
      local: {} as GatewayApi,
      watchIntervalMs: 0,
    });

  it("are the server's, through its routes: made, turned off, listed and deleted with Fawn's own fields intact", async () => {
    const { schedules } = workspaceOf("fawn");
    const made = await schedules.create({
      name: "Remote digest",
      thread_id: null,
      prompt: "scheduled: remote",
      when: { kind: "weekdays", time: "07:45" },
      timezone: "Europe/Paris",
      enabled: true,
      mode: "pro",
    });
    expect(made).toMatchObject({ when: { kind: "weekdays", time: "07:45" }, mode: "pro", enabled: true });
    expect((await schedules.update(made.id, { enabled: false })).next_run_at).toBeNull();
    expect((await schedules.list()).find((schedule) => schedule.id === made.id)).toMatchObject({ enabled: false });
    // The server runs them: this browser never claims one.
    expect(await schedules.claimDue(Date.now() + 7 * 86_400_000)).toEqual([]);
    await schedules.delete(made.id);
    expect((await schedules.list()).some((schedule) => schedule.id === made.id)).toBe(false);
    await expect(schedules.create({ ...made, timezone: "Nowhere/Else" })).rejects.toThrow(
      /"Nowhere\/Else" is not a time zone/,
    );
  });

  it("say they are not available on langgraphjs dev", async () => {
    await expect(workspaceOf("langgraph").schedules.list()).rejects.toThrow(
      /^Scheduled runs are not available on langgraphjs dev \(/,
    );
  });
});
