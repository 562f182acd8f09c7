// Branches end to end in Node: edit a message, regenerate a reply, move between versions (files included), and
// continue a run that was cut off, against the real agent, the IndexedDB schema and the scripted mock model.
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, RunRequest, ThreadDetail } from "../../src/protocol/index.ts";
import { openFawnDb, ThreadRepository, type RunRecord } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("branches-test");

async function runBranch(
  gateway: Gateway,
  threadId: string,
  branch: NonNullable<RunRequest["branch"]>,
  text = "",
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await gateway.runs.stream(
    {
      run_id: crypto.randomUUID(),
      thread_id: threadId,
      input: { messages: text ? [{ type: "human", content: text }] : [] },
      branch,
    },
    (event) => void events.push(event),
  );
  return events;
}

function texts(detail: ThreadDetail | undefined): string[] {
  return (detail?.entries ?? []).flatMap((entry) =>
    entry.kind === "message" && (entry.message.type === "human" || entry.message.type === "ai")
      ? [`${entry.message.type}: ${String(entry.message.content)}`]
      : [],
  );
}

function userMessageId(detail: ThreadDetail | undefined, text: string): string {
  const entry = detail?.entries.find(
    (candidate) =>
      candidate.kind === "message" && candidate.message.type === "human" && candidate.message.content === text,
  );
  if (entry?.kind !== "message") throw new Error(`no user message ${text}`);
  return entry.message.id;
}

async function threadFile(gateway: Gateway, threadId: string, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode((await gateway.threads.readFile(threadId, path)).bytes);
  } catch {
    return undefined;
  }
}

const bash = (command: string) => `call tool bash ${JSON.stringify({ command, description: "write a file" })}`;

describe("branches", () => {
  it("edits the second of three messages into a version of its own, and both versions can be shown", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    for (const text of ["one", "two", "three"]) await runThread(gateway, thread.thread_id, text);
    const before = await gateway.threads.get(thread.thread_id);
    const events = await runBranch(
      gateway,
      thread.thread_id,
      { kind: "edit", message_id: userMessageId(before, "two") },
      "two, edited",
    );
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });

    const edited = await gateway.threads.get(thread.thread_id);
    expect(texts(edited)).toEqual([
      "human: one",
      "ai: You said: one",
      "human: two, edited",
      "ai: You said: two, edited",
    ]);
    const editedId = userMessageId(edited, "two, edited");
    const choice = edited?.versions?.[editedId]?.prompt;
    expect(choice).toMatchObject({ index: 2, count: 2 });
    expect(choice?.next).toBeUndefined();
    // The model was sent the history up to the fork point, not the third message.
    const sent = harness.mock.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "one",
      "two, edited",
    ]);

    await gateway.branches.showVersion(thread.thread_id, choice?.previous ?? "");
    const original = await gateway.threads.get(thread.thread_id);
    // The first version is shown with what followed it: the third message too.
    expect(texts(original)).toEqual(texts(before));
    expect(original?.versions?.[userMessageId(original, "two")]?.prompt).toMatchObject({ index: 1, count: 2 });

    // A reload (a new read of the thread) opens the version last shown.
    expect(texts(await gateway.threads.get(thread.thread_id))).toEqual(texts(before));
    // Replay plays the version shown, not the other.
    const replay = await gateway.threads.replay(thread.thread_id);
    const replayed = new Set(replay.steps.flatMap((step) => step.message_ids));
    expect(replayed.has(editedId)).toBe(false);
    expect(replay.steps.at(-1)?.message_ids).toEqual(
      original?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message.id] : [])),
    );
  });

  it("keeps versions reachable across a /compact: the compacted version still leads to the turns after it", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    for (const text of ["one", "two", "three"]) await runThread(gateway, thread.thread_id, text);
    expect(await gateway.context.compact(thread.thread_id)).toMatchObject({ compacted: true });
    await runThread(gateway, thread.thread_id, "four");
    const before = await gateway.threads.get(thread.thread_id);
    await runBranch(
      gateway,
      thread.thread_id,
      { kind: "edit", message_id: userMessageId(before, "two") },
      "two, again",
    );
    const edited = await gateway.threads.get(thread.thread_id);
    const previous = edited?.versions?.[userMessageId(edited, "two, again")]?.prompt?.previous;
    await gateway.branches.showVersion(thread.thread_id, previous ?? "");
    expect(texts(await gateway.threads.get(thread.thread_id))).toEqual(texts(before));
  });

  it("finds a thread by the words of the version it shows", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    // The first message names the thread; the words searched for are only in the second one's versions.
    await runThread(gateway, thread.thread_id, "zoo notes");
    await runThread(gateway, thread.thread_id, "aardvark burrows");
    const before = await gateway.threads.get(thread.thread_id);
    await runBranch(
      gateway,
      thread.thread_id,
      { kind: "edit", message_id: userMessageId(before, "aardvark burrows") },
      "pangolin scales",
    );
    const found = async (word: string) =>
      (await gateway.threads.search(word)).hits.some((hit) => hit.thread.thread_id === thread.thread_id);
    expect(await found("pangolin")).toBe(true);
    expect(await found("aardvark")).toBe(false);
    const edited = await gateway.threads.get(thread.thread_id);
    const previous = edited?.versions?.[userMessageId(edited, "pangolin scales")]?.prompt?.previous;
    await gateway.branches.showVersion(thread.thread_id, previous ?? "");
    await expect.poll(() => found("aardvark")).toBe(true);
    expect(await found("pangolin")).toBe(false);
  });

  it("regenerates a reply as a second version of it, sending the same message again", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "hello");
    const before = await gateway.threads.get(thread.thread_id);
    const requests = harness.mock.requests.length;
    await runBranch(gateway, thread.thread_id, { kind: "regenerate", message_id: userMessageId(before, "hello") });
    expect(harness.mock.requests.length).toBeGreaterThan(requests);
    const after = await gateway.threads.get(thread.thread_id);
    expect(texts(after)).toEqual(texts(before));
    const versions = after?.versions?.[userMessageId(after, "hello")];
    expect(versions?.reply).toMatchObject({ index: 2, count: 2 });
    expect(versions?.prompt).toBeUndefined();
    // The title stays the first exchange's.
    expect(after?.title).toBe(before?.title);
  });

  it("edits the first message: the new version starts from an empty thread", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "first");
    await runThread(gateway, thread.thread_id, "second");
    const before = await gateway.threads.get(thread.thread_id);
    await runBranch(gateway, thread.thread_id, { kind: "edit", message_id: userMessageId(before, "first") }, "alpha");
    const after = await gateway.threads.get(thread.thread_id);
    expect(texts(after)).toEqual(["human: alpha", "ai: You said: alpha"]);
    expect(after?.versions?.[userMessageId(after, "alpha")]?.prompt).toMatchObject({ index: 2, count: 2 });
  });

  it("gives each version the files of its fork point, not the other version's", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    const path = "/mnt/user-data/workspace/note.txt";
    await runThread(gateway, thread.thread_id, bash(`echo base > ${path}`));
    await runThread(
      gateway,
      thread.thread_id,
      bash(`echo original > ${path}; echo x > /mnt/user-data/outputs/only-original.txt`),
    );
    expect(await threadFile(gateway, thread.thread_id, path)).toBe("original\n");
    const before = await gateway.threads.get(thread.thread_id);
    const second = before?.entries.filter((entry) => entry.kind === "message" && entry.message.type === "human")[1];
    if (second?.kind !== "message") throw new Error("no second message");

    await runBranch(gateway, thread.thread_id, { kind: "edit", message_id: second.message.id }, bash(`cat ${path}`));
    const edited = await gateway.threads.get(thread.thread_id);
    // The edit's run read the file as it was at the fork point.
    expect(texts(edited).at(-1)).toContain("base");
    expect(await threadFile(gateway, thread.thread_id, path)).toBe("base\n");
    expect(await threadFile(gateway, thread.thread_id, "/mnt/user-data/outputs/only-original.txt")).toBeUndefined();

    const choice = Object.values(edited?.versions ?? {})[0]?.prompt;
    await gateway.branches.showVersion(thread.thread_id, choice?.previous ?? "");
    expect(await threadFile(gateway, thread.thread_id, path)).toBe("original\n");
    expect(await threadFile(gateway, thread.thread_id, "/mnt/user-data/outputs/only-original.txt")).toBe("x\n");
    await gateway.branches.showVersion(
      thread.thread_id,
      (await gateway.threads.get(thread.thread_id))?.versions?.[second.message.id]?.prompt?.next ?? "",
    );
    expect(await threadFile(gateway, thread.thread_id, path)).toBe("base\n");
  });

  it("continues a run cut off while its tool ran from the last saved step, without sending the turn again", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    const text = bash("sleep 1; echo slept");
    const runId = crypto.randomUUID();
    const running = gateway.runs.stream(
      { run_id: runId, thread_id: thread.thread_id, input: { messages: [{ type: "human", content: text }] } },
      (event) => {
        // Once the model's call of the tool is saved, the tool is running: the page closes then.
        const last = event.event === "values" ? event.data.messages.at(-1) : undefined;
        if (last?.type === "ai" && (last.tool_calls?.length ?? 0) > 0) void gateway.runs.cancel(runId);
      },
    );
    await running;
    // A closed page leaves its run marked running: the worker that ran it is gone.
    const db = await openFawnDb(harness.gatewayDbName());
    const repository = new ThreadRepository(db);
    const record = (await repository.runs(thread.thread_id)).at(-1);
    if (!record) throw new Error("no run record");
    await repository.recordRun({ ...record, status: "running" });
    db.close();

    const cut = await gateway.threads.get(thread.thread_id);
    expect(cut?.resumable).toBe(true);
    const firstRequests = () =>
      harness.mock.requests.filter((request) => {
        const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
        return messages.at(-1)?.role === "user" && messages.at(-1)?.content === text;
      }).length;
    expect(firstRequests()).toBe(1);

    const events = await runBranch(gateway, thread.thread_id, { kind: "resume" });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(firstRequests()).toBe(1);
    const done = await gateway.threads.get(thread.thread_id);
    expect(texts(done).at(-1)).toContain("slept");
    expect(done?.resumable).toBeUndefined();
    expect(texts(done).filter((line) => line.startsWith("human:"))).toHaveLength(1);
  });

  it("continues a run whose page closed between saving a step and recording it (crash.spec.ts found this)", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    const runId = crypto.randomUUID();
    await gateway.runs.stream(
      {
        run_id: runId,
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: bash("echo lag") }] },
      },
      (event) => {
        const last = event.event === "values" ? event.data.messages.at(-1) : undefined;
        if (last?.type === "ai" && (last.tool_calls?.length ?? 0) > 0) void gateway.runs.cancel(runId);
      },
    );
    // The page closed just after a step was saved: the run's record is still running, and still ends where it began.
    const db = await openFawnDb(harness.gatewayDbName());
    const repository = new ThreadRepository(db);
    const record = (await repository.runs(thread.thread_id)).at(-1);
    if (!record) throw new Error("no run record");
    const behind: RunRecord = { ...record, status: "running" };
    delete behind.end;
    await repository.recordRun(behind);
    db.close();

    expect((await gateway.threads.get(thread.thread_id))?.resumable).toBe(true);
    const events = await runBranch(gateway, thread.thread_id, { kind: "resume" });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const done = await gateway.threads.get(thread.thread_id);
    expect(texts(done).at(-1)).toContain("lag");
    expect(done?.resumable).toBeUndefined();
  });

  it("offers Continue after a fixable error, and continues once the key is right", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-wrong", model: "mock-model" }),
    );
    await runThread(gateway, thread.thread_id, "good morning");
    expect((await gateway.threads.get(thread.thread_id))?.resumable).toBe(true);
    await gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
    );
    await runBranch(gateway, thread.thread_id, { kind: "resume" });
    const done = await gateway.threads.get(thread.thread_id);
    expect(texts(done)).toEqual(["human: good morning", "ai: You said: good morning"]);
    expect(done?.resumable).toBeUndefined();
  });

  it("refuses to continue a thread with nothing cut off, and to edit a message it does not have", async () => {
    const { gateway } = harness;
    const thread = await gateway.threads.create();
    await runThread(gateway, thread.thread_id, "howdy");
    const resumed = await runBranch(gateway, thread.thread_id, { kind: "resume" });
    expect(resumed.find((event) => event.event === "error")?.data).toMatchObject({
      message: "This thread has no cut-off reply to continue.",
    });
    const edited = await runBranch(gateway, thread.thread_id, { kind: "edit", message_id: "nope" }, "x");
    expect(edited.find((event) => event.event === "error")?.data).toMatchObject({
      message: "That message is not one of this thread's own messages.",
    });
    expect(texts(await gateway.threads.get(thread.thread_id))).toEqual(["human: howdy", "ai: You said: howdy"]);
  });
});
