// The middleware chain end to end against the mock model: titles, token usage, uploads announced once.
import { describe, expect, it } from "vitest";
import { TITLE_TEXT } from "../mock-llm/scenarios.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("lead-agent-chain-test");

const chats = () => harness.mock.requests.filter((request) => request.path.endsWith("/chat/completions"));

/** Turns on model-written titles for the mock endpoint. */
const enableModelTitles = () =>
  harness.gateway.settings.saveModels(
    modelSettings({
      baseUrl: harness.mock.url,
      apiKey: "sk-test",
      model: "mock-model",
      modelTitles: true,
    }),
  );

describe("lead agent chain", () => {
  it("names the thread with the model after the first exchange when asked to, and only then", async () => {
    await enableModelTitles();
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "how do tides work");
    // The title request is not streamed to the user.
    const streamed = events.flatMap((event) => (event.event === "messages" ? [event.data[0].content] : [])).join("");
    expect(streamed).not.toContain(TITLE_TEXT);
    expect((await harness.gateway.threads.get(thread.thread_id))?.title).toBe(TITLE_TEXT);
    expect(chats()).toHaveLength(2);

    await runThread(harness.gateway, thread.thread_id, "and in lakes?");
    expect(chats()).toHaveLength(3);
  });

  it("keeps the first message as the title without a title model, with no extra request", async () => {
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "how do tides work");
    expect((await harness.gateway.threads.get(thread.thread_id))?.title).toBe("how do tides work");
    expect(chats()).toHaveLength(1);
  });

  it("a user's rename during the run wins over the generated title", async () => {
    await enableModelTitles();
    const thread = await harness.gateway.threads.create();
    let renamed: Promise<unknown> | undefined;
    await runThread(harness.gateway, thread.thread_id, "tell me about owls", (event) => {
      if (event.event === "messages") renamed ??= harness.gateway.threads.rename(thread.thread_id, "Owls");
    });
    await renamed;
    expect((await harness.gateway.threads.get(thread.thread_id))?.title).toBe("Owls");
  });

  it("sums the run's token usage in the thread state", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "count my tokens");
    const last = events.filter((event) => event.event === "values").at(-1);
    const usage = last?.event === "values" ? (last.data.token_usage as { total_tokens: number }) : undefined;
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it("announces uploaded files once, in an <uploaded_files> block the user does not see", async () => {
    const thread = await harness.gateway.threads.create();
    const uploaded = await harness.gateway.threads.upload(thread.thread_id, [
      { name: "notes.txt", bytes: new TextEncoder().encode("remember the milk") },
      { name: "notes.txt", bytes: new TextEncoder().encode("second copy") },
    ]);
    expect(uploaded.files.map((file) => file.filename)).toEqual(["notes.txt", "notes_1.txt"]);
    await harness.gateway.runs.stream(
      {
        run_id: crypto.randomUUID(),
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: "what is in my notes", files: uploaded.files }] },
      },
      () => undefined,
    );
    await runThread(harness.gateway, thread.thread_id, "thanks");
    const sent = (chats()[1]?.body as { messages: { role: string; content: string }[] }).messages;
    const blocks = sent.filter((message) => String(message.content).includes("<uploaded_files>"));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.content).toContain("/mnt/user-data/uploads/notes_1.txt");
    const detail = await harness.gateway.threads.get(thread.thread_id);
    const first = detail?.entries[0];
    expect(first?.kind === "message" && first.message).toMatchObject({
      type: "human",
      content: "what is in my notes",
      files: [{ filename: "notes.txt" }, { filename: "notes_1.txt" }],
    });
  });

  it("a sandbox already open sees files uploaded after it opened", async () => {
    const thread = await harness.gateway.threads.create();
    await harness.gateway.sandbox.exec({
      command_id: "c1",
      thread_id: thread.thread_id,
      command: "ls /mnt/user-data/uploads",
    });
    await harness.gateway.threads.upload(thread.thread_id, [
      { name: "late.txt", bytes: new TextEncoder().encode("late") },
    ]);
    const result = await harness.gateway.sandbox.exec({
      command_id: "c2",
      thread_id: thread.thread_id,
      command: "cat /mnt/user-data/uploads/late.txt",
    });
    expect(result.stdout).toBe("late");
  });

  it("refuses an upload over the limits whole, writing nothing", async () => {
    const thread = await harness.gateway.threads.create();
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, bytes: new Uint8Array([1]) }));
    await expect(harness.gateway.threads.upload(thread.thread_id, files)).rejects.toThrow(/10 files/);
    const listing = await runThread(
      harness.gateway,
      thread.thread_id,
      'call tool ls {"description":"x","path":"/mnt/user-data/uploads"}',
    );
    const reply = listing.filter((event) => event.event === "values").at(-1);
    expect(JSON.stringify(reply)).toContain("(empty)");
  });
});
