import { createSignal } from "solid-js";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentRecord, ThreadDetail } from "../../protocol/index.ts";
import { createAgentChoice } from "./agent-choice.ts";

const agent = (name: string): AgentRecord => ({
  name,
  description: "",
  soul: "Be brief.",
  memory: "shared",
  created_at: 1,
  updated_at: 1,
});

const thread = (id: string, agentName?: string): ThreadDetail =>
  ({ thread_id: id, title: id, entries: [], ...(agentName && { agent: agentName }) }) as unknown as ThreadDetail;

/** The store over a workspace whose agents are `names` (or whose server keeps none: `refuse`). */
function setup(names: string[], options: { refuse?: boolean } = {}) {
  const [open, setOpen] = createSignal<ThreadDetail | undefined>();
  const client = {
    agents: {
      list: async () => {
        if (options.refuse) throw new Error("This server keeps no agents.");
        return names.map(agent);
      },
    },
  } as unknown as Parameters<typeof createAgentChoice>[0]["client"];
  return { store: createAgentChoice({ client, thread: open }), setOpen };
}

describe("the agent a message goes to", () => {
  // The page's localStorage, as a Map (the tests run in Node).
  beforeEach(() => {
    const kept = new Map<string, string>();
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
      removeItem: (key: string) => void kept.delete(key),
    });
  });

  it("is Fawn (null) until one is chosen, and names none while the agents are unread", async () => {
    const { store } = setup(["pirate"]);
    expect(store.runAgent()).toEqual({});
    await store.reload();
    expect(store.chosen()).toBeUndefined();
    expect(store.runAgent()).toEqual({ agent: null });
  });

  it("is the open thread's, and a new thread starts with the last choice (kept across page loads)", async () => {
    const first = setup(["pirate", "reviewer"]);
    await first.store.reload();
    first.store.choose("pirate");
    expect(first.store.runAgent()).toEqual({ agent: "pirate" });
    first.setOpen(thread("t1", "reviewer"));
    expect(first.store.chosen()).toBe("reviewer");
    first.setOpen(undefined);
    expect(first.store.chosen()).toBe("pirate");

    const again = setup(["pirate", "reviewer"]);
    await again.store.reload();
    expect(again.store.chosen()).toBe("pirate");
  });

  it("changes in an open thread at once, before its next message is saved with it", async () => {
    const { store, setOpen } = setup(["pirate"]);
    await store.reload();
    setOpen(thread("t1", "pirate"));
    store.choose(undefined);
    expect(store.runAgent()).toEqual({ agent: null });
    setOpen(thread("t2"));
    expect(store.chosen()).toBeUndefined();
    // A message sent from the welcome screen made thread t3: it shows the agent the message went with.
    store.sent("t3", { agent: "pirate" });
    setOpen(thread("t3"));
    expect(store.chosen()).toBe("pirate");
  });

  it("is Fawn for a thread whose agent was deleted, and names none where the server keeps no agents", async () => {
    const { store, setOpen } = setup([]);
    await store.reload();
    setOpen(thread("t1", "gone"));
    expect(store.runAgent()).toEqual({ agent: null });
    const remote = setup([], { refuse: true });
    await remote.store.reload();
    expect(remote.store.agents()).toEqual([]);
    expect(remote.store.runAgent()).toEqual({});
  });
});
