// LangGraph's API as `@langchain/langgraph-sdk`'s Client sees it, as one suite run against every server that answers
// it: Fawn's server (langgraph-api.test.ts), the in-browser routes (the `core` part, langgraph-api-browser.test.ts) and
// `langgraphjs dev` serving Fawn's graph (langgraph-dev.test.ts). Passing the same assertions is how they agree; where
// LangGraph's own servers differ among themselves (a refused run: 409 or 422), the suite accepts either.
// The model is the scripted mock (test/mock-llm): "You said: …" echoes, "long" streams for ~18 s.
import type { Client } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";

/**
 * - `core`: threads create/get/search/delete, a streamed run (values, messages-tuple) and the state after it;
 * - `assistants`: search, get by id and by graph name, graph and schemas;
 * - `threads`: metadata, `if_exists`, patch, search filters and paging, count;
 * - `state`: checkpoints, the state at one, history (limit, before), updating the state as a node;
 * - `runs`: create + join, wait, list, get, join a stream from `Last-Event-ID`, cancel (wait), multitask reject and
 *   enqueue, delete, copy (LangGraph's dev server drops a deleted run's checkpoints, Fawn keeps them: not asked).
 */
export type SdkSuitePart = "core" | "assistants" | "threads" | "state" | "runs";

export interface SdkSuiteOptions {
  /** Names the describe block (which server). */
  name: string;
  /** The Client under test; called inside tests, so it may be made in beforeAll. */
  client: () => Client;
  parts: readonly SdkSuitePart[];
  /** The assistant runs ask for (default `lead_agent`, as DeerFlow's frontend asks). */
  assistantId?: string;
}

interface Message {
  type: string;
  content: unknown;
  id?: string;
}

const text = (message: Message | undefined): string =>
  typeof message?.content === "string"
    ? message.content
    : Array.isArray(message?.content)
      ? message.content.map((part: { text?: string }) => part.text ?? "").join("")
      : "";

const messagesOf = (values: unknown): Message[] => (values as { messages?: Message[] } | null)?.messages ?? [];

const human = (content: string) => ({ messages: [{ type: "human", content }] });

/** The HTTP status of an SDK call's failure (undefined: it did not fail). */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { status?: number }).status;
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}.`);
}

/** Registers the suite's tests for the parts asked for. */
export function sdkSuite(options: SdkSuiteOptions): void {
  const assistant = options.assistantId ?? "lead_agent";
  // A part not asked for is not registered at all: a server that does not have it runs no test of it, and the summary
  // does not count its tests as skipped ones.
  const part = (name: SdkSuitePart) => (options.parts.includes(name) ? describe : () => undefined);
  const client = () => options.client();

  describe(`LangGraph SDK suite: ${options.name}`, () => {
    part("core")("core", () => {
      it("creates, gets, finds and deletes a thread", async () => {
        const thread = await client().threads.create();
        expect(thread).toMatchObject({ thread_id: expect.any(String), status: "idle" });
        expect((await client().threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
        const found = await client().threads.search({ limit: 100 });
        expect(found.map((item) => item.thread_id)).toContain(thread.thread_id);
        await client().threads.delete(thread.thread_id);
        expect(await statusOf(client().threads.get(thread.thread_id))).toBe(404);
      });

      it("streams a run's values and message tuples, then shows the reply in the thread's state", async () => {
        const thread = await client().threads.create();
        const events: string[] = [];
        let streamed = "";
        let last: unknown;
        for await (const part of client().runs.stream(thread.thread_id, assistant, {
          input: human("please repeat apples and pears"),
          streamMode: ["values", "messages-tuple"],
        })) {
          events.push(part.event);
          if (part.event === "values") last = part.data;
          if (part.event === "messages") {
            const [chunk] = part.data as [Message, unknown];
            if (chunk.type === "AIMessageChunk" || chunk.type === "ai") streamed += text(chunk);
          }
        }
        expect(events[0]).toBe("metadata");
        expect(events).toContain("values");
        expect(events).toContain("messages");
        expect(streamed).toContain("You said: please repeat apples and pears");
        expect(messagesOf(last).map((message) => message.type)).toEqual(["human", "ai"]);

        const state = await client().threads.getState(thread.thread_id);
        const messages = messagesOf(state.values);
        expect(messages.map((message) => message.type)).toEqual(["human", "ai"]);
        expect(text(messages[0])).toBe("please repeat apples and pears");
        expect(text(messages[1])).toContain("You said: please repeat apples and pears");
        expect(state.next).toEqual([]);
      });
    });

    part("assistants")("assistants", () => {
      it("finds the lead agent by search, by id and by its graph's name", async () => {
        const found = await client().assistants.search({ graphId: "lead_agent" });
        expect(found).toHaveLength(1);
        const [lead] = found;
        expect(lead).toMatchObject({ graph_id: "lead_agent", assistant_id: "bee7d354-5df5-5f26-a978-10ea053f620d" });
        expect((await client().assistants.get(lead!.assistant_id)).graph_id).toBe("lead_agent");
        expect(await client().assistants.search({ graphId: "no_such_graph" })).toEqual([]);
        const graph = await client().assistants.getGraph(lead!.assistant_id);
        expect(graph.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(["__start__", "__end__"]));
        const schemas = await client().assistants.getSchemas(lead!.assistant_id);
        expect(schemas.graph_id).toBe("lead_agent");
      });
    });

    part("threads")("threads", () => {
      it("creates a thread with its own id and metadata; if_exists raises or answers the one there", async () => {
        const threadId = crypto.randomUUID();
        const tag = crypto.randomUUID();
        const thread = await client().threads.create({ threadId, metadata: { tag, team: "red" } });
        expect(thread).toMatchObject({ thread_id: threadId, metadata: { tag, team: "red" } });
        expect(await statusOf(client().threads.create({ threadId }))).toBe(409);
        const again = await client().threads.create({ threadId, ifExists: "do_nothing", metadata: { team: "blue" } });
        expect(again).toMatchObject({ thread_id: threadId, metadata: { team: "red" } });
      });

      it("patches metadata by merging it, and searches and counts by metadata, status, sort and page", async () => {
        const tag = crypto.randomUUID();
        const ids: string[] = [];
        for (const n of [1, 2, 3]) {
          ids.push((await client().threads.create({ metadata: { tag, n } })).thread_id);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const patched = await client().threads.update(ids[0]!, { metadata: { colour: "green" } });
        expect(patched.metadata).toMatchObject({ tag, n: 1, colour: "green" });

        const all = await client().threads.search({ metadata: { tag }, sortBy: "created_at", sortOrder: "asc" });
        expect(all.map((thread) => thread.thread_id)).toEqual(ids);
        const newest = await client().threads.search({ metadata: { tag }, limit: 2, sortOrder: "desc" });
        expect(newest.map((thread) => thread.thread_id)).toEqual([ids[2], ids[1]]);
        const page = await client().threads.search({ metadata: { tag }, limit: 2, offset: 2, sortOrder: "desc" });
        expect(page.map((thread) => thread.thread_id)).toEqual([ids[0]]);
        const green = await client().threads.search({ metadata: { tag, colour: "green" } });
        expect(green.map((thread) => thread.thread_id)).toEqual([ids[0]]);
        expect(await client().threads.search({ metadata: { tag }, status: "busy" })).toEqual([]);
        expect(await client().threads.count({ metadata: { tag } })).toBe(3);
      });

      it("answers 404 for a thread that is not there, and deletes one", async () => {
        expect(await statusOf(client().threads.get(crypto.randomUUID()))).toBe(404);
        const thread = await client().threads.create();
        await client().threads.delete(thread.thread_id);
        expect(await statusOf(client().threads.get(thread.thread_id))).toBe(404);
        expect(await statusOf(client().threads.getState(thread.thread_id))).toBe(404);
      });
    });

    part("state")("state and history", () => {
      it("names the checkpoint of each state, newest first, with before and at a checkpoint", async () => {
        const thread = await client().threads.create();
        expect((await client().threads.getState(thread.thread_id)).checkpoint).toBeFalsy();
        await client().runs.wait(thread.thread_id, assistant, { input: human("first turn here") });
        await client().runs.wait(thread.thread_id, assistant, { input: human("second turn here") });

        const state = await client().threads.getState(thread.thread_id);
        expect(messagesOf(state.values)).toHaveLength(4);
        expect(state.checkpoint).toMatchObject({ thread_id: thread.thread_id, checkpoint_id: expect.any(String) });
        expect(state.parent_checkpoint?.checkpoint_id).toEqual(expect.any(String));

        const history = await client().threads.getHistory(thread.thread_id, { limit: 3 });
        expect(history).toHaveLength(3);
        expect(history[0]!.checkpoint.checkpoint_id).toBe(state.checkpoint.checkpoint_id);
        expect(history[1]!.checkpoint.checkpoint_id).toBe(history[0]!.parent_checkpoint?.checkpoint_id);

        const older = await client().threads.getHistory(thread.thread_id, {
          limit: 1,
          // LangGraph's servers take the checkpoint id as a string here (the SDK's type says a config).
          before: history[0]!.checkpoint.checkpoint_id as never,
        });
        expect(older[0]!.checkpoint.checkpoint_id).toBe(history[1]!.checkpoint.checkpoint_id);

        const first = (await client().threads.getHistory(thread.thread_id, { limit: 100 })).find(
          (item) => messagesOf(item.values).length === 2,
        );
        expect(first).toBeDefined();
        const atFirst = await client().threads.getState(thread.thread_id, first!.checkpoint.checkpoint_id!);
        expect(messagesOf(atFirst.values).map((message) => text(message))).toEqual([
          "first turn here",
          expect.stringContaining("You said: first turn here"),
        ]);
      });

      it("updates the state as a node: a new checkpoint whose messages carry the update", async () => {
        const thread = await client().threads.create();
        await client().runs.wait(thread.thread_id, assistant, { input: human("before the update") });
        const before = await client().threads.getState(thread.thread_id);
        // LangGraph's servers answer `{checkpoint}`; the SDK's type says `{configurable}`.
        const written = (await client().threads.updateState(thread.thread_id, {
          values: { messages: [{ type: "ai", content: "A note added by hand." }] },
          asNode: "model_request",
        })) as unknown as { checkpoint: { checkpoint_id: string } };
        expect(written.checkpoint.checkpoint_id).toEqual(expect.any(String));
        expect(written.checkpoint.checkpoint_id).not.toBe(before.checkpoint.checkpoint_id);
        const after = await client().threads.getState(thread.thread_id);
        expect(after.checkpoint.checkpoint_id).toBe(written.checkpoint.checkpoint_id);
        expect(
          messagesOf(after.values)
            .map((message) => text(message))
            .at(-1),
        ).toBe("A note added by hand.");
        expect(after.parent_checkpoint?.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
      });
    });

    part("runs")("runs", () => {
      it("creates a run, joins it, and lists and gets it once it succeeded", async () => {
        const thread = await client().threads.create();
        const run = await client().runs.create(thread.thread_id, assistant, { input: human("join me later") });
        expect(run).toMatchObject({ run_id: expect.any(String), thread_id: thread.thread_id });
        expect(["pending", "running"]).toContain(run.status);
        const joined = await client().runs.join(thread.thread_id, run.run_id);
        expect(text(messagesOf(joined).at(-1))).toContain("You said: join me later");
        expect((await client().runs.get(thread.thread_id, run.run_id)).status).toBe("success");
        const listed = await client().runs.list(thread.thread_id);
        expect(listed.map((item) => item.run_id)).toEqual([run.run_id]);
        const thread2 = await client().threads.get(thread.thread_id);
        expect(thread2.metadata).toMatchObject({ graph_id: "lead_agent" });
      });

      it("waits for a run's last values", async () => {
        const thread = await client().threads.create();
        const values = await client().runs.wait(thread.thread_id, assistant, { input: human("wait for this") });
        expect(messagesOf(values).map((message) => message.type)).toEqual(["human", "ai"]);
        expect(text(messagesOf(values)[1])).toContain("You said: wait for this");
      });

      it("joins a resumable run's stream again from a Last-Event-ID", async () => {
        const thread = await client().threads.create();
        const run = await client().runs.create(thread.thread_id, assistant, {
          input: human("stream me twice"),
          streamMode: ["values"],
          streamResumable: true,
        });
        const all: { id: string | undefined; event: string }[] = [];
        for await (const part of client().runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" })) {
          all.push({ id: (part as { id?: string }).id, event: part.event });
        }
        const values = all.filter((part) => part.event === "values");
        expect(values.length).toBeGreaterThanOrEqual(2);
        const from = values[0]!.id;
        expect(from).toEqual(expect.any(String));
        const rest: string[] = [];
        for await (const part of client().runs.joinStream(thread.thread_id, run.run_id, { lastEventId: from! })) {
          rest.push(part.event);
        }
        expect(rest.filter((event) => event === "values")).toHaveLength(values.length - 1);
      });

      it("cancels a running run and waits for it; a reject run on a busy thread is refused; enqueue queues", async () => {
        const thread = await client().threads.create();
        const long = await client().runs.create(thread.thread_id, assistant, { input: human("long") });
        await until(
          async () => (await client().runs.get(thread.thread_id, long.run_id)).status === "running",
          "the long run to start",
        );
        expect([409, 422]).toContain(
          await statusOf(client().runs.create(thread.thread_id, assistant, { input: human("too soon") })),
        );
        const queued = await client().runs.create(thread.thread_id, assistant, {
          input: human("after the first one"),
          multitaskStrategy: "enqueue",
        });
        expect(queued.status).toBe("pending");

        await client().runs.cancel(thread.thread_id, long.run_id, true, "interrupt");
        expect((await client().runs.get(thread.thread_id, long.run_id)).status).toBe("interrupted");
        const values = await client().runs.join(thread.thread_id, queued.run_id);
        expect(text(messagesOf(values).at(-1))).toContain("You said: after the first one");
        expect((await client().runs.get(thread.thread_id, queued.run_id)).status).toBe("success");
      });

      it("deletes an ended run", async () => {
        const thread = await client().threads.create();
        const run = await client().runs.create(thread.thread_id, assistant, { input: human("delete my run") });
        await client().runs.join(thread.thread_id, run.run_id);
        await client().runs.delete(thread.thread_id, run.run_id);
        expect(await statusOf(client().runs.get(thread.thread_id, run.run_id))).toBe(404);
        expect(await client().runs.list(thread.thread_id)).toEqual([]);
      });

      it("copies a thread with its messages and metadata", async () => {
        const thread = await client().threads.create({ metadata: { origin: "copied" } });
        await client().runs.wait(thread.thread_id, assistant, { input: human("copy me") });
        const copy = await client().threads.copy(thread.thread_id);
        expect(copy.thread_id).not.toBe(thread.thread_id);
        expect(copy.metadata).toMatchObject({ origin: "copied" });
        const state = await client().threads.getState(copy.thread_id);
        expect(messagesOf(state.values).map((message) => text(message))).toEqual([
          "copy me",
          expect.stringContaining("You said: copy me"),
        ]);
      });
    });
  });
}
