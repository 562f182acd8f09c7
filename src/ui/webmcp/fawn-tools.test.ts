// The WebMCP tools over fake stores: each calls the store function the page's control calls, answers what it shows,
// and meets the same refusals (a read-only thread, a reply still being written, an unknown thread, a bad input).
import { describe, expect, it } from "vitest";
import type { ThreadDetail, ThreadSummary } from "../../protocol/index.ts";
import type { Stores } from "../state/stores.tsx";
import { createFawnTools, type ToolResult } from "./fawn-tools.ts";
import { FAWN_TOOL_DEFINITIONS } from "./tool-definitions.ts";

const summary = (id: string, title: string): ThreadSummary => ({
  thread_id: id,
  title,
  created_at: 0,
  updated_at: Date.UTC(2026, 0, 2),
  status: "idle",
});

/** Stores holding `threads`, whose send appends the mock model's "You said: …" reply; `calls` records what ran. */
function fakeStores(threads: ThreadDetail[]) {
  const calls: string[] = [];
  let open: ThreadDetail | undefined;
  let running = false;
  const stores = {
    threadList: {
      refresh: async () => void calls.push("refresh"),
      threads: () => threads,
      export: async (id: string, format: string) => {
        calls.push(`export ${id} ${format}`);
        return { file_name: `${id}.md`, blob: new Blob([`# ${id}`]) };
      },
    },
    client: {
      threads: {
        search: async (query: string) => ({
          total: 1,
          indexing: false,
          hits: [{ thread: threads[0]!, title_highlights: [], snippet: { text: `…${query}…`, highlights: [] } }],
        }),
        get: async (id: string) => threads.find((thread) => thread.thread_id === id),
      },
    },
    openThread: {
      current: () => open,
      canReply: () => !open?.read_only,
      open: async (id: string | undefined) => {
        calls.push(`open ${id}`);
        open = threads.find((thread) => thread.thread_id === id);
      },
      newThread: async () => {
        calls.push("new thread");
        open = undefined;
      },
      ensure: async () => {
        if (!open) {
          open = { ...summary(`t${threads.length + 1}`, "New thread"), entries: [] };
          threads.push(open);
        }
        return open;
      },
    },
    runs: {
      run: () => (running ? { runId: "r" } : undefined),
      send: async (text: string) => {
        calls.push(`send ${text}`);
        open!.entries.push(
          { kind: "message", message: { type: "human", id: `h${open!.entries.length}`, content: text } },
          { kind: "message", message: { type: "ai", id: `a${open!.entries.length}`, content: `You said: ${text}` } },
        );
      },
    },
    notices: { notice: () => undefined },
  };
  return {
    stores: stores as unknown as Stores,
    calls,
    setRunning: (value: boolean) => (running = value),
  };
}

const tool = (name: string) => FAWN_TOOL_DEFINITIONS.find((definition) => definition.name === name)!;
const text = (result: ToolResult) => result.content[0]!.text;
const json = (result: ToolResult) => JSON.parse(text(result)) as Record<string, unknown>;

describe("Fawn's WebMCP tools", () => {
  const threads = (): ThreadDetail[] => [
    {
      ...summary("t1", "Trip plan"),
      entries: [
        { kind: "message", message: { type: "human", id: "h1", content: "plan a trip" } },
        { kind: "message", message: { type: "ai", id: "a1", content: "Here is a plan." } },
      ],
    },
    { ...summary("t2", "Imported"), read_only: true, entries: [] },
  ];

  it("list the sidebar's threads after reading them again", async () => {
    const fake = fakeStores(threads());
    const result = json(await createFawnTools(() => fake.stores)(tool("list_threads"), { limit: 1 }));
    expect(fake.calls).toEqual(["refresh"]);
    expect(result).toEqual({
      total: 2,
      threads: [{ thread_id: "t1", title: "Trip plan", updated_at: "2026-01-02T00:00:00.000Z", status: "idle" }],
    });
  });

  it("search as the search box does, with the passage around the match", async () => {
    const fake = fakeStores(threads());
    const result = json(await createFawnTools(() => fake.stores)(tool("search_threads"), { query: "trip" }));
    expect(result).toMatchObject({ total: 1, threads: [{ thread_id: "t1", passage: "…trip…" }] });
  });

  it("open a thread on screen and answer its messages as text", async () => {
    const fake = fakeStores(threads());
    const result = json(await createFawnTools(() => fake.stores)(tool("open_thread"), { thread_id: "t1" }));
    expect(fake.calls).toEqual(["open t1"]);
    expect(result).toMatchObject({
      title: "Trip plan",
      messages: [
        { role: "user", text: "plan a trip" },
        { role: "assistant", text: "Here is a plan." },
      ],
    });
  });

  it("start a thread: New thread, then Send, answering the reply and the new thread's id", async () => {
    const fake = fakeStores(threads());
    const result = json(await createFawnTools(() => fake.stores)(tool("start_thread"), { message: "hello" }));
    expect(fake.calls).toEqual(["new thread", "send hello"]);
    expect(result).toMatchObject({ thread_id: "t3", reply: "You said: hello", status: "idle" });
  });

  it("send in the thread named, answering only this run's reply", async () => {
    const fake = fakeStores(threads());
    const call = createFawnTools(() => fake.stores);
    const result = json(await call(tool("send_message"), { thread_id: "t1", message: "and back" }));
    expect(fake.calls).toEqual(["open t1", "send and back"]);
    expect(result).toMatchObject({ thread_id: "t1", reply: "You said: and back" });
  });

  it("refuse what the page refuses: a read-only thread, a reply being written, an unknown thread", async () => {
    const fake = fakeStores(threads());
    const call = createFawnTools(() => fake.stores);
    const readOnly = await call(tool("send_message"), { thread_id: "t2", message: "hi" });
    expect(readOnly.isError).toBe(true);
    expect(text(readOnly)).toMatch(/read-only/);
    await call(tool("open_thread"), { thread_id: "t1" });
    fake.setRunning(true);
    const busy = await call(tool("send_message"), { message: "hi" });
    expect(text(busy)).toMatch(/still being written/);
    const unknown = await call(tool("open_thread"), { thread_id: "nope" });
    expect(unknown).toEqual({ isError: true, content: [{ type: "text", text: "No thread has the id nope." }] });
    expect(fake.calls.filter((entry) => entry.startsWith("send"))).toEqual([]);
  });

  it("refuse an input outside the schema without calling a store, and say Fawn is starting when it is", async () => {
    const fake = fakeStores(threads());
    const bad = await createFawnTools(() => fake.stores)(tool("send_message"), { message: "" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/send_message's schema/);
    expect(fake.calls).toEqual([]);
    const starting = await createFawnTools(() => undefined)(tool("list_threads"), {});
    expect(text(starting)).toMatch(/still starting/);
  });

  it("export as Thread actions → Export does (the file downloads), answering a transcript as text", async () => {
    const fake = fakeStores(threads());
    const call = createFawnTools(() => fake.stores);
    const result = json(await call(tool("export_thread"), { thread_id: "t1" }));
    expect(fake.calls).toEqual(["export t1 markdown"]);
    expect(result).toEqual({ file_name: "t1.md", size: 4, downloaded: true, text: "# t1" });
    // JSON text, as some WebMCP versions hand the input over.
    expect(json(await call(tool("export_thread"), JSON.stringify({ thread_id: "t1", format: "fawn" })))).toEqual({
      file_name: "t1.md",
      size: 4,
      downloaded: true,
    });
  });
});
