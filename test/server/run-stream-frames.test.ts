// Fawn's run stream end to end in its wire form: each RunEvent the Fawn server writes as an SSE frame
// (server/langgraph/sse.ts) reads back as the same RunEvent by the server workspace's reader
// (src/gateway/runs/langgraph-stream-events.ts); `end` is never sent, the stream's close is the end.
import { describe, expect, it } from "vitest";
import { runEventOf } from "../../src/gateway/runs/langgraph-stream-events.ts";
import { STREAM_MODES } from "../../src/gateway/runs/langgraph-stream-parts.ts";
import type { RunEvent } from "../../src/protocol/index.ts";
import { eventFilter, sseFrame, streamModes } from "../../server/langgraph/sse.ts";
import type { StoredRunEvent } from "../../server/runs/index.ts";

const EVENTS: RunEvent[] = [
  { event: "metadata", data: { run_id: "r1", thread_id: "t1" } },
  {
    event: "values",
    data: {
      messages: [
        { type: "human", id: "h1", content: "hi", files: [{ filename: "a.csv", size: 3, virtual_path: "/mnt/a.csv" }] },
        { type: "ai", id: "a1", content: "hello", tool_calls: [{ id: "c1", name: "bash", args: { command: "ls" } }] },
        { type: "tool", id: "x1", content: "ok", tool_call_id: "c1", name: "bash", status: "success" },
      ],
      todos: [{ content: "Plan", status: "pending" }],
    },
  },
  {
    event: "messages",
    data: [{ type: "AIMessageChunk", id: "a1", content: "hel", reasoning: "hm" }, { langgraph_node: "model" }],
  },
  {
    event: "messages",
    data: [{ type: "tool", id: "x1", content: "ok", tool_call_id: "c1", artifact: { human_input: 1 } }, {}],
  },
  { event: "updates", data: { model: { messages: [] } } },
  { event: "custom", data: { type: "task_started", task_id: "t" } },
  { event: "error", data: { error: "rate_limited", message: "Slow down." } },
];

describe("Fawn's SSE frames", () => {
  it("read back as the same RunEvents by the server workspace's reader, end never sent", () => {
    const keep = eventFilter(streamModes([...STREAM_MODES]));
    expect(keep({ seq: 99, event: "end", data: { status: "success" } })).toBe(false);
    for (const [index, sent] of EVENTS.entries()) {
      expect(keep({ seq: index + 1, ...sent } as StoredRunEvent)).toBe(true);
      const frame = sseFrame({ seq: index + 1, ...sent } as StoredRunEvent);
      const name = /^event: (.*)$/m.exec(frame)?.[1] ?? "";
      const data: unknown = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null");
      expect(runEventOf({ event: name, data }, "r1")).toEqual(sent);
    }
  });
});
