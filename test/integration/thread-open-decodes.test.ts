// Opening a thread decodes its checkpoint once, for every reader of it: the conversation (threads.get), the context
// gauge (context.usage), follow-up suggestions and branches share one decoded checkpoint (checkpoint-view-cache.ts).
// Counted with the storage's decode measures (storage/checkpoint-decodes.ts), no timing. What stays correct as the
// thread changes (a run, a version shown, an edit, a deletion, an import) is checked beside the counts.
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunRequest, ThreadDetail } from "../../src/protocol/index.ts";
import { checkpointDecodes } from "../../src/storage/checkpoint-decodes.ts";
import { openTestGateway, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-open-decodes-test");

/** The Gateway calls the page makes when it opens a thread: its detail, then the context gauge (open-thread.ts). */
async function openThread(gateway: Gateway, threadId: string): Promise<ThreadDetail | undefined> {
  const detail = await gateway.threads.get(threadId);
  await gateway.context.usage(threadId);
  return detail;
}

/** The threads whose checkpoints `action` decoded, a decode each. */
async function decodesDuring(action: () => Promise<unknown>): Promise<string[]> {
  const since = performance.now();
  await action();
  return checkpointDecodes(since).map((decode) => decode.detail.thread_id);
}

/** How many times `action` decoded the checkpoint that is the thread's latest once it is done. */
async function latestDecodedDuring(gateway: Gateway, threadId: string, action: () => Promise<unknown>) {
  const since = performance.now();
  await action();
  const latest = await gateway.checkpointer.latestCheckpointId(threadId);
  return checkpointDecodes(since).filter((decode) => decode.detail.checkpoint_id === latest).length;
}

function texts(detail: ThreadDetail | undefined): string[] {
  return (detail?.entries ?? []).flatMap((entry) =>
    entry.kind === "message" ? [`${entry.message.type}: ${String(entry.message.content)}`] : [],
  );
}

/** A DeerFlow thread.json's state with `count` alternating messages. */
function deerFlowThread(id: string, count: number, word = "item") {
  return {
    thread_id: id,
    values: {
      title: `Thread ${id}`,
      messages: Array.from({ length: count }, (_, index) => ({
        type: index % 2 === 0 ? "human" : "ai",
        id: `${id}-m${index}`,
        content: `${index % 2 === 0 ? "Question" : "Answer"} ${index} about ${word}`,
      })),
    },
  };
}

async function runBranch(gateway: Gateway, threadId: string, branch: NonNullable<RunRequest["branch"]>, text = "") {
  await gateway.runs.stream(
    {
      run_id: crypto.randomUUID(),
      thread_id: threadId,
      input: { messages: text ? [{ type: "human", content: text }] : [] },
      branch,
    },
    () => undefined,
  );
}

describe("opening a thread", () => {
  it("decodes its checkpoint once on a cold open (a fresh worker), and not at all when opened again", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    for (const text of ["one", "two"]) await runThread(gateway, thread.thread_id, text);
    const other = await gateway.threads.create();
    await runThread(gateway, other.thread_id, "elsewhere");
    const expected = texts(await gateway.threads.get(thread.thread_id));
    const expectedUsage = await gateway.context.usage(thread.thread_id);

    // A page load: a new worker over the same database.
    const fresh = await openTestGateway(harness.gatewayDbName());
    let opened: ThreadDetail | undefined;
    expect(
      await decodesDuring(async () => {
        opened = await openThread(fresh, thread.thread_id);
      }),
    ).toEqual([thread.thread_id]);
    expect(texts(opened)).toEqual(expected);
    expect(await fresh.context.usage(thread.thread_id)).toEqual(expectedUsage);

    // Another thread, then back: nothing is decoded again.
    expect(await decodesDuring(() => openThread(fresh, other.thread_id))).toEqual([other.thread_id]);
    expect(
      await decodesDuring(async () => {
        opened = await openThread(fresh, thread.thread_id);
      }),
    ).toEqual([]);
    expect(texts(opened)).toEqual(expected);
  });

  it("decodes once when the conversation and the gauge ask at the same time", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "together");
    const fresh = await openTestGateway(harness.gatewayDbName());
    const decodes = await decodesDuring(() =>
      Promise.all([
        fresh.threads.get(thread.thread_id),
        fresh.context.usage(thread.thread_id),
        fresh.suggestions.suggest(thread.thread_id),
      ]),
    );
    expect(decodes).toEqual([thread.thread_id]);
  });

  it("decodes nothing to open a thread just imported", async () => {
    const { gateway } = harness;
    const summary = await gateway.threads.importDeerFlow({ thread: deerFlowThread("imported", 40), files: [] });
    let opened: ThreadDetail | undefined;
    expect(
      await decodesDuring(async () => {
        opened = await openThread(gateway, summary.thread_id);
      }),
    ).toEqual([]);
    expect(texts(opened)).toHaveLength(40);
    expect(texts(opened).at(-1)).toBe("ai: Answer 39 about item");
  });

  it("reads a run's new checkpoint once for the conversation, the gauge and suggestions after the reply", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "first");
    await openThread(gateway, thread.thread_id);
    const before = await gateway.context.usage(thread.thread_id);
    // The run (its end indexes the thread for search), then the page once it ended: the thread again, the gauge and
    // suggestions (composer-extras.ts `runEnded`). LangGraph's own reads of where the run starts are its business.
    let detail: ThreadDetail | undefined;
    let suggestions: string[] = [];
    const decodes = await latestDecodedDuring(gateway, thread.thread_id, async () => {
      await runThread(gateway, thread.thread_id, "second");
      detail = await openThread(gateway, thread.thread_id);
      suggestions = await gateway.suggestions.suggest(thread.thread_id);
    });
    expect(decodes).toBe(1);
    expect(texts(detail)).toEqual(["human: first", "ai: You said: first", "human: second", "ai: You said: second"]);
    expect(suggestions).toHaveLength(3);
    expect((await gateway.context.usage(thread.thread_id)).tokens).toBeGreaterThan(before.tokens);
  });

  it("shows the version moved to, an edit's new version, and nothing of a deleted thread, one decode each", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    for (const text of ["one", "two"]) await runThread(gateway, thread.thread_id, text);
    const before = await openThread(gateway, thread.thread_id);
    const two = before?.entries.find(
      (entry) => entry.kind === "message" && entry.message.type === "human" && entry.message.content === "two",
    );
    if (two?.kind !== "message") throw new Error("no second message");
    let edited: ThreadDetail | undefined;
    expect(
      await latestDecodedDuring(gateway, thread.thread_id, async () => {
        await runBranch(gateway, thread.thread_id, { kind: "edit", message_id: two.message.id }, "two, edited");
        edited = await openThread(gateway, thread.thread_id);
      }),
    ).toBe(1);
    expect(texts(edited)).toEqual([
      "human: one",
      "ai: You said: one",
      "human: two, edited",
      "ai: You said: two, edited",
    ]);

    // Back to the first version: its checkpoint, read once for the conversation and the gauge.
    const editedId = edited?.entries.find(
      (entry) => entry.kind === "message" && entry.message.content === "two, edited",
    );
    const previous = editedId?.kind === "message" ? edited?.versions?.[editedId.message.id]?.prompt?.previous : "";
    await gateway.branches.showVersion(thread.thread_id, previous ?? "");
    let shown: ThreadDetail | undefined;
    expect(
      await decodesDuring(async () => {
        shown = await openThread(gateway, thread.thread_id);
      }),
    ).toHaveLength(1);
    expect(texts(shown)).toEqual(texts(before));
    expect(await decodesDuring(() => openThread(gateway, thread.thread_id))).toEqual([]);

    // Deleted, then a thread of the same id imported: the new one shows, not what was kept of the old.
    await gateway.threads.delete(thread.thread_id);
    expect(await gateway.threads.get(thread.thread_id)).toBeUndefined();
    await gateway.threads.importDeerFlow({ thread: deerFlowThread(thread.thread_id, 2, "otters"), files: [] });
    expect(texts(await openThread(gateway, thread.thread_id))).toEqual([
      "human: Question 0 about otters",
      "ai: Answer 1 about otters",
    ]);
  });
});
