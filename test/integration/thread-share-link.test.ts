// Thread actions → Share link, through the Gateway: a small thread becomes a link whose bundle shows what it holds
// without writing anything and imports as the same thread; a thread with a big file is too big for a link; a damaged
// link is refused with one sentence.
import { strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { SHARE_LINK_MAX_CHARS } from "../../src/bundles/index.ts";
import type { Gateway } from "../../src/gateway/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-share-link-test");

/** A thread with an upload, a command's output and two exchanges. */
async function smallThread(gateway: Gateway): Promise<string> {
  const { thread_id: threadId } = await gateway.threads.create();
  await gateway.threads.upload(threadId, [{ name: "notes.txt", bytes: strToU8("bees make honey\n") }]);
  await runThread(gateway, threadId, "hello");
  await gateway.sandbox.exec({
    command_id: "c1",
    thread_id: threadId,
    // A name with ":" is legal in a thread and travels in a link as in a .fawn.
    command: "seq 1 300 > /mnt/user-data/outputs/numbers.txt && echo 09:30 > '/mnt/user-data/outputs/at 09:30.txt'",
  });
  await runThread(gateway, threadId, "hello again");
  return threadId;
}

function linkData(answer: Awaited<ReturnType<Gateway["sharing"]["link"]>>): string {
  if (!("data" in answer)) throw new Error(`expected a link, got ${JSON.stringify(answer)}`);
  return answer.data;
}

describe("a thread as a share link", () => {
  it("shows what it holds without writing, then imports as the same thread", async () => {
    const { gateway } = harness;
    const threadId = await smallThread(gateway);
    const before = await gateway.threads.get(threadId);
    const data = linkData(await gateway.sharing.link(threadId));
    expect(data).toMatch(/^[tz]\.[A-Za-z0-9_-]+$/);
    expect(data.length).toBeLessThanOrEqual(SHARE_LINK_MAX_CHARS);
    const fawn = await (await gateway.bundles.export(threadId, "fawn")).blob.arrayBuffer();
    console.info(`share link: ${data.length} characters for a .fawn of ${fawn.byteLength} bytes`);

    // Another browser: an empty database.
    const other = await harness.freshGateway();
    const shared = await other.sharing.readLink(data);
    expect(shared.preview).toEqual({
      title: "hello",
      message_count: 4,
      files: expect.arrayContaining([
        { path: "/mnt/user-data/uploads/notes.txt", size: 16 },
        { path: "/mnt/user-data/outputs/numbers.txt", size: 1092 },
        { path: "/mnt/user-data/outputs/at 09:30.txt", size: 6 },
      ]),
    });
    expect(await other.threads.list()).toEqual([]);
    expect((await other.sharing.openBundle(shared.bundle)).preview).toEqual(shared.preview);
    expect(await other.threads.list()).toEqual([]);

    const imported = await other.bundles.import(shared.bundle);
    expect((await other.threads.get(imported.thread_id))?.entries).toEqual(before?.entries);
    const numbers = await other.threads.readFile(imported.thread_id, "/mnt/user-data/outputs/numbers.txt");
    expect(new TextDecoder().decode(numbers.bytes).split("\n")[299]).toBe("300");
  });

  it("opens a link's thread to be read first, as the import will show it, without writing anything", async () => {
    const { gateway } = harness;
    const threadId = await smallThread(gateway);
    await gateway.sandbox.exec({
      command_id: "c2",
      thread_id: threadId,
      command: "printf '# Notes\\n' > /mnt/user-data/outputs/notes.md",
    });
    await runThread(gateway, threadId, 'call tool present_files {"filepaths":["/mnt/user-data/outputs/notes.md"]}');
    const data = linkData(await gateway.sharing.link(threadId));

    const other = await harness.freshGateway();
    const shared = await other.sharing.readLink(data);
    const reading = shared.thread;
    expect(reading.thread_id).toMatch(/^shared-/);
    expect(reading).toMatchObject({ title: "hello", read_only: true, artifacts: ["/mnt/user-data/outputs/notes.md"] });
    expect(reading.entries.some((entry) => entry.kind === "message" && entry.message.type === "tool")).toBe(true);
    const notes = await other.threads.readFile(reading.thread_id, "/mnt/user-data/outputs/notes.md");
    expect(new TextDecoder().decode(notes.bytes)).toBe("# Notes\n");
    expect(notes.mime_type).toMatch(/^text\/markdown/);
    await expect(other.threads.readFile(reading.thread_id, "/mnt/user-data/outputs/none.md")).rejects.toThrow(
      'This thread has no file "/mnt/user-data/outputs/none.md".',
    );
    expect(await other.threads.get(reading.thread_id)).toBeUndefined();
    expect(await other.threads.list()).toEqual([]);

    // A .fawn opened with the app reads the same.
    const opened = await other.sharing.openBundle(shared.bundle);
    expect(opened.thread.thread_id).not.toBe(reading.thread_id);
    expect({ ...opened.thread, thread_id: "" }).toEqual({ ...reading, thread_id: "" });
    expect(await other.threads.list()).toEqual([]);

    // Imported, it shows what was read.
    const imported = await other.bundles.import(shared.bundle);
    const stored = await other.threads.get(imported.thread_id);
    expect(reading.entries).toEqual(stored?.entries);
    expect(reading.artifacts).toEqual(stored?.artifacts);
    expect(reading.todos).toEqual(stored?.todos);

    await other.sharing.close(reading.thread_id);
    await expect(other.threads.readFile(reading.thread_id, "/mnt/user-data/outputs/notes.md")).rejects.toThrow(
      "This shared thread is no longer open: open its link again.",
    );
  });

  it("says a thread with a big file is too big for a link, with its size and the limit", async () => {
    const { gateway } = harness;
    const { thread_id: threadId } = await gateway.threads.create();
    const noise = crypto.getRandomValues(new Uint8Array(40_000));
    await gateway.threads.upload(threadId, [{ name: "noise.bin", bytes: noise }]);
    const answer = await gateway.sharing.link(threadId);
    expect(answer).toEqual({ too_big: { size: expect.any(Number), limit: SHARE_LINK_MAX_CHARS } });
    if ("too_big" in answer) expect(answer.too_big.size).toBeGreaterThan(SHARE_LINK_MAX_CHARS);
  });

  it("refuses a damaged link with one sentence and writes nothing", async () => {
    const { gateway } = harness;
    const data = linkData(await gateway.sharing.link(await smallThread(gateway)));
    const other = await harness.freshGateway();
    for (const damaged of [data.slice(0, -40), `${data.slice(0, 30)}x${data.slice(31)}`, "q.abc", "d.$$"]) {
      await expect(other.sharing.readLink(damaged)).rejects.toThrow(/^This share link is damaged|not valid|checksum/);
    }
    await expect(other.sharing.openBundle(new Blob(["not a zip"]))).rejects.toThrow(/not a zip archive/);
    expect(await other.threads.list()).toEqual([]);
  });
});
