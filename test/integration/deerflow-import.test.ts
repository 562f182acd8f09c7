// DeerFlow threads brought into Fawn through the Gateway: every demo thread imports with its messages, presented
// files and plan, and a bad import is refused whole with nothing stored.
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { contentText, type ThreadEntry, type WireMessage } from "../../src/protocol/index.ts";
import { openFawnDb, THREAD_STORES } from "../../src/storage/index.ts";
import { deerFlowFixture, deerFlowFixtures, type DeerFlowFixture } from "../support/deerflow-fixtures.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("deerflow-import-test");

const FIXTURES = deerFlowFixtures();

function messagesOf(entries: readonly ThreadEntry[]): WireMessage[] {
  return entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
}

/** How many records all the per-thread stores hold. */
async function storedRecords(): Promise<number> {
  const db = await openFawnDb(harness.gatewayDbName());
  const counts = await Promise.all(THREAD_STORES.map((name) => db.count(name)));
  db.close();
  return counts.reduce((sum, count) => sum + count, 0);
}

function importFixture(gateway: Gateway, fixture: DeerFlowFixture) {
  return gateway.threads.importDeerFlow({ thread: fixture.thread, files: fixture.files });
}

describe("importing DeerFlow's demo threads", () => {
  it("has the demo threads to import", () => {
    expect(FIXTURES.length).toBe(13);
  });

  it.each(FIXTURES.map((fixture) => [fixture.thread.values.title, fixture] as const))(
    "imports %s with its messages, presented files and plan",
    async (_title, fixture) => {
      const summary = await importFixture(harness.gateway, fixture);
      const { values } = fixture.thread;
      expect(summary).toMatchObject({ thread_id: fixture.id, title: values.title, status: "idle" });
      expect((await harness.gateway.threads.list()).map((thread) => thread.thread_id)).toEqual([fixture.id]);

      const detail = await harness.gateway.threads.get(fixture.id);
      const messages = messagesOf(detail?.entries ?? []);
      expect(messages.map((message) => [message.id, message.type])).toEqual(
        values.messages.map((message) => [message.id, message.type]),
      );
      // What the user sees: their words, the replies (text or reasoning or tool calls), and every tool result.
      expect(messages.some((message) => message.type === "human")).toBe(true);
      const replies = messages.filter((message) => message.type === "ai");
      expect(replies.some((reply) => contentText(reply.content).trim().length > 0)).toBe(true);

      expect(detail?.artifacts).toEqual(values.artifacts ?? []);
      expect(detail?.artifacts?.length).toBeGreaterThan(0);
      expect(detail?.todos).toEqual(values.todos ?? []);

      for (const file of fixture.files) {
        const read = await harness.gateway.threads.readFile(fixture.id, `/mnt/${file.path}`);
        expect(read.bytes).toEqual(file.bytes);
      }
      for (const path of detail?.artifacts ?? []) {
        const read = await harness.gateway.threads.readFile(fixture.id, path);
        expect(read.bytes.byteLength).toBeGreaterThan(0);
        expect(read.mime_type).not.toBe("");
      }
    },
  );

  it("keeps the model's reasoning, tool calls and tool results", async () => {
    const fixture = deerFlowFixture("ad76c455-5bf9-4335-8517-fc03834ab828");
    await importFixture(harness.gateway, fixture);
    const messages = messagesOf((await harness.gateway.threads.get(fixture.id))?.entries ?? []);
    const first = messages.find((message) => message.type === "ai");
    expect(first).toMatchObject({
      type: "ai",
      reasoning: expect.stringContaining("Titanic dataset"),
      tool_calls: [
        expect.objectContaining({
          name: "read_file",
          args: expect.objectContaining({ path: "/mnt/user-data/uploads/titanic.csv" }),
        }),
      ],
    });
    const result = messages.find((message) => message.type === "tool" && message.name === "read_file");
    expect(result).toMatchObject({ type: "tool", status: "success", content: expect.stringContaining("PassengerId") });
    // The user's message was content blocks in DeerFlow; it reads as its text.
    expect(messages[0]).toMatchObject({
      type: "human",
      content: "What interesting findings can be made from this dataset?",
    });
  });

  it("gives the thread a new id when DeerFlow's is taken, and keeps both", async () => {
    const fixture = deerFlowFixture("f4125791-0128-402a-8ca9-50e0947557e4");
    const first = await importFixture(harness.gateway, fixture);
    const second = await importFixture(harness.gateway, fixture);
    expect(first.thread_id).toBe(fixture.id);
    expect(second.thread_id).not.toBe(fixture.id);
    expect(second.title).toBe(first.title);
    const threads = await harness.gateway.threads.list();
    expect(threads.map((thread) => thread.thread_id).sort()).toEqual([first.thread_id, second.thread_id].sort());
    const copy = await harness.gateway.threads.get(second.thread_id);
    expect(messagesOf(copy?.entries ?? []).length).toBe(fixture.thread.values.messages.length);
    const html = await harness.gateway.threads.readFile(second.thread_id, "/mnt/user-data/outputs/index.html");
    expect(new TextDecoder().decode(html.bytes)).toContain("<html");
  });

  it("continues an imported thread: the next message is answered with the imported history", async () => {
    const fixture = deerFlowFixture("3823e443-4e2b-4679-b496-a9506eae462b");
    await importFixture(harness.gateway, fixture);
    const events = await runThread(harness.gateway, fixture.id, "and one more thing");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const request = harness.mock.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    const sent = JSON.stringify(request.messages);
    expect(sent).toContain("Fei-Fei Li");
    expect(request.messages.at(-1)).toMatchObject({ role: "user" });

    const messages = messagesOf((await harness.gateway.threads.get(fixture.id))?.entries ?? []);
    expect(messages.length).toBe(fixture.thread.values.messages.length + 2);
    expect(messages.at(-1)).toMatchObject({ type: "ai", content: "You said: and one more thing" });
    expect((await harness.gateway.threads.get(fixture.id))?.artifacts).toEqual(fixture.thread.values.artifacts);
  });

  it("imports a thread.json alone, leaving out the presented files it does not bring", async () => {
    const fixture = deerFlowFixture("d3e5adaf-084c-4dd5-9d29-94f1d6bccd98");
    await harness.gateway.threads.importDeerFlow({ thread: fixture.thread, files: [] });
    const detail = await harness.gateway.threads.get(fixture.id);
    expect(messagesOf(detail?.entries ?? []).length).toBe(fixture.thread.values.messages.length);
    expect(detail?.artifacts).toEqual([]);
  });

  it("accepts files by their virtual path too", async () => {
    const fixture = deerFlowFixture("d3e5adaf-084c-4dd5-9d29-94f1d6bccd98");
    const files = fixture.files.map((file) => ({ ...file, path: `/mnt/${file.path}` }));
    await harness.gateway.threads.importDeerFlow({ thread: fixture.thread, files });
    expect((await harness.gateway.threads.get(fixture.id))?.artifacts).toEqual(fixture.thread.values.artifacts);
  });
});

describe("refusing a bad import", () => {
  const fixture = deerFlowFixture("7cfa5f8f-a2f8-47ad-acbd-da7137baf990");
  const thread = fixture.thread as unknown as { values: Record<string, unknown> } & Record<string, unknown>;
  const messages = thread.values.messages as Record<string, unknown>[];
  const file = (path: string, size = 3) => ({ path, bytes: new Uint8Array(size) });

  const cases: [string, { thread: unknown; files: { path: string; bytes: Uint8Array }[] }, RegExp][] = [
    [
      "a file path that climbs out of user-data",
      { thread, files: [...fixture.files, file("user-data/outputs/../../../etc/passwd")] },
      /"user-data\/outputs\/\.\.\/\.\.\/\.\.\/etc\/passwd" cannot be imported: a path may not have "\." or "\.\." segments/,
    ],
    [
      "a file outside user-data's three folders",
      { thread, files: [file("user-data/secrets/key.txt")] },
      /"user-data\/secrets\/key\.txt" cannot be imported/,
    ],
    ["a file that is not in user-data", { thread, files: [file("thread.json")] }, /"thread\.json" cannot be imported/],
    [
      "a file given twice",
      { thread, files: [file("user-data/outputs/a.md"), file("/mnt/user-data/outputs/a.md")] },
      /is there twice/,
    ],
    [
      "a thread without messages",
      { thread: { ...thread, values: { ...thread.values, messages: undefined } }, files: [] },
      /^This is not a DeerFlow thread\.json: values\.messages is missing\.$/,
    ],
    [
      "messages that are not a list",
      { thread: { ...thread, values: { ...thread.values, messages: "hello" } }, files: [] },
      /values\.messages should be a list, not a string\./,
    ],
    [
      "a message of an unknown type",
      { thread: { ...thread, values: { ...thread.values, messages: [{ ...messages[0], type: "robot" }] } }, files: [] },
      /values\.messages\[0\]\.type should be/,
    ],
    [
      "a message whose content is a number",
      { thread: { ...thread, values: { ...thread.values, messages: [{ ...messages[0], content: 42 }] } }, files: [] },
      /values\.messages\[0\]\.content should be a string or a list of content blocks\./,
    ],
    [
      "a tool result without its call's id",
      {
        thread: {
          ...thread,
          values: { ...thread.values, messages: [{ type: "tool", id: "t1", content: "OK", name: "bash" }] },
        },
        files: [],
      },
      /values\.messages\[0\]\.tool_call_id is missing\./,
    ],
    [
      "a plan item with an unknown status",
      {
        thread: { ...thread, values: { ...thread.values, todos: [{ content: "x", status: "someday" }] } },
        files: [],
      },
      /values\.todos\[0\]\.status should be "pending", "in_progress" or "completed"\./,
    ],
    [
      "a presented file outside outputs",
      { thread: { ...thread, values: { ...thread.values, artifacts: ["/etc/passwd"] } }, files: [] },
      /The presented file "\/etc\/passwd" cannot be imported/,
    ],
    [
      "a thread.json that is not an object",
      { thread: "[]", files: [] },
      /thread\.json should be an object, not a string/,
    ],
    [
      "more than 2,000 files",
      {
        thread,
        files: Array.from({ length: 2_001 }, (_, index) => file(`user-data/workspace/f${index}.txt`, 1)),
      },
      /at most 2,000 files; this one has 2,001/,
    ],
  ];

  it.each(cases)("refuses %s with one sentence, and stores nothing", async (_name, input, message) => {
    await expect(harness.gateway.threads.importDeerFlow(input)).rejects.toThrow(message);
    expect(await harness.gateway.threads.list()).toEqual([]);
    expect(await storedRecords()).toBe(0);
  });

  it("refuses more than 200 MB of files, and stores nothing", async () => {
    const chunk = new Uint8Array(70 * 1024 * 1024);
    const files = ["a", "b", "c"].map((name) => ({ path: `user-data/outputs/${name}.bin`, bytes: chunk }));
    await expect(harness.gateway.threads.importDeerFlow({ thread, files })).rejects.toThrow(
      /at most 200 MB of files; these are 210\.0 MB/,
    );
    expect(await storedRecords()).toBe(0);
  });
});
