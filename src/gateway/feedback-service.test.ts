// Feedback on replies: a rating and its comment kept with the thread (the last one wins, pressing again takes it
// back), refused for what is not a reply, counted over every thread, left out of a `.fawn`; DeerFlow's run feedback
// routes over it; and a server workspace rating a reply through those routes.
import { beforeEach, describe, expect, it } from "vitest";
import type { ThreadDetail, WireMessage } from "../protocol/index.ts";
import { memoryStorage } from "../storage/memory/index.ts";
import type { FawnStorage, RunRecord } from "../storage/index.ts";
import type { Gateway } from "./create-gateway.ts";
import { FeedbackService, feedbackOf, withoutFeedback } from "./feedback-service.ts";
import { createGatewayFetch } from "./http-routes.ts";
import { RemoteContext } from "./remote/remote-context.ts";
import { RemoteFeedback } from "./remote/remote-feedback.ts";
import { composeHistory } from "./thread-history.ts";

const messages: WireMessage[] = [
  { type: "human", id: "h1", content: "first" },
  { type: "ai", id: "a1", content: "", tool_calls: [{ id: "c1", name: "bash", args: { command: "ls" } }] },
  { type: "tool", id: "t1", content: "ok", tool_call_id: "c1", name: "bash" },
  { type: "ai", id: "a2", content: "done" },
  { type: "human", id: "h2", content: "second" },
  { type: "ai", id: "a3", content: "again" },
];

const run = (run_id: string, user_message_id: string): RunRecord => ({
  thread_id: "t",
  run_id,
  status: "success",
  created_at: 1,
  updated_at: 2,
  kind: "send",
  user_message_id,
});

// r2 answered h2 first and r3 regenerated it: the thread shows r3's reply.
const runs = [run("r1", "h1"), run("r2", "h2"), run("r3", "h2")];

let storage: FawnStorage;
let service: FeedbackService;
let notices: string[];

/** The thread as ThreadsService.get shows it: the messages, and the feedback of its notes. */
async function detail(threadId: string): Promise<ThreadDetail | undefined> {
  const summary = await storage.threads.get(threadId);
  if (!summary) return undefined;
  const entries = await storage.threads.entries(threadId);
  return {
    ...summary,
    entries: composeHistory(entries, messages),
    feedback: Object.fromEntries(feedbackOf(entries)),
  };
}

beforeEach(async () => {
  storage = memoryStorage();
  await storage.threads.create({ threadId: "t" });
  await storage.threads.create({ threadId: "u" });
  notices = [];
  service = new FeedbackService({
    threads: storage.threads,
    detail,
    notify: (notice) => notices.push(notice.type === "thread-changed" ? notice.thread_id : notice.type),
  });
});

describe("FeedbackService", () => {
  it("keeps a reply's rating and comment with the thread, the last one given winning", async () => {
    await service.set("t", "a2", { rating: 1 });
    await service.set("t", "a2", { rating: -1, comment: "  Wrong file listed.  " });
    const [feedback, ...more] = await service.list("t");
    expect(more).toEqual([]);
    expect(feedback).toMatchObject({ message_id: "a2", rating: -1, comment: "Wrong file listed." });
    expect((await detail("t"))?.feedback?.["a2"]?.rating).toBe(-1);
    expect(notices).toEqual(["t", "t"]);
  });

  it("takes a rating back, and the thread shows no feedback entry among its messages", async () => {
    await service.set("t", "a3", { rating: 1, comment: "" });
    expect((await service.list("t"))[0]).not.toHaveProperty("comment");
    await service.clear("t", "a3");
    expect(await service.list("t")).toEqual([]);
    const shown = await detail("t");
    expect(shown?.entries.every((entry) => entry.kind === "message")).toBe(true);
    expect(shown?.entries).toHaveLength(messages.length);
  });

  it("leaves the thread where it was in the list", async () => {
    const before = (await storage.threads.get("t"))!.updated_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await service.set("t", "a2", { rating: 1 });
    expect((await storage.threads.get("t"))!.updated_at).toBe(before);
  });

  it("refuses a user message, an unknown message or thread, a bad rating and a comment too long, writing nothing", async () => {
    await expect(service.set("t", "h1", { rating: 1 })).rejects.toThrow("The thread has no reply with id h1.");
    await expect(service.set("t", "zz", { rating: 1 })).rejects.toThrow("The thread has no reply with id zz.");
    await expect(service.set("nope", "a2", { rating: 1 })).rejects.toThrow("There is no thread with id nope.");
    await expect(service.set("t", "a2", { rating: 2 as 1 })).rejects.toThrow("A reply is rated 1 (good) or -1 (bad).");
    await expect(service.set("t", "a2", { rating: 1, comment: "x".repeat(2001) })).rejects.toThrow(
      "A feedback comment is at most 2000 characters.",
    );
    expect(await storage.threads.entries("t")).toEqual([]);
  });

  it("counts good and bad replies over every thread, a taken-back one not at all", async () => {
    await service.set("t", "a2", { rating: 1 });
    await service.set("t", "a3", { rating: -1 });
    await service.set("u", "a2", { rating: 1 });
    await service.set("u", "a3", { rating: 1 });
    await service.clear("u", "a3");
    expect(await service.counts()).toEqual({ good: 2, bad: 1 });
  });
});

/** The Gateway's routes over this file's thread, runs and feedback service. */
const routes = () =>
  createGatewayFetch({
    threads: { get: detail, readFile: async () => undefined },
    runs: { list: async () => runs },
    branches: { shownVersion: async () => undefined },
    checkpointer: { getTuple: async () => undefined },
    feedback: service,
  } as unknown as Gateway);

describe("DeerFlow's run feedback routes", () => {
  const fetchRoute = (path: string, init?: RequestInit) => routes()(new Request(`http://fawn.local${path}`, init));
  const put = (path: string, body: unknown) =>
    fetchRoute(path, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("PUT rates the run's reply (its turn's last AI message), GET and stats read it, DELETE takes it back", async () => {
    const response = await put("/api/threads/t/runs/r1/feedback", { rating: -1, comment: "Too short" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ run_id: "r1", thread_id: "t", message_id: "a2", rating: -1 });
    expect((await service.list("t")).map((item) => [item.message_id, item.rating, item.comment])).toEqual([
      ["a2", -1, "Too short"],
    ]);
    const listed = (await (await fetchRoute("/api/threads/t/runs/r1/feedback")).json()) as unknown[];
    expect(listed).toEqual([expect.objectContaining({ feedback_id: "a2", comment: "Too short" })]);
    expect(await (await fetchRoute("/api/threads/t/runs/r1/feedback/stats")).json()).toEqual({
      run_id: "r1",
      total: 1,
      positive: 0,
      negative: 1,
    });
    const deleted = await fetchRoute("/api/threads/t/runs/r1/feedback", { method: "DELETE" });
    expect(await deleted.json()).toEqual({ success: true });
    expect(await service.list("t")).toEqual([]);
    expect((await fetchRoute("/api/threads/t/runs/r1/feedback", { method: "DELETE" })).status).toBe(404);
  });

  it("the history feed carries the rating on the run's last reply only", async () => {
    await put("/api/threads/t/runs/r3/feedback", { rating: 1 });
    const page = (await (await fetchRoute("/api/threads/t/messages/page")).json()) as {
      data: { content: { id: string }; feedback: unknown }[];
    };
    const rated = page.data.filter((row) => row.feedback !== null);
    expect(rated.map((row) => [row.content.id, row.feedback])).toEqual([
      ["a3", { feedback_id: "a3", rating: 1, comment: null }],
    ]);
  });

  it("refuses a rating other than ±1 (400), a run of another version or thread (404), writing nothing", async () => {
    expect((await put("/api/threads/t/runs/r1/feedback", { rating: 0 })).status).toBe(400);
    const hidden = await put("/api/threads/t/runs/r2/feedback", { rating: 1 });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ detail: "Run r2 has no reply the thread shows." });
    expect((await put("/api/threads/t/runs/r9/feedback", { rating: 1 })).status).toBe(404);
    expect(await service.list("t")).toEqual([]);
  });
});

describe("a server workspace's feedback", () => {
  const server = (kind: "deerflow" | "langgraph") =>
    new RemoteFeedback(
      new RemoteContext({
        server: {
          id: "s",
          name: "Team",
          url: "https://team.example",
          kind,
          features: { fawn: false, uploads: true, artifacts: true, memory: true, skills: true, models: true },
          added_at: 0,
        },
        fetch: async (input, init) =>
          routes()(new Request(String(input).replace("https://team.example", "http://fawn.local"), init)),
      }),
    );

  it("rates a reply through the run that added it, reads it back from the history feed, and takes it back", async () => {
    const remote = server("deerflow");
    expect(await remote.set("t", "a3", { rating: 1, comment: "Kind." })).toMatchObject({ rating: 1, comment: "Kind." });
    expect((await service.list("t")).map((item) => item.message_id)).toEqual(["a3"]);
    expect((await remote.list("t")).map((item) => [item.message_id, item.rating, item.comment])).toEqual([
      ["a3", 1, "Kind."],
    ]);
    await remote.clear("t", "a3");
    expect(await service.list("t")).toEqual([]);
  });

  it("says a LangGraph-only server has no feedback", async () => {
    await expect(server("langgraph").set("t", "a3", { rating: 1 })).rejects.toThrow(
      "Feedback is not available on langgraphjs dev (team.example).",
    );
  });
});

it("a .fawn's records leave the ratings out and keep every other note", () => {
  const entries = [
    { entry: { kind: "feedback", id: "f", message_id: "a2", rating: 1, at: 1 } },
    { entry: { kind: "stopped", id: "s", message_id: "a2" } },
  ] as const;
  expect(withoutFeedback({ entries: [...entries] }).entries).toEqual([entries[1]]);
});
