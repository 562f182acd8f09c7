// DeerFlow's history page and token counts over a Gateway whose thread and runs are given: seq is the message's
// place, run_id the run of its turn, a backward page by before_seq, turn_duration on a run's last AI message only,
// usage summed by model; also the Channels tab's answers.
import { describe, expect, it } from "vitest";
import type { ThreadDetail, WireMessage } from "../../protocol/index.ts";
import type { RunRecord } from "../../storage/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";

const T0 = Date.parse("2026-11-29T04:00:00Z");
const usage = (total: number) => ({ input_tokens: total - 1, output_tokens: 1, total_tokens: total });

const messages: WireMessage[] = [
  { type: "human", id: "h1", content: "first" },
  {
    type: "ai",
    id: "a1",
    content: "",
    tool_calls: [{ id: "c1", name: "bash", args: { command: "ls" } }],
    usage_metadata: usage(10),
    response_metadata: { model_name: "model-a" },
  },
  { type: "tool", id: "t1", content: "ok", tool_call_id: "c1", name: "bash" },
  { type: "ai", id: "a2", content: "done", usage_metadata: usage(20), response_metadata: { model_name: "model-a" } },
  { type: "human", id: "h2", content: "second" },
  { type: "ai", id: "a3", content: "again", usage_metadata: usage(5) },
];

const run = (run_id: string, user_message_id: string, start: number, seconds: number, extra: Partial<RunRecord> = {}) =>
  ({
    thread_id: "t",
    run_id,
    status: "success",
    created_at: T0 + start * 1000,
    updated_at: T0 + (start + seconds) * 1000,
    kind: "send",
    user_message_id,
    model: "model-b",
    ...extra,
  }) satisfies RunRecord;

// r2 is the first reply to h2, r3 its regeneration: the thread shows r3's reply, so the turn is r3's.
const runs: RunRecord[] = [
  run("r1", "h1", 0, 12),
  run("r2", "h2", 60, 3),
  run("r3", "h2", 120, 7, { kind: "regenerate" }),
];

const thread: ThreadDetail = {
  thread_id: "t",
  title: "first",
  created_at: T0,
  updated_at: T0,
  status: "idle",
  entries: messages.map((message) => ({ kind: "message", message })),
};

const gateway = {
  threads: { get: async (id: string) => (id === "t" ? thread : undefined) },
  runs: { list: async () => runs },
  branches: { shownVersion: async () => undefined },
} as unknown as Gateway;

const get = async (path: string) => {
  const response = await createGatewayFetch(gateway)(new Request(`http://fawn.local${path}`));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

interface Row {
  run_id: string;
  seq: number;
  content: { type: string; id: string; additional_kwargs: Record<string, unknown>; tool_calls?: unknown[] };
  metadata: { caller: string };
  created_at: string;
  feedback: null;
}

describe("GET /api/threads/:id/messages/page", () => {
  it("answers the newest rows oldest first, each with its seq, its turn's run and the message as LangGraph writes it", async () => {
    const { status, body } = await get("/api/threads/t/messages/page");
    expect(status).toBe(200);
    expect(body.has_more).toBe(false);
    expect(body.next_before_seq).toBeNull();
    const rows = body.data as Row[];
    expect(rows.map((row) => [row.seq, row.run_id, row.content.id])).toEqual([
      [1, "r1", "h1"],
      [2, "r1", "a1"],
      [3, "r1", "t1"],
      [4, "r1", "a2"],
      [5, "r3", "h2"],
      [6, "r3", "a3"],
    ]);
    expect(rows[0]).toMatchObject({
      content: { type: "human", content: "first", additional_kwargs: {} },
      metadata: { caller: "lead_agent" },
      created_at: new Date(T0).toISOString(),
      feedback: null,
    });
    expect(rows[1]!.content).toMatchObject({ type: "ai", tool_calls: [expect.objectContaining({ name: "bash" })] });
    expect(rows[2]!.content).toMatchObject({ type: "tool", tool_call_id: "c1" });
    // The run's wall-clock time sits on its last AI message only.
    expect(rows.map((row) => row.content.additional_kwargs?.turn_duration)).toEqual([
      undefined,
      undefined,
      undefined,
      12,
      undefined,
      7,
    ]);
    expect(rows[5]!.created_at).toBe(new Date(T0 + 120_000).toISOString());
  });

  it("pages backwards by before_seq, with has_more and the next cursor", async () => {
    const first = await get("/api/threads/t/messages/page?limit=4");
    expect((first.body.data as Row[]).map((row) => row.seq)).toEqual([3, 4, 5, 6]);
    expect([first.body.has_more, first.body.next_before_seq]).toEqual([true, 3]);
    const second = await get("/api/threads/t/messages/page?limit=4&before_seq=3");
    expect((second.body.data as Row[]).map((row) => row.seq)).toEqual([1, 2]);
    expect([second.body.has_more, second.body.next_before_seq]).toEqual([false, null]);
    expect(((await get("/api/threads/t/messages/page?before_seq=1")).body.data as Row[]).length).toBe(0);
  });

  it("refuses after_seq, a limit outside 1–200 or a bad cursor with 422, and an unknown thread with 404", async () => {
    for (const query of ["after_seq=1", "limit=0", "limit=201", "limit=x", "before_seq=0", "before_seq=1.5"]) {
      expect((await get(`/api/threads/t/messages/page?${query}`)).status).toBe(422);
    }
    expect(await get("/api/threads/nope/messages/page")).toEqual({
      status: 404,
      body: { detail: "Thread nope not found." },
    });
  });
});

describe("GET /api/threads/:id/token-usage", () => {
  it("sums the shown AI messages' usage, by model (the run's model when the message names none)", async () => {
    const { status, body } = await get("/api/threads/t/token-usage");
    expect(status).toBe(200);
    expect(body).toEqual({
      thread_id: "t",
      total_tokens: 35,
      total_input_tokens: 32,
      total_output_tokens: 3,
      total_runs: 2,
      by_model: { "model-a": { tokens: 30, runs: 1 }, "model-b": { tokens: 5, runs: 1 } },
      by_caller: { lead_agent: 35, subagent: 0, middleware: 0 },
      context_usage: null,
    });
    expect((await get("/api/threads/nope/token-usage")).status).toBe(404);
  });
});

describe("GET /api/threads/:id/runs/:run_id/workspace-changes", () => {
  it("answers DeerFlow's no-changes shape for a run of the thread, and 404 for an unknown thread or run", async () => {
    expect(await get("/api/threads/t/runs/r2/workspace-changes?include_files=true&include_diff=false")).toEqual({
      status: 200,
      body: {
        available: false,
        version: 1,
        summary: {
          created: 0,
          modified: 0,
          deleted: 0,
          symlink_created: 0,
          additions: 0,
          deletions: 0,
          truncated: false,
        },
        files: [],
        limits: {},
      },
    });
    expect(await get("/api/threads/t/runs/nope/workspace-changes")).toEqual({
      status: 404,
      body: { detail: "Run nope not found." },
    });
    expect((await get("/api/threads/nope/runs/r1/workspace-changes")).status).toBe(404);
  });
});

describe("DeerFlow's Channels routes", () => {
  it("say channels are off and none are connected", async () => {
    expect(await get("/api/channels/providers")).toEqual({ status: 200, body: { enabled: false, providers: [] } });
    expect(await get("/api/channels/connections")).toEqual({ status: 200, body: { connections: [] } });
  });
});
