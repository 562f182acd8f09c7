// Thread actions → Export as a `.fawn` bundle and its import, through the Gateway: the round trip keeps the messages,
// the plan and every file byte for byte; a bundle whose id is taken gets a new one; a bad bundle writes nothing.
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { READ_ONLY_THREAD } from "../../src/protocol/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-bundle-test");

const sha256 = async (bytes: Uint8Array) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)).toString("hex");

/** A thread with an upload, an output written by a command, a reply and a plan. */
async function richThread(gateway: Gateway): Promise<string> {
  const { thread_id: threadId } = await gateway.threads.create();
  await gateway.threads.upload(threadId, [{ name: "notes.txt", bytes: strToU8("bees make honey\n") }]);
  const todos = [
    { content: "Read the notes", status: "completed" },
    { content: "Write the report", status: "in_progress" },
  ];
  await runThread(gateway, threadId, `call tool write_todos ${JSON.stringify({ todos })}`, undefined, { mode: "pro" });
  await gateway.sandbox.exec({
    command_id: "c1",
    thread_id: threadId,
    command: "printf 'report\\n' > /mnt/user-data/outputs/report.md && seq 1 800 > /mnt/user-data/outputs/blob.bin",
  });
  await runThread(gateway, threadId, "hello");
  return threadId;
}

async function filesOf(gateway: Gateway, threadId: string, paths: string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const path of paths) hashes[path] = await sha256((await gateway.threads.readFile(threadId, path)).bytes);
  return hashes;
}

const PATHS = [
  "/mnt/user-data/uploads/notes.txt",
  "/mnt/user-data/outputs/report.md",
  "/mnt/user-data/outputs/blob.bin",
];

describe("a thread as a .fawn bundle", () => {
  it("comes back after its deletion with the same messages, plan and files, byte for byte", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const before = await gateway.threads.get(threadId);
    const hashes = await filesOf(gateway, threadId, PATHS);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    // Named from the cleaned title: no spaces, braces or quotes.
    expect(bundle.file_name).toMatch(/^call-tool-write-todos-[\p{L}\p{N}-]+\.fawn$/u);

    // Never a key, memory or a setting.
    const members = unzipSync(new Uint8Array(await bundle.blob.arrayBuffer()));
    expect(Object.keys(members).some((name) => /settings|memory|skills\//.test(name))).toBe(false);
    expect(new TextDecoder("latin1").decode(new Uint8Array(await bundle.blob.arrayBuffer()))).not.toContain("sk-test");

    await gateway.threads.delete(threadId);
    const imported = await gateway.bundles.import(bundle.blob);
    expect(imported.thread_id).toBe(threadId);
    const after = await gateway.threads.get(threadId);
    expect(after?.entries).toEqual(before?.entries);
    expect(after?.todos).toEqual(before?.todos);
    expect(after?.todos?.length).toBe(2);
    expect(await filesOf(gateway, threadId, PATHS)).toEqual(hashes);

    // Imported again while it is here: a thread of its own, the same content.
    const again = await gateway.bundles.import(bundle.blob);
    expect(again.thread_id).not.toBe(threadId);
    expect((await gateway.threads.get(again.thread_id))?.entries).toEqual(before?.entries);
    expect(await filesOf(gateway, again.thread_id, PATHS)).toEqual(hashes);
  });

  it("opens read-only; Continue this thread copies it into a thread of the user's own, on the user's model", async () => {
    const { gateway, mock } = harness;
    const threadId = await richThread(gateway);
    const before = await gateway.threads.get(threadId);
    const hashes = await filesOf(gateway, threadId, PATHS);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    await gateway.threads.delete(threadId);
    const imported = await gateway.bundles.import(bundle.blob);
    expect(imported.read_only).toBe(true);
    expect((await gateway.threads.list())[0]?.read_only).toBe(true);

    // A message to the imported thread is refused with a sentence, and nothing is added.
    const refused = await runThread(gateway, imported.thread_id, "hello again");
    expect(refused).toContainEqual({ event: "error", data: { error: "bad_request", message: READ_ONLY_THREAD } });
    expect((await gateway.threads.get(imported.thread_id))?.entries).toEqual(before?.entries);

    mock.reset();
    const copy = await gateway.bundles.continueThread(imported.thread_id);
    expect(copy.thread_id).not.toBe(imported.thread_id);
    expect(copy.read_only).toBeUndefined();
    expect(copy.title).toBe(before?.title);
    expect((await gateway.threads.get(copy.thread_id))?.entries).toEqual(before?.entries);
    expect(await filesOf(gateway, copy.thread_id, PATHS)).toEqual(hashes);
    const events = await runThread(gateway, copy.thread_id, "hello again");
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });
    expect((mock.requests.at(-1)?.body as { model?: string } | undefined)?.model).toBe("mock-model");
    // The original stays as it came.
    expect((await gateway.threads.get(imported.thread_id))?.entries).toEqual(before?.entries);
    expect((await gateway.threads.get(imported.thread_id))?.read_only).toBe(true);
    await expect(gateway.bundles.continueThread("nope")).rejects.toThrow("There is no thread with id nope.");
  });

  it("imported as the user's own copy (Copy to…) it stays writable and idle, and takes no trust from the file", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const before = await gateway.threads.get(threadId);
    const hashes = await filesOf(gateway, threadId, PATHS);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    // A file that claims trust (tools allowed for the thread) gets none: its approvals are dropped.
    const bytes = new Uint8Array(await bundle.blob.arrayBuffer());
    const members = unzipSync(bytes);
    const recordName = Object.keys(members).find((name) => name.endsWith("thread.json"))!;
    const record = JSON.parse(new TextDecoder().decode(members[recordName])) as { thread: Record<string, unknown> };
    record.thread.approved_tools = ["web_fetch"];
    const claiming = zipSync({ ...members, [recordName]: strToU8(JSON.stringify(record)) });
    const copy = await gateway.bundles.import(claiming, { own: true });
    expect(copy.thread_id).not.toBe(threadId);
    expect(copy.read_only).toBeUndefined();
    expect(copy.status).toBe("idle");
    const stored = await gateway.threads.get(copy.thread_id);
    expect(stored?.approved_tools).toBeUndefined();
    expect(stored?.foreign).toBeUndefined();
    expect(stored?.entries).toEqual(before?.entries);
    expect(await filesOf(gateway, copy.thread_id, PATHS)).toEqual(hashes);
    const events = await runThread(gateway, copy.thread_id, "hello from the copy");
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });
  });

  it("a thread holding another person's messages, or an imported one, arrives read-only even asked as one's own", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const imported = await gateway.bundles.import((await gateway.bundles.export(threadId, "fawn")).blob);
    const continued = await gateway.bundles.continueThread(imported.thread_id);
    expect((await gateway.threads.get(continued.thread_id))?.foreign?.message_ids.length).toBeGreaterThan(0);
    for (const source of [continued.thread_id, imported.thread_id]) {
      const bundle = await gateway.bundles.export(source, "fawn");
      const copy = await gateway.bundles.import(bundle.blob, { own: true });
      expect(copy.read_only).toBe(true);
      // Continue this thread marks every message as another person's again.
      const again = await gateway.bundles.continueThread(copy.thread_id);
      expect((await gateway.threads.get(again.thread_id))?.foreign?.message_ids.length).toBeGreaterThan(0);
    }
  });

  it("replays from its checkpoint history: messages, tool steps and plan updates appear step by step", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    await gateway.threads.delete(threadId);
    const imported = await gateway.bundles.import(bundle.blob);
    const detail = await gateway.threads.get(imported.thread_id);
    const shown = detail?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])) ?? [];

    const replay = await gateway.threads.replay(imported.thread_id);
    const byId = new Map(replay.messages.map((message) => [message.id, message]));
    const kinds = replay.steps.map((step) => step.message_ids.map((id) => byId.get(id)?.type).join(","));
    // The user's message, the reply calling write_todos, its result, the answer; then the second message and answer.
    expect(kinds).toEqual([
      "human",
      "human,ai",
      "human,ai,tool",
      "human,ai,tool,ai",
      "human,ai,tool,ai,human",
      "human,ai,tool,ai,human,ai",
    ]);
    // The plan appears with the step that wrote it, not before.
    expect(replay.steps[0]?.todos).toEqual([]);
    expect(replay.steps.find((step) => step.todos.length > 0)?.message_ids.length).toBe(3);
    // The last step is the thread as it is shown.
    const last = replay.steps.at(-1);
    expect(last?.message_ids.map((id) => byId.get(id))).toEqual(shown);
    expect(last?.todos).toEqual(detail?.todos);
    await expect(gateway.threads.replay("nope")).rejects.toThrow("There is no thread with id nope.");
  });

  it("refuses a changed or foreign archive with one sentence, writing nothing", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const bytes = new Uint8Array(await (await gateway.bundles.export(threadId, "fawn")).blob.arrayBuffer());
    await gateway.threads.delete(threadId);
    const members = unzipSync(bytes);
    const changed = Object.keys(members).find((name) => name.endsWith("/blob.bin")) as string;
    const resized = zipSync({ ...members, [changed]: new Uint8Array(10) });
    const refusal = await gateway.bundles.import(resized).catch((error: Error) => error.message);
    expect(refusal).toMatch(/^The file "\/mnt\/user-data\/outputs\/blob.bin" in the bundle is 10 bytes, not 3092\./);
    const backup = new Uint8Array(await (await gateway.data.export()).blob.arrayBuffer());
    await expect(gateway.bundles.import(backup)).rejects.toThrow(
      'This archive is not a Fawn bundle: its manifest names the format "fawn-backup".',
    );
    await expect(gateway.bundles.import(strToU8("not a zip"))).rejects.toThrow(/not a zip archive/);
    expect(await gateway.threads.list()).toEqual([]);
  });

  it("exports a readable Markdown transcript and DeerFlow's thread.json, which the DeerFlow import reads back", async () => {
    const { gateway } = harness;
    const threadId = await richThread(gateway);
    const before = await gateway.threads.get(threadId);
    const markdown = await (await gateway.bundles.export(threadId, "markdown")).blob.text();
    expect(markdown).toContain(`# ${before?.title}`);
    expect(markdown).toContain("Hello! I am Fawn's mock model.");
    expect(markdown).toContain("/mnt/user-data/outputs/report.md");
    expect(markdown).toContain("Write the report");

    const exported = await gateway.bundles.export(threadId, "deerflow");
    expect(exported.file_name).toMatch(/\.thread\.json$/);
    const imported = await gateway.threads.importDeerFlow({
      thread: JSON.parse(await exported.blob.text()),
      files: [],
    });
    const after = await gateway.threads.get(imported.thread_id);
    const messages = (detail: typeof before) =>
      detail?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
    expect(messages(after)).toEqual(messages(before));
    expect(after?.todos).toEqual(before?.todos);
  });
});
