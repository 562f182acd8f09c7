// LangGraph's `rollback` as Fawn does it (the server's runs cancel with it): the thread goes back to the step before
// the run, files included; the run's own steps stay a version of their turn.
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, ThreadDetail } from "../../src/protocol/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("branch-rollback-test");

function texts(detail: ThreadDetail | undefined): string[] {
  return (detail?.entries ?? []).flatMap((entry) =>
    entry.kind === "message" && (entry.message.type === "human" || entry.message.type === "ai")
      ? [`${entry.message.type}: ${String(entry.message.content)}`]
      : [],
  );
}

/** Runs "long" (a slow reply) and cancels it once its reply has begun; resolves with the run's id. */
async function cancelledRun(gateway: Gateway, threadId: string): Promise<string> {
  const runId = crypto.randomUUID();
  const events: RunEvent[] = [];
  await gateway.runs.stream(
    { run_id: runId, thread_id: threadId, input: { messages: [{ type: "human", content: "long" }] } },
    (event) => {
      events.push(event);
      if (event.event === "messages" && events.filter((seen) => seen.event === "messages").length === 3) {
        void gateway.runs.cancel(runId);
      }
    },
  );
  expect(events.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
  return runId;
}

describe("rollBack", () => {
  it("takes the thread back to the step before the run", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "hello");
    const before = texts(await gateway.threads.get(thread.thread_id));
    expect(before).toHaveLength(2);
    const runId = await cancelledRun(gateway, thread.thread_id);
    expect(texts(await gateway.threads.get(thread.thread_id))).toContain("human: long");
    await gateway.branches.rollBack(thread.thread_id, runId);
    expect(texts(await gateway.threads.get(thread.thread_id))).toEqual(before);
    // The next message goes on from there.
    await runThread(gateway, thread.thread_id, "echo this");
    const after = texts(await gateway.threads.get(thread.thread_id));
    expect(after.slice(0, 3)).toEqual([...before, "human: echo this"]);
    expect(after).not.toContain("human: long");
  }, 60_000);

  it("takes a thread's first run back to the empty thread", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    const runId = await cancelledRun(gateway, thread.thread_id);
    await gateway.branches.rollBack(thread.thread_id, runId);
    expect(texts(await gateway.threads.get(thread.thread_id))).toEqual([]);
  }, 60_000);
});
