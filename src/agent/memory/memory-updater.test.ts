import "fake-indexeddb/auto";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "langchain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryRepository, openFawnDb } from "../../storage/index.ts";
import { DEFAULT_MEMORY_SETTINGS, emptyMemoryDocument, type MemorySettings } from "../../protocol/index.ts";
import { addFact, MemoryError } from "./memory-document.ts";
import { MEMORY_UPDATE_MARKER } from "./memory-prompt.ts";
import {
  InMemoryMemoryStore,
  MEMORY_QUEUE_MAX_DEPTH,
  MemoryUpdateQueue,
  type MemoryStore,
  type MemoryUpdateQueueDeps,
} from "./memory-updater.ts";

const NOW = new Date("2025-05-01T10:00:00.000Z");

function answer(newFacts: { content: string; confidence: number; category?: string }[], extra: object = {}): AIMessage {
  return new AIMessage(JSON.stringify({ user: {}, history: {}, newFacts, factsToRemove: [], ...extra }));
}

function exchange(userText: string): BaseMessage[] {
  return [new HumanMessage(userText), new AIMessage("Noted.")];
}

function setup(
  model: ReturnType<typeof fakeModel> | undefined,
  settings: Partial<MemorySettings> = {},
  deps: Partial<MemoryUpdateQueueDeps> = {},
) {
  const store = new InMemoryMemoryStore();
  const errors: unknown[] = [];
  const onChange = vi.fn();
  let current: MemorySettings = { ...DEFAULT_MEMORY_SETTINGS, debounceSeconds: 30, ...settings };
  const queue = new MemoryUpdateQueue({
    settings: async () => current,
    store,
    createModel: async () => model,
    now: () => NOW,
    onChange,
    onError: (error) => errors.push(error),
    ...deps,
  });
  return {
    queue,
    store,
    errors,
    onChange,
    setSettings: (patch: Partial<MemorySettings>) => (current = { ...current, ...patch }),
  };
}

const contents = async (store: InMemoryMemoryStore) => (await store.read()).facts.map((fact) => fact.content);

afterEach(() => {
  vi.useRealTimers();
});

describe("MemoryUpdateQueue", () => {
  it("learns from a queued conversation with one model call when flushed", async () => {
    const model = fakeModel().respond(answer([{ content: "User prefers dark roast coffee", confidence: 0.95 }]));
    const { queue, store, onChange, errors } = setup(model);
    await queue.enqueue("thread-1", exchange("I prefer dark roast coffee."));
    expect(queue.pending()).toBe(1);
    await queue.flush();

    expect(queue.pending()).toBe(0);
    expect(errors).toEqual([]);
    expect(onChange).toHaveBeenCalledTimes(1);
    const doc = await store.read();
    expect(doc.facts).toMatchObject([
      { content: "User prefers dark roast coffee", source: "thread-1", confidence: 0.95 },
    ]);
    expect(doc.lastUpdated).toBe(NOW.toISOString());

    expect(model.callCount).toBe(1);
    const [system, user] = model.calls[0]?.messages ?? [];
    expect(system?.type).toBe("system");
    expect(system?.text.split("\n")[0]).toBe(MEMORY_UPDATE_MARKER);
    expect(user?.type).toBe("human");
    expect(user?.text).toContain(
      "<conversation>\nUser: I prefer dark roast coffee.\n\nAssistant: Noted.\n</conversation>",
    );
  });

  it("does nothing when memory is off or the conversation holds nothing to learn from", async () => {
    const model = fakeModel();
    const off = setup(model, { enabled: false });
    await off.queue.enqueue("thread-1", exchange("I prefer tea."));
    expect(off.queue.pending()).toBe(0);

    const on = setup(model);
    await on.queue.enqueue("thread-1", []);
    await on.queue.enqueue("thread-2", [
      new AIMessage({ content: "", tool_calls: [{ id: "c", name: "ls", args: {} }] }),
    ]);
    expect(on.queue.pending()).toBe(0);
    await on.queue.flush();
    expect(model.callCount).toBe(0);
  });

  it("keeps only the latest conversation of a thread", async () => {
    const model = fakeModel().respond(answer([])).respond(answer([]));
    const { queue } = setup(model);
    await queue.enqueue("thread-1", exchange("First version."));
    await queue.enqueue("thread-2", exchange("Other thread."));
    await queue.enqueue("thread-1", exchange("First version, then more."));
    expect(queue.pending()).toBe(2);
    await queue.flush();
    expect(model.callCount).toBe(2);
    const conversations = model.calls.map((call) => call.messages[1]?.text ?? "");
    expect(conversations[0]).toContain("Other thread.");
    expect(conversations[1]).toContain("First version, then more.");
    expect(conversations.join("")).not.toContain("First version.\n");
  });

  it("waits for the debounce, restarted by each enqueue", async () => {
    vi.useFakeTimers();
    const model = fakeModel().respond(answer([{ content: "User likes jazz", confidence: 0.9 }]));
    const { queue, store, onChange } = setup(model, { debounceSeconds: 30 });
    await queue.enqueue("thread-1", exchange("I like jazz."));
    await vi.advanceTimersByTimeAsync(29_000);
    await queue.enqueue("thread-1", exchange("I like jazz a lot."));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(model.callCount).toBe(0);
    expect(queue.pending()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(model.callCount).toBe(1);
    expect(await contents(store)).toEqual(["User likes jazz"]);
  });

  it("runs on the next tick with a debounce of 0", async () => {
    const model = fakeModel().respond(answer([{ content: "User uses Vim", confidence: 0.9 }]));
    const { queue, store, onChange } = setup(model, { debounceSeconds: 0 });
    await queue.enqueue("thread-1", exchange("I use Vim."));
    await vi.waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(await contents(store)).toEqual(["User uses Vim"]);
  });

  it("applies the answer to the memory as it is when the answer arrives", async () => {
    const store = new InMemoryMemoryStore();
    const model = fakeModel().respond(() => {
      // The user adds a fact by hand while the model is thinking.
      void store.update((doc) => addFact(doc, { content: "User lives in Oslo" }, { now: NOW, maxFacts: 100 }));
      return answer([{ content: "User likes skiing", confidence: 0.9 }]);
    });
    const { queue, errors } = setup(model, {}, { store });
    await queue.enqueue("thread-1", exchange("I like skiing."));
    await queue.flush();
    expect(errors).toEqual([]);
    expect(await contents(store)).toEqual(["User lives in Oslo", "User likes skiing"]);
  });

  it("uses the settings' threshold and cap", async () => {
    const model = fakeModel().respond(
      answer([
        { content: "Sure thing", confidence: 0.95 },
        { content: "Likely thing", confidence: 0.85 },
        { content: "Another sure thing", confidence: 0.92 },
      ]),
    );
    const { queue, store } = setup(model, { factConfidenceThreshold: 0.9, maxFacts: 1 });
    await queue.enqueue("thread-1", exchange("Hello."));
    await queue.flush();
    expect(await contents(store)).toEqual(["Sure thing"]);
  });

  it("reports failures without throwing and goes on with the next thread", async () => {
    const model = fakeModel()
      .respond(new Error("503 Service Unavailable"))
      .respond(new AIMessage("I could not produce JSON, sorry."))
      .respond(answer([{ content: "User codes in Go", confidence: 0.9 }]));
    const { queue, store, errors, onChange } = setup(model);
    await queue.enqueue("thread-1", exchange("One."));
    await queue.enqueue("thread-2", exchange("Two."));
    await queue.enqueue("thread-3", exchange("I code in Go."));
    await expect(queue.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(2);
    expect(String(errors[0])).toContain("503");
    expect(errors[1]).toBeInstanceOf(MemoryError);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(await contents(store)).toEqual(["User codes in Go"]);
  });

  it("reports a storage failure", async () => {
    const model = fakeModel().respond(answer([{ content: "x", confidence: 0.9 }]));
    const failing = new InMemoryMemoryStore();
    failing.update = async () => {
      throw new Error("QuotaExceededError");
    };
    const { queue, errors } = setup(model, {}, { store: failing });
    await queue.enqueue("thread-1", exchange("Hi."));
    await queue.flush();
    expect(String(errors[0])).toContain("QuotaExceededError");
  });

  it("skips the update when there is no model or memory was turned off meanwhile", async () => {
    const none = setup(undefined);
    await none.queue.enqueue("thread-1", exchange("Hi."));
    await none.queue.flush();
    expect(none.errors).toEqual([]);
    expect(none.onChange).not.toHaveBeenCalled();

    const model = fakeModel().respond(answer([{ content: "x", confidence: 0.9 }]));
    const off = setup(model);
    await off.queue.enqueue("thread-1", exchange("Hi."));
    off.setSettings({ enabled: false });
    await off.queue.flush();
    expect(model.callCount).toBe(0);
  });

  it("drops the oldest waiting thread beyond 1000", async () => {
    const { queue } = setup(fakeModel());
    for (let index = 0; index <= MEMORY_QUEUE_MAX_DEPTH; index++)
      await queue.enqueue(`thread-${index}`, exchange("Hi."));
    expect(queue.pending()).toBe(MEMORY_QUEUE_MAX_DEPTH);
    queue.clear();
    expect(queue.pending()).toBe(0);
  });

  it("forgets cleared work, timer included", async () => {
    vi.useFakeTimers();
    const model = fakeModel().respond(answer([]));
    const { queue } = setup(model, { debounceSeconds: 1 });
    await queue.enqueue("thread-1", exchange("Hi."));
    queue.clear();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(model.callCount).toBe(0);
  });

  it("does not keep Node alive while it waits", async () => {
    const unref = vi.fn();
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, ms?: number) => {
      const timer = realSetTimeout(callback, ms);
      timer.unref = unref.mockReturnValue(timer);
      return timer;
    }) as typeof setTimeout);
    try {
      const { queue } = setup(fakeModel(), { debounceSeconds: 30 });
      await queue.enqueue("thread-1", exchange("Hi."));
      expect(unref).toHaveBeenCalled();
      queue.clear();
    } finally {
      spy.mockRestore();
    }
  });

  it("hands the model a correction hint when the user corrected the agent", async () => {
    const model = fakeModel().respond(answer([]));
    const { queue } = setup(model);
    await queue.enqueue("thread-1", [
      new HumanMessage("That's wrong, I use pnpm."),
      new AIMessage("Sorry, pnpm it is."),
    ]);
    await queue.flush();
    expect(model.calls[0]?.messages[1]?.text).toMatch(/corrected the assistant/);
  });
});

describe("MemoryUpdateQueue over IndexedDB", () => {
  it("saves what it learns through storage's MemoryRepository", async () => {
    const store: MemoryStore = new MemoryRepository(await openFawnDb("memory-updater-test"));
    const model = fakeModel().respond(answer([{ content: "User writes Rust", confidence: 0.9 }]));
    const { queue, errors } = setup(model, {}, { store });
    await queue.enqueue("thread-1", exchange("I write Rust."));
    await queue.flush();
    expect(errors).toEqual([]);
    expect((await store.read()).facts.map((fact) => fact.content)).toEqual(["User writes Rust"]);
  });
});

describe("InMemoryMemoryStore", () => {
  it("starts empty and keeps what update returns, handing out copies", async () => {
    const store = new InMemoryMemoryStore();
    expect(await store.read()).toEqual(emptyMemoryDocument());
    const next = await store.update((doc) => addFact(doc, { content: "A" }, { now: NOW, maxFacts: 10 }));
    next.facts.length = 0;
    expect((await store.read()).facts).toHaveLength(1);
  });
});
