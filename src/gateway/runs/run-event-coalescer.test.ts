import { describe, expect, it } from "vitest";
import type { AiWireMessageChunk, MessageStreamMetadata, RunEvent } from "../../protocol/index.ts";
import { createRunEventCoalescer, RUN_EVENT_BATCH_MS, type BatchTimer } from "./run-event-coalescer.ts";

/** A timer that fires only when told. */
function manualTimer() {
  const pending: { callback: () => void; ms: number }[] = [];
  const timer: BatchTimer = {
    set(callback, ms) {
      const entry = { callback, ms };
      pending.push(entry);
      return () => pending.splice(pending.indexOf(entry), 1);
    },
  };
  return {
    timer,
    pending,
    fire() {
      for (const entry of pending.splice(0)) entry.callback();
    },
  };
}

const meta: MessageStreamMetadata = { langgraph_node: "model", langgraph_step: 1 };

function piece(id: string, content: string, extra: Partial<AiWireMessageChunk> = {}, at = meta): RunEvent {
  return { event: "messages", data: [{ type: "AIMessageChunk", id, content, ...extra }, at] };
}

function collect() {
  const batches: RunEvent[][] = [];
  const clock = manualTimer();
  const coalescer = createRunEventCoalescer((events) => {
    batches.push(events);
  }, clock.timer);
  return { batches, clock, coalescer };
}

describe("createRunEventCoalescer", () => {
  it("sends a frame's tokens as one message holding one piece of text", () => {
    const { batches, clock, coalescer } = collect();
    for (const word of ["The ", "cat ", "sat"]) coalescer.push(piece("a1", word));
    expect(batches).toEqual([]);
    expect(clock.pending.map((entry) => entry.ms)).toEqual([RUN_EVENT_BATCH_MS]);
    clock.fire();
    expect(batches).toEqual([[piece("a1", "The cat sat")]]);
  });

  it("sends an error or the end at once, with everything before it, in order", () => {
    const { batches, clock, coalescer } = collect();
    coalescer.push(piece("a1", "Hi"));
    coalescer.push({ event: "values", data: { messages: [] } });
    coalescer.push({ event: "end", data: { status: "success" } });
    expect(batches).toEqual([
      [piece("a1", "Hi"), { event: "values", data: { messages: [] } }, { event: "end", data: { status: "success" } }],
    ]);
    expect(clock.pending).toEqual([]);
  });

  it("keeps pieces of different replies, steps or with usage apart", () => {
    const { batches, clock, coalescer } = collect();
    const usage = { input_tokens: 3, output_tokens: 2, total_tokens: 5 };
    coalescer.push(piece("a1", "one"));
    coalescer.push(piece("a2", "two"));
    coalescer.push(piece("a2", "three", {}, { langgraph_node: "model", langgraph_step: 3 }));
    coalescer.push(piece("a2", "!", { usage_metadata: usage }, { langgraph_node: "model", langgraph_step: 3 }));
    coalescer.push(piece("a2", "late", {}, { langgraph_node: "model", langgraph_step: 3 }));
    clock.fire();
    expect(batches[0]?.map((event) => (event.event === "messages" ? event.data[0].content : event.event))).toEqual([
      "one",
      "two",
      "three!",
      "late",
    ]);
  });

  it("joins a tool call's argument pieces and keeps the next call apart", () => {
    const events: RunEvent[] = [
      piece("a1", "", { tool_call_chunks: [{ index: 0, id: "c1", name: "write_file", args: '{"path":' }] }),
      piece("a1", "", { tool_call_chunks: [{ index: 0, args: '"/mnt/user-data/outputs/a.md",' }] }),
      piece("a1", "", { tool_call_chunks: [{ index: 0, args: '"content":"# Hi"}' }] }),
      piece("a1", "", { tool_call_chunks: [{ index: 1, id: "c2", name: "bash", args: '{"command":"ls"}' }] }),
      piece("a1", "", { reasoning: "Thinking" }),
    ];
    const { batches, clock, coalescer } = collect();
    for (const event of events) coalescer.push(event);
    clock.fire();
    expect(batches[0]).toHaveLength(1);
    const joined = batches[0]![0]!;
    expect(joined.event === "messages" && joined.data[0].type === "AIMessageChunk" && joined.data[0]).toMatchObject({
      tool_call_chunks: [
        { index: 0, id: "c1", name: "write_file", args: '{"path":"/mnt/user-data/outputs/a.md","content":"# Hi"}' },
        { index: 1, id: "c2", name: "bash", args: '{"command":"ls"}' },
      ],
      reasoning: "Thinking",
    });
  });

  it("starts a new batch after each send", () => {
    const { batches, clock, coalescer } = collect();
    coalescer.push(piece("a1", "a"));
    clock.fire();
    coalescer.push(piece("a1", "b"));
    coalescer.flush();
    expect(batches).toEqual([[piece("a1", "a")], [piece("a1", "b")]]);
    expect(clock.pending).toEqual([]);
  });
});

describe("createRunEventCoalescer with a listener that says when it is ready", () => {
  it("holds the next batch until the listener has settled the last one, then sends it at once, joined", async () => {
    const batches: RunEvent[][] = [];
    const clock = manualTimer();
    let ready!: () => void;
    const coalescer = createRunEventCoalescer((events) => {
      batches.push(events);
      return new Promise<void>((resolve) => (ready = resolve));
    }, clock.timer);
    coalescer.push(piece("a1", "The "));
    clock.fire();
    expect(batches).toEqual([[piece("a1", "The ")]]);
    // The page is still drawing: nothing more leaves, and no timer is set for it.
    coalescer.push(piece("a1", "cat "));
    coalescer.push(piece("a1", "sat"));
    expect(clock.pending).toEqual([]);
    expect(batches).toHaveLength(1);
    ready();
    await Promise.resolve();
    expect(batches).toEqual([[piece("a1", "The ")], [piece("a1", "cat sat")]]);
  });

  it("sends the end at once even while the listener is busy, and sends on after a listener that failed", async () => {
    const batches: RunEvent[][] = [];
    const clock = manualTimer();
    let fail!: (error: Error) => void;
    const coalescer = createRunEventCoalescer((events) => {
      batches.push(events);
      return new Promise<void>((_resolve, reject) => (fail = reject));
    }, clock.timer);
    coalescer.push(piece("a1", "Hi"));
    coalescer.flush();
    coalescer.push(piece("a1", " there"));
    fail(new Error("the page went away"));
    await Promise.resolve();
    await Promise.resolve();
    expect(batches).toEqual([[piece("a1", "Hi")], [piece("a1", " there")]]);
    coalescer.push(piece("a1", "!"));
    coalescer.push({ event: "end", data: { status: "success" } });
    expect(batches.at(-1)).toEqual([piece("a1", "!"), { event: "end", data: { status: "success" } }]);
  });
});
