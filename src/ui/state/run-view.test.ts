import { describe, expect, it } from "vitest";
import type { RunEvent, WireMessage } from "../../protocol/index.ts";
import { applyRunEvent, applyRunEvents, filesBeingWritten, liveMessages, startRunView } from "./run-view.ts";

const chunk = (id: string, content: string, reasoning?: string): RunEvent => ({
  event: "messages",
  data: [
    { type: "AIMessageChunk", id, content, ...(reasoning ? { reasoning } : {}) },
    { langgraph_node: "model_request" },
  ],
});

describe("applyRunEvent", () => {
  it("grows a draft as tokens arrive, keeping reasoning apart from the answer", () => {
    let view = startRunView("r1", "t1", "hello", 0);
    for (const event of [chunk("a", "", "Think"), chunk("a", "Hel"), chunk("a", "lo", "ing"), chunk("a", "!")]) {
      view = applyRunEvent(view, event);
    }
    expect(liveMessages(view)).toEqual([{ type: "ai", id: "a", content: "Hello!", reasoning: "Thinking" }]);
  });

  it("replaces a draft by the completed message from values, skipping the history and the user's message", () => {
    const history: WireMessage[] = [
      { type: "human", id: "h0", content: "earlier" },
      { type: "ai", id: "a0", content: "before" },
    ];
    let view = startRunView("r1", "t1", "again", history.length);
    view = applyRunEvent(view, chunk("a1", "Par"));
    view = applyRunEvent(view, {
      event: "values",
      data: {
        messages: [
          ...history,
          { type: "human", id: "h1", content: "again" },
          { type: "ai", id: "a1", content: "Partly" },
        ],
      },
    });
    expect(liveMessages(view)).toEqual([{ type: "ai", id: "a1", content: "Partly" }]);
    // A late delta of a completed message does not bring a duplicate back.
    expect(liveMessages(applyRunEvent(view, chunk("a1", "ly")))).toHaveLength(1);
  });

  it("records the error and the end", () => {
    let view = startRunView("r1", "t1", "hi", 0);
    view = applyRunEvent(view, { event: "error", data: { error: "authentication", message: "Bad key" } });
    view = applyRunEvent(view, { event: "end", data: { status: "error" } });
    expect(view.error?.message).toBe("Bad key");
    expect(view.ended).toBe(true);
  });

  it("keeps the presented files of the latest values", () => {
    let view = startRunView("r", "t", "hi", 0);
    view = applyRunEvent(view, { event: "values", data: { messages: [], artifacts: ["/mnt/user-data/outputs/a.md"] } });
    expect(view.artifacts).toEqual(["/mnt/user-data/outputs/a.md"]);
    view = applyRunEvent(view, { event: "values", data: { messages: [] } });
    expect(view.artifacts).toEqual(["/mnt/user-data/outputs/a.md"]);
  });
});

describe("applyRunEvent with task events", () => {
  const task = (data: unknown): RunEvent => ({ event: "custom", data });

  it("keeps each subtask's live state from the custom events, in order", () => {
    let view = startRunView("r", "t", "research", 0);
    const events = [
      task({ type: "task_started", task_id: "a", description: "Dig", subagent_type: "bash", model_name: "m" }),
      task({
        type: "task_running",
        task_id: "a",
        message: { type: "ai", id: "s1", content: "Looking" },
        message_index: 1,
        total_messages: 1,
        model_name: "m",
      }),
      task({ type: "task_completed", task_id: "a", result: "Found it", model_name: "m" }),
    ];
    for (const event of events) view = applyRunEvent(view, event);
    expect(view.subtasks.get("a")).toMatchObject({
      description: "Dig",
      subagentType: "bash",
      status: "completed",
      result: "Found it",
      steps: [{ type: "ai", id: "s1", content: "Looking" }],
    });
  });

  it("leaves the view as it is for other custom events and for events after a task ended", () => {
    let view = startRunView("r", "t", "hi", 0);
    expect(applyRunEvent(view, task({ type: "llm_retry", attempt: 1 }))).toBe(view);
    view = applyRunEvent(view, task({ type: "task_failed", task_id: "a", error: "boom", model_name: "m" }));
    expect(applyRunEvent(view, task({ type: "task_completed", task_id: "a", result: "x", model_name: "m" }))).toBe(
      view,
    );
    expect(view.subtasks.get("a")).toMatchObject({ status: "failed", error: "boom" });
  });
});

describe("a tool result that comes before the rest of its step", () => {
  const result = (callId: string, content: string): RunEvent => ({
    event: "messages",
    data: [{ type: "tool", id: `m-${callId}`, tool_call_id: callId, name: "bash", content }, {}],
  });

  it("is shown at once, once, and gives way to the step's values that carry it", () => {
    let view = startRunView("r", "t", "hi", 0);
    view = applyRunEvent(view, result("c1", "first"));
    view = applyRunEvent(view, result("c1", "first"));
    expect(liveMessages(view).map((message) => message.content)).toEqual(["first"]);
    const saved: WireMessage = { type: "tool", id: "s1", tool_call_id: "c1", name: "bash", content: "first" };
    view = applyRunEvent(view, result("c2", "second"));
    view = applyRunEvent(view, {
      event: "values",
      data: { messages: [{ type: "human", id: "h", content: "hi" }, saved] },
    });
    expect(liveMessages(view).map((message) => message.content)).toEqual(["first", "second"]);
    expect(view.results?.map((message) => message.tool_call_id)).toEqual(["c2"]);
    // Already saved: not shown twice.
    expect(applyRunEvent(view, result("c1", "first"))).toBe(view);
  });
});

describe("a model call tried again", () => {
  const retry = { type: "model_retry", attempt: 2, retries: 3, delay_ms: 2000, reason: "unreachable" } as const;

  it("is shown until the model answers", () => {
    let view = applyRunEvent(startRunView("r", "t", "hi", 0), { event: "custom", data: retry });
    expect(view.retry).toEqual(retry);
    view = applyRunEvent(view, chunk("a", "Hi"));
    expect(view.retry).toBeUndefined();
  });

  it("gives way to the error when the tries run out, and is gone when the run ends", () => {
    const waiting = applyRunEvent(startRunView("r", "t", "hi", 0), { event: "custom", data: retry });
    const failed = applyRunEvent(waiting, { event: "error", data: { error: "unreachable", message: "down" } });
    expect(failed.retry).toBeUndefined();
    expect(applyRunEvent(waiting, { event: "end", data: { status: "interrupted" } }).retry).toBeUndefined();
  });

  it("drops the half reply of the call that failed: the retry's reply is the only one shown", () => {
    let view = applyRunEvent(startRunView("r", "t", "hi", 0), chunk("a", "This reply was cut"));
    view = applyRunEvent(view, { event: "custom", data: retry });
    view = applyRunEvent(view, chunk("b", "This reply came whole."));
    expect(liveMessages(view).map((message) => message.content)).toEqual(["This reply came whole."]);
  });

  it("drops the half reply when the run fails mid-way: only the error shows", () => {
    let view = applyRunEvent(startRunView("r", "t", "hi", 0), chunk("a", "This reply was cut"));
    view = applyRunEvent(view, { event: "error", data: { error: "server_error", message: "dropped" } });
    expect(liveMessages(view)).toEqual([]);
    expect(view.error?.message).toBe("dropped");
  });

  it("ignores a retry event that is not well formed", () => {
    const view = startRunView("r", "t", "hi", 0);
    expect(applyRunEvent(view, { event: "custom", data: { ...retry, attempt: "2" } })).toBe(view);
  });
});

describe("a model on this device getting ready to answer", () => {
  const reading = { type: "model_progress", stage: "reading", processed: 512, total: 4096 } as const;

  it("shows its latest stage until the model's first words, and again before its next call", () => {
    let view = applyRunEvent(startRunView("r", "t", "hi", 0), {
      event: "custom",
      data: { type: "model_progress", stage: "loading" },
    });
    expect(view.modelProgress?.stage).toBe("loading");
    view = applyRunEvent(view, { event: "custom", data: reading });
    expect(view.modelProgress).toEqual(reading);
    view = applyRunEvent(view, chunk("a", "Hi"));
    expect(view.modelProgress).toBeUndefined();
    view = applyRunEvent(view, { event: "custom", data: { ...reading, processed: 4000, total: 4200 } });
    expect(view.modelProgress?.processed).toBe(4000);
  });

  it("is gone when the run ends or fails, and when a retry is announced", () => {
    const waiting = applyRunEvent(startRunView("r", "t", "hi", 0), { event: "custom", data: reading });
    expect(applyRunEvent(waiting, { event: "end", data: { status: "interrupted" } }).modelProgress).toBeUndefined();
    const failed = applyRunEvent(waiting, { event: "error", data: { error: "bad_request", message: "too long" } });
    expect(failed.modelProgress).toBeUndefined();
    const retry = { type: "model_retry", attempt: 1, retries: 3, delay_ms: 1000, reason: "server_error" } as const;
    expect(applyRunEvent(waiting, { event: "custom", data: retry }).modelProgress).toBeUndefined();
  });

  it("ignores a progress event that is not well formed", () => {
    const view = startRunView("r", "t", "hi", 0);
    for (const data of [
      { ...reading, stage: "thinking" },
      { ...reading, processed: "512" },
      { ...reading, total: -1 },
      { ...reading, total: Number.NaN },
    ]) {
      expect(applyRunEvent(view, { event: "custom", data })).toBe(view);
    }
  });
});

describe("applyRunEvents", () => {
  it("gives the same view for a batch as for its events one by one", () => {
    const start = startRunView("r", "t", "hi", 0);
    const events: RunEvent[] = [
      chunk("a", "One "),
      chunk("a", "two "),
      { event: "values", data: { messages: [{ type: "human", id: "h", content: "hi" }], todos: [] } },
      chunk("a", "three", "why"),
      chunk("b", "Next"),
      { event: "end", data: { status: "success" } },
    ];
    const oneByOne = events.reduce(applyRunEvent, start);
    const batched = applyRunEvents(start, events);
    expect(batched).toEqual(oneByOne);
    expect(liveMessages(batched)).toEqual([
      { type: "ai", id: "a", content: "One two three", reasoning: "why" },
      { type: "ai", id: "b", content: "Next" },
    ]);
    expect(batched.ended).toBe(true);
  });
});

describe("tool calls while they stream", () => {
  const callChunk = (id: string, pieces: { index: number; id?: string; name?: string; args?: string }[]): RunEvent => ({
    event: "messages",
    data: [{ type: "AIMessageChunk", id, content: "", tool_call_chunks: pieces }, { langgraph_node: "model_request" }],
  });
  const args = JSON.stringify({
    description: "Write it",
    path: "/mnt/user-data/outputs/live.md",
    content: "# Live\n\nline one\nline two\n",
  });

  it("shows a write_file call's file as its content streams in, and no more once the tool answered", () => {
    let view = startRunView("r1", "t1", "write", 0);
    view = applyRunEvent(view, callChunk("a", [{ index: 0, id: "call-1", name: "write_file", args: "" }]));
    expect(filesBeingWritten(view)).toEqual([]);
    const cut = args.indexOf("line two");
    view = applyRunEvent(view, callChunk("a", [{ index: 0, args: args.slice(0, cut) }]));
    expect(filesBeingWritten(view)).toEqual([
      { path: "/mnt/user-data/outputs/live.md", content: "# Live\n\nline one\n", append: false },
    ]);
    view = applyRunEvent(view, callChunk("a", [{ index: 0, args: args.slice(cut) }]));
    expect(filesBeingWritten(view)[0]?.content).toBe("# Live\n\nline one\nline two\n");
    // The step in the conversation shows the call with what has come of its arguments.
    expect(liveMessages(view)[0]).toMatchObject({
      tool_calls: [{ id: "call-1", name: "write_file", args: { path: "/mnt/user-data/outputs/live.md" } }],
    });

    const call = { id: "call-1", name: "write_file", args: JSON.parse(args) as Record<string, unknown> };
    const saved: WireMessage[] = [
      { type: "human", id: "h", content: "write" },
      { type: "ai", id: "a", content: "", tool_calls: [call] },
    ];
    view = applyRunEvent(view, { event: "values", data: { messages: saved } });
    expect(filesBeingWritten(view)).toHaveLength(1);
    expect(view.callDrafts).toEqual({});
    const result: WireMessage = { type: "tool", id: "t", tool_call_id: "call-1", name: "write_file", content: "OK" };
    view = applyRunEvent(view, { event: "values", data: { messages: [...saved, result] } });
    expect(filesBeingWritten(view)).toEqual([]);
  });

  it("keeps two calls of one message apart by their index", () => {
    let view = startRunView("r1", "t1", "write", 0);
    view = applyRunEvent(
      view,
      callChunk("a", [
        { index: 0, id: "c0", name: "bash", args: '{"command": "ls"}' },
        { index: 1, id: "c1", name: "write_file", args: '{"path": "/mnt/user-data/outputs/b.txt", "content": "b' },
      ]),
    );
    expect(liveMessages(view)[0]).toMatchObject({
      tool_calls: [
        { id: "c0", name: "bash", args: { command: "ls" } },
        { id: "c1", name: "write_file", args: { content: "b" } },
      ],
    });
    expect(filesBeingWritten(view).map((file) => file.path)).toEqual(["/mnt/user-data/outputs/b.txt"]);
    expect(filesBeingWritten({ ...view, ended: true })).toEqual([]);
  });
});

describe("approvals", () => {
  const asked = (id: string): RunEvent => ({
    event: "custom",
    data: { type: "approval_requested", approval_id: id, tool_call_id: `c-${id}`, tool: "web_fetch", target: "u" },
  });
  it("shows each waiting call until it is answered, and none once the run has ended", () => {
    let view = applyRunEvents(startRunView("r1", "t1", "go", 0), [asked("a"), asked("b")]);
    expect(view.approvals?.map((approval) => approval.approval_id)).toEqual(["a", "b"]);
    view = applyRunEvent(view, {
      event: "custom",
      data: { type: "approval_resolved", approval_id: "a", decision: "deny" },
    });
    expect(view.approvals?.map((approval) => approval.approval_id)).toEqual(["b"]);
    expect(applyRunEvent(view, { event: "end", data: { status: "interrupted" } }).approvals).toBeUndefined();
    // A malformed event is ignored.
    expect(applyRunEvent(view, { event: "custom", data: { type: "approval_requested" } })).toBe(view);
  });
});
