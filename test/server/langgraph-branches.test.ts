// Runs from a checkpoint and the user message as the client sent it, over real HTTP with LangGraph's own Client: what
// agent-chat-ui's Regenerate (a checkpoint, no input) and Edit (a checkpoint and new input) send, mapped onto Fawn's
// branches; a client's message id and DeerFlow's `hide_from_ui` / `human_input_response` kept in the state.
import { Client, type Checkpoint, type ThreadState } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface StateMessage {
  type: string;
  id: string;
  content: unknown;
  additional_kwargs?: Record<string, unknown>;
}
type State = ThreadState<{ messages?: StateMessage[] }>;

const client = () => new Client({ apiUrl: server.apiUrl, apiKey: server.adminToken, callerOptions: { maxRetries: 0 } });

const messagesOf = (state: State): StateMessage[] => state.values.messages ?? [];

/** Sends `content` (as `id` when given) and waits for the run's end; answers the thread's state after it. */
async function send(threadId: string, content: string, extra: Record<string, unknown> = {}): Promise<State> {
  const output = await client().runs.wait(threadId, "lead_agent", {
    input: { messages: [{ type: "human", content, ...extra }] },
  });
  expect(output).not.toHaveProperty("__error__");
  return (await client().threads.getState(threadId)) as State;
}

/**
 * The checkpoint agent-chat-ui forks from for a message: the parent of the oldest state in the history that holds it
 * (useStream's `parentCheckpoint`).
 */
async function parentCheckpointOf(threadId: string, messageId: string): Promise<Checkpoint> {
  const history = (await client().threads.getHistory(threadId, { limit: 100 })) as State[];
  const first = history.filter((state) => messagesOf(state).some((message) => message.id === messageId)).at(-1);
  expect(first?.parent_checkpoint).toBeTruthy();
  return first!.parent_checkpoint!;
}

/** The versions of the turns Fawn's own page shows for the admin's thread (its Gateway's view of the branches). */
async function shownVersions(threadId: string) {
  const gateway = await server.server.gateways.forUser("admin");
  return (await gateway.threads.get(threadId))?.versions ?? {};
}

describe("a run from a checkpoint", () => {
  it("without input makes the reply after it again: a fork at that checkpoint, the old reply still in the history", async () => {
    const thread = await client().threads.create();
    const before = messagesOf(await send(thread.thread_id, "answer this once more"));
    expect(before.map((message) => message.type)).toEqual(["human", "ai"]);
    const [human, oldReply] = [before[0]!, before[1]!];

    const checkpoint = await parentCheckpointOf(thread.thread_id, oldReply.id);
    const output = await client().runs.wait(thread.thread_id, "lead_agent", { checkpoint });
    expect(output).not.toHaveProperty("__error__");

    // As on LangGraph: the same user message (its id kept), then a new reply.
    const after = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(after.map((message) => [message.type, message.id === human.id ? "same" : message.content])).toEqual([
      ["human", "same"],
      ["ai", "You said: answer this once more"],
    ]);
    expect(after[1]!.id).not.toBe(oldReply.id);
    // The fork: the new branch's first step is a child of the checkpoint sent, so the sent checkpoint has two
    // children within the last 10 states (what agent-chat-ui's "1 / 2" switcher reads); the old reply stays there.
    const history = (await client().threads.getHistory(thread.thread_id, { limit: 100 })) as State[];
    expect(history.some((state) => messagesOf(state).some((message) => message.id === oldReply.id))).toBe(true);
    expect(messagesOf(history[0]!).some((message) => message.id === oldReply.id)).toBe(false);
    const recent = (await client().threads.getHistory(thread.thread_id, { limit: 10 })) as State[];
    const children = recent.filter((state) => state.parent_checkpoint?.checkpoint_id === checkpoint.checkpoint_id);
    expect(children).toHaveLength(2);
    // The new branch's first step (the newest child) goes on from the same user message, with no new input.
    const forked = history.find((state) => state.parent_checkpoint?.checkpoint_id === checkpoint.checkpoint_id);
    expect(messagesOf(forked!).map((message) => message.id)).toEqual([human.id]);
    expect((await shownVersions(thread.thread_id))[human.id]?.reply).toMatchObject({ index: 2, count: 2 });

    // The same checkpoint again (now on the branch left): a third version of the reply.
    await client().runs.wait(thread.thread_id, "lead_agent", { checkpoint });
    const third = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(third.map((message) => message.type)).toEqual(["human", "ai"]);
    expect([oldReply.id, after[1]!.id]).not.toContain(third[1]!.id);
    // Fawn's own page shows the three versions of the reply.
    expect(third[0]!.id).toBe(human.id);
    const versions = await shownVersions(thread.thread_id);
    expect(versions[human.id]?.reply).toMatchObject({ index: 3, count: 3 });

    // Fawn's "Previous version" moves the thread to the second version, which its page then describes.
    const gateway = await server.server.gateways.forUser("admin");
    await gateway.branches.showVersion(thread.thread_id, versions[human.id]!.reply!.previous!);
    const shown = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(shown.map((message) => message.id)).toEqual([human.id, after[1]!.id]);
    expect((await shownVersions(thread.thread_id))[human.id]?.reply).toMatchObject({ index: 2, count: 3 });
  });

  it("with input at the thread's latest checkpoint goes on from there, as a send does", async () => {
    const thread = await client().threads.create();
    const state = await send(thread.thread_id, "first");
    await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: "second" }] },
      checkpoint: state.checkpoint,
    });
    const after = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(after.map((message) => message.content)).toEqual(["first", "You said: first", "second", "You said: second"]);
  });

  it("with input edits the user message after it: the thread forks there and shows the edit and its reply", async () => {
    const thread = await client().threads.create();
    const original = await send(thread.thread_id, "the first question", { id: "first-question" });
    const first = messagesOf(original);
    expect(first[0]!.id).toBe("first-question");

    const checkpoint = await parentCheckpointOf(thread.thread_id, "first-question");
    await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", id: "edited-question", content: "the edited question" }] },
      checkpoint,
    });
    const after = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(
      after.map((message) => [message.type, message.id === "edited-question" ? "edited" : message.content]),
    ).toEqual([
      ["human", "edited"],
      ["ai", "You said: the edited question"],
    ]);
    expect((await shownVersions(thread.thread_id))["edited-question"]?.prompt).toMatchObject({ index: 2, count: 2 });

    // A send from the branch left (agent-chat-ui sends from the branch it shows) goes on from that branch's end.
    await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: "a follow-up" }] },
      checkpoint: original.checkpoint,
    });
    const followed = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(followed.map((message) => message.id)).toEqual([
      ...first.map((message) => message.id),
      expect.any(String),
      expect.any(String),
    ]);
    expect(followed.slice(2).map((message) => message.content)).toEqual(["a follow-up", "You said: a follow-up"]);
  });

  it("with input edits a later turn, keeping the turns before it (the top-level checkpoint_id)", async () => {
    const thread = await client().threads.create();
    await send(thread.thread_id, "one");
    const twice = messagesOf(await send(thread.thread_id, "two"));
    const second = twice[2]!;
    expect(second.content).toBe("two");
    const checkpoint = await parentCheckpointOf(thread.thread_id, second.id);
    await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: "three" }] },
      checkpointId: checkpoint.checkpoint_id!,
    });
    const after = messagesOf((await client().threads.getState(thread.thread_id)) as State);
    expect(after.map((message) => message.content)).toEqual(["one", "You said: one", "three", "You said: three"]);
  });

  it("refuses a checkpoint the thread does not have with a 422 and one sentence", async () => {
    const thread = await client().threads.create();
    const other = await client().threads.create();
    await send(other.thread_id, "elsewhere");
    const otherCheckpoint = (await client().threads.getState(other.thread_id)).checkpoint.checkpoint_id!;
    for (const checkpointId of ["1f0d0000-0000-6000-8000-000000000000", otherCheckpoint]) {
      const response = await server.request(`/api/threads/${thread.thread_id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "lead_agent", checkpoint: { checkpoint_id: checkpointId } }),
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        detail: `Checkpoint ${checkpointId} is not one of thread ${thread.thread_id}'s checkpoints.`,
      });
    }
    expect(await client().runs.list(thread.thread_id)).toEqual([]);
  });
});

describe("the user message as the client sent it", () => {
  it("keeps the client's id, hide_from_ui and human_input_response, and no other additional_kwargs", async () => {
    const thread = await client().threads.create();
    const response = { question: "Which format?", answer: "Markdown" };
    const state = await send(thread.thread_id, "For your clarification: Markdown", {
      id: "62bdeaab-1c1e-4b1a-9f7e-0d1f2e3a4b5c",
      additional_kwargs: {
        hide_from_ui: true,
        human_input_response: response,
        injected: "no",
        files: [{ filename: "notes.txt", size: 5, path: "/mnt/user-data/uploads/notes.txt" }],
      },
    });
    const [human] = messagesOf(state);
    expect(human).toMatchObject({
      type: "human",
      id: "62bdeaab-1c1e-4b1a-9f7e-0d1f2e3a4b5c",
      additional_kwargs: {
        hide_from_ui: true,
        human_input_response: response,
        // DeerFlow reads `path`; Fawn's own UI `virtual_path`.
        files: [
          {
            filename: "notes.txt",
            size: 5,
            path: "/mnt/user-data/uploads/notes.txt",
            virtual_path: "/mnt/user-data/uploads/notes.txt",
          },
        ],
      },
    });
    expect(human!.additional_kwargs).not.toHaveProperty("injected");
  });

  it("refuses an id the thread already has, and leaves the thread as it was", async () => {
    const thread = await client().threads.create();
    const before = await send(thread.thread_id, "once", { id: "only-once" });
    await expect(
      client().runs.wait(thread.thread_id, "lead_agent", {
        input: { messages: [{ type: "human", id: "only-once", content: "twice" }] },
      }),
    ).rejects.toThrow("This thread already has a message with id only-once.");
    const after = (await client().threads.getState(thread.thread_id)) as State;
    expect(messagesOf(after)).toEqual(messagesOf(before));
  });
});
