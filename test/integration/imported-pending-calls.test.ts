// A thread from elsewhere whose last step is a tool call still marked running (a `.fawn` made mid-run, or crafted to
// look so): on import the call is closed as cancelled, "Continue" is not offered, and no resumption runs it, not even
// one forced onto the imported step. Only calls this browser's model made are ever resumed.
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { CANCELLED_ON_IMPORT, type RunEvent, type ThreadDetail, type WireMessage } from "../../src/protocol/index.ts";
import { IndexedDbCheckpointSaver, openFawnDb, ThreadRepository } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("imported-pending-calls-test");

const PWNED = "/mnt/user-data/workspace/pwned.txt";
const COMMAND = `sleep 1; echo ran > ${PWNED}`;

async function resume(gateway: Gateway, threadId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await gateway.runs.stream(
    { run_id: crypto.randomUUID(), thread_id: threadId, input: { messages: [] }, branch: { kind: "resume" } },
    (event) => void events.push(event),
  );
  return events;
}

function messagesOf(detail: ThreadDetail | undefined): WireMessage[] {
  return (detail?.entries ?? []).flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
}

async function fileExists(gateway: Gateway, threadId: string, path: string): Promise<boolean> {
  try {
    await gateway.threads.readFile(threadId, path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A thread cut off while its `bash` call ran, its run left marked running as a closed page leaves it (so this browser
 * offers Continue), exported as a `.fawn`; with the id of the step it stops at.
 */
async function pendingBundle(): Promise<{ bundle: Blob; head: string; callId: string }> {
  const { gateway } = harness;
  const thread = await gateway.threads.create();
  const runId = crypto.randomUUID();
  await gateway.runs.stream(
    {
      run_id: runId,
      thread_id: thread.thread_id,
      input: {
        messages: [
          {
            type: "human",
            content: `call tool bash ${JSON.stringify({ description: "write a file", command: COMMAND })}`,
          },
        ],
      },
    },
    (event) => {
      const last = event.event === "values" ? event.data.messages.at(-1) : undefined;
      if (last?.type === "ai" && (last.tool_calls?.length ?? 0) > 0) void gateway.runs.cancel(runId);
    },
  );
  const db = await openFawnDb(harness.gatewayDbName());
  const repository = new ThreadRepository(db);
  const record = (await repository.runs(thread.thread_id)).at(-1);
  if (!record) throw new Error("no run record");
  await repository.recordRun({ ...record, status: "running" });
  const head = await new IndexedDbCheckpointSaver({ db }).latestCheckpointId(thread.thread_id);
  db.close();
  const detail = await gateway.threads.get(thread.thread_id);
  expect(detail?.resumable).toBe(true);
  expect(await fileExists(gateway, thread.thread_id, PWNED)).toBe(false);
  const last = messagesOf(detail).at(-1);
  if (last?.type !== "ai" || !last.tool_calls?.[0] || !head) throw new Error("the thread does not end on a call");
  const { blob } = await gateway.bundles.export(thread.thread_id, "fawn");
  return { bundle: blob, head, callId: last.tool_calls[0].id };
}

/** The database of the first Gateway `freshGateway` opened after the one named `name`. */
function nextDbName(name: string): string {
  return name.replace(/\d+$/, (count) => String(Number(count) + 1));
}

async function otherBrowser(): Promise<Gateway> {
  const gateway = await harness.freshGateway();
  await gateway.settings.saveModels(
    modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
  );
  return gateway;
}

describe("an imported thread's pending tool calls", () => {
  it("are closed as cancelled on import; neither the thread nor its copy offers Continue, and nothing runs", async () => {
    const { bundle, callId } = await pendingBundle();
    const other = await otherBrowser();
    const imported = await other.bundles.import(bundle);

    const detail = await other.threads.get(imported.thread_id);
    expect(detail?.resumable).toBeFalsy();
    expect(messagesOf(detail).at(-1)).toMatchObject({
      type: "tool",
      tool_call_id: callId,
      name: "bash",
      status: "error",
      content: CANCELLED_ON_IMPORT,
    });

    const copy = await other.bundles.continueThread(imported.thread_id);
    const copied = await other.threads.get(copy.thread_id);
    expect(copied?.resumable).toBeFalsy();
    expect(messagesOf(copied).at(-1)).toMatchObject({ type: "tool", tool_call_id: callId, status: "error" });
    const refused = await resume(other, copy.thread_id);
    expect(refused.find((event) => event.event === "error")?.data).toMatchObject({
      message: "This thread has no cut-off reply to continue.",
    });
    expect(await fileExists(other, copy.thread_id, PWNED)).toBe(false);

    // The user's own next message goes on from the closed step, and still nothing of the stranger's runs.
    await runThread(other, copy.thread_id, "what happened?");
    expect(messagesOf(await other.threads.get(copy.thread_id)).at(-1)).toMatchObject({
      type: "ai",
      content: "You said: what happened?",
    });
    expect(await fileExists(other, copy.thread_id, PWNED)).toBe(false);
  });

  it("run nowhere even when a resumption is forced onto the imported step", async () => {
    const { bundle, head } = await pendingBundle();
    const other = await otherBrowser();
    const imported = await other.bundles.import(bundle);
    const copy = await other.bundles.continueThread(imported.thread_id);

    // As if this browser had a cut-off run of its own ending at the imported step, and showed that step.
    const db = await openFawnDb(nextDbName(harness.gatewayDbName()));
    const repository = new ThreadRepository(db);
    await repository.update(copy.thread_id, { head });
    const now = Date.now();
    await repository.recordRun({
      thread_id: copy.thread_id,
      run_id: crypto.randomUUID(),
      status: "running",
      created_at: now,
      updated_at: now,
      kind: "send",
      end: head,
    });
    db.close();

    const events = await resume(other, copy.thread_id);
    expect(events.find((event) => event.event === "error")?.data).toMatchObject({
      message: expect.stringContaining("came with an imported thread") as unknown as string,
    });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "error" } });
    expect(await fileExists(other, copy.thread_id, PWNED)).toBe(false);
  });
});
