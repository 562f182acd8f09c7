import { describe, expect, it } from "vitest";
import type { SubtaskOutcome, TaskEvent, ToolWireMessage, WireMessage } from "../../protocol/index.ts";
import {
  applyTaskEvent,
  mergeSubtask,
  mergeSubtasks,
  outcomeOfText,
  stepSummary,
  subtasksFromMessages,
  type Subtask,
  type Subtasks,
} from "./subtasks.ts";

const lead = (...ids: string[]): WireMessage => ({
  type: "ai",
  id: "lead",
  content: "",
  tool_calls: ids.map((id) => ({
    id,
    name: "task",
    args: { description: `Research ${id}`, prompt: `Find out about ${id}.`, subagent_type: "general-purpose" },
  })),
});

const result = (id: string, content: string, artifact?: SubtaskOutcome, status?: "error"): ToolWireMessage => ({
  type: "tool",
  id: `result-${id}`,
  tool_call_id: id,
  name: "task",
  content,
  ...(artifact && { artifact }),
  ...(status && { status }),
});

const step = (id: string, text: string): WireMessage => ({ type: "ai", id, content: text });
const usage = (total: number) => ({ input_tokens: total - 1, output_tokens: 1, total_tokens: total });

const apply = (events: TaskEvent[], from: Subtasks = new Map()): Subtasks => events.reduce(applyTaskEvent, from);

describe("subtasksFromMessages", () => {
  it("makes a pending subtask of each task call, and leaves other tool calls alone", () => {
    const message: WireMessage = {
      type: "ai",
      id: "m",
      content: "",
      tool_calls: [
        { id: "t1", name: "task", args: { description: "Survey", prompt: "Look around.", subagent_type: "bash" } },
        { id: "b1", name: "bash", args: { command: "ls" } },
      ],
    };
    const subtasks = subtasksFromMessages([message]);
    expect([...subtasks.keys()]).toEqual(["t1"]);
    expect(subtasks.get("t1")).toEqual({
      id: "t1",
      description: "Survey",
      subagentType: "bash",
      prompt: "Look around.",
      status: "pending",
      steps: [],
      stepIndexes: [],
    });
  });

  it("rebuilds a finished subtask from its result's artifact after a reload", () => {
    const steps = [step("s1", "Searching"), result("x", "found it")];
    const subtasks = subtasksFromMessages([
      lead("a"),
      result("a", "Task Succeeded. Result: (text the artifact overrides)", {
        subagent_status: "completed",
        subagent_type: "general-purpose",
        subagent_result_brief: "**Found** three sources.",
        subagent_model_name: "gpt-x",
        subagent_token_usage: usage(120),
        subagent_stop_reason: "turn_capped",
        subagent_steps: steps,
      }),
    ]);
    expect(subtasks.get("a")).toMatchObject({
      description: "Research a",
      status: "completed",
      result: "**Found** three sources.",
      modelName: "gpt-x",
      usage: usage(120),
      stopReason: "turn_capped",
      steps,
      stepIndexes: [1, 2],
    });
  });

  it("reads the outcome from a failed artifact even when the text says otherwise", () => {
    const subtasks = subtasksFromMessages([
      lead("a"),
      result("a", "Task Succeeded. Result: ok", {
        subagent_status: "failed",
        subagent_type: "bash",
        subagent_error: "Sandbox unavailable",
      }),
    ]);
    expect(subtasks.get("a")).toMatchObject({ status: "failed", error: "Sandbox unavailable" });
    expect(subtasks.get("a")?.result).toBeUndefined();
  });

  it("parses DeerFlow's result text when there is no artifact", () => {
    const subtasks = subtasksFromMessages([
      lead("a", "b", "c", "d", "e"),
      result("a", "Task Succeeded. Result: The answer is 42."),
      result("b", "Task failed. Error: Unknown subagent type 'x'."),
      result("c", "Task cancelled by user."),
      result("d", "Task timed out. Error: after 900 seconds"),
      result("e", "The sandbox is gone", undefined, "error"),
    ]);
    expect(subtasks.get("a")).toMatchObject({ status: "completed", result: "The answer is 42." });
    expect(subtasks.get("b")).toMatchObject({ status: "failed", error: "Unknown subagent type 'x'." });
    expect(subtasks.get("c")).toMatchObject({ status: "cancelled" });
    expect(subtasks.get("c")?.error).toBeUndefined();
    expect(subtasks.get("d")).toMatchObject({ status: "timed_out", error: "after 900 seconds" });
    expect(subtasks.get("e")).toMatchObject({ status: "failed", error: "The sandbox is gone" });
  });

  it("ignores an artifact that is not a subtask outcome", () => {
    const subtasks = subtasksFromMessages([
      lead("a"),
      { ...result("a", "Task failed. Error: boom"), artifact: { subagent_status: "exploded" } },
    ]);
    expect(subtasks.get("a")).toMatchObject({ status: "failed", error: "boom" });
  });
});

describe("outcomeOfText", () => {
  it("knows every legacy prefix", () => {
    expect(outcomeOfText("Task Succeeded (capped: turn budget). Result: partial")).toEqual({
      status: "completed",
      result: "partial",
    });
    expect(outcomeOfText("Task cancelled by user. Error: stopped")).toEqual({ status: "cancelled", error: "stopped" });
    expect(outcomeOfText("Task timed out.")).toEqual({ status: "timed_out" });
    expect(outcomeOfText("Task polling timed out after 15 minutes.")).toMatchObject({ status: "timed_out" });
    expect(outcomeOfText("Error: Task t1 disappeared")).toEqual({ status: "failed", error: "Task t1 disappeared" });
  });

  it("takes other text as the result, or as the error of a result marked as one", () => {
    expect(outcomeOfText("Done.")).toEqual({ status: "completed", result: "Done." });
    expect(outcomeOfText("It broke", true)).toEqual({ status: "failed", error: "It broke" });
  });
});

describe("applyTaskEvent", () => {
  const started: TaskEvent = {
    type: "task_started",
    task_id: "a",
    description: "Research a",
    subagent_type: "general-purpose",
    model_name: "gpt-x",
  };
  const running = (
    index: number,
    message: WireMessage,
    total = index,
  ): Extract<TaskEvent, { type: "task_running" }> => ({
    type: "task_running",
    task_id: "a",
    message,
    message_index: index,
    total_messages: total,
    usage: usage(10 * index),
    model_name: "gpt-x",
  });

  it("follows a task's events in order: started, steps, completed", () => {
    const bash: WireMessage = { type: "tool", id: "s2", tool_call_id: "c", name: "bash", content: "ok" };
    const subtasks = apply([
      started,
      running(1, step("s1", "Let me look")),
      running(2, bash),
      { type: "task_completed", task_id: "a", result: "All done", usage: usage(30), model_name: "gpt-x" },
    ]);
    expect(subtasks.get("a")).toEqual({
      id: "a",
      description: "Research a",
      subagentType: "general-purpose",
      prompt: "",
      status: "completed",
      steps: [step("s1", "Let me look"), bash],
      stepIndexes: [1, 2],
      result: "All done",
      modelName: "gpt-x",
      usage: usage(30),
    });
  });

  it("adds a step once, however often its message_index arrives, and keeps steps in index order", () => {
    const subtasks = apply([
      started,
      running(2, step("s2", "second")),
      running(1, step("s1", "first")),
      running(2, step("s2", "second again")),
    ]);
    expect(subtasks.get("a")?.steps.map((message) => message.id)).toEqual(["s1", "s2"]);
    expect(subtasks.get("a")?.stepIndexes).toEqual([1, 2]);
    expect(subtasks.get("a")?.usage).toEqual(usage(20));
  });

  it("ignores events after the task ended", () => {
    const ended = apply([started, { type: "task_failed", task_id: "a", error: "boom", model_name: "gpt-x" }]);
    const after = apply(
      [running(1, step("s1", "late")), { type: "task_completed", task_id: "a", result: "no", model_name: "gpt-x" }],
      ended,
    );
    expect(after).toBe(ended);
    expect(after.get("a")).toMatchObject({ status: "failed", error: "boom", steps: [] });
  });

  it("creates a task it has not seen from its first event", () => {
    const subtasks = apply([running(1, step("s1", "hi"))]);
    expect(subtasks.get("a")).toMatchObject({ id: "a", status: "running", steps: [step("s1", "hi")] });
  });

  it("records cancellation and timeouts with their reasons", () => {
    const subtasks = apply([
      started,
      { ...started, task_id: "b" },
      { type: "task_cancelled", task_id: "a", model_name: "gpt-x" },
      { type: "task_timed_out", task_id: "b", error: "after 10 s", model_name: "gpt-x" },
    ]);
    expect(subtasks.get("a")?.status).toBe("cancelled");
    expect(subtasks.get("a")?.error).toBeUndefined();
    expect(subtasks.get("b")).toMatchObject({ status: "timed_out", error: "after 10 s" });
  });

  it("skips a running event whose message is not a message, but still marks the task running", () => {
    const subtasks = apply([
      started,
      { ...running(1, step("s1", "x")), message: "nonsense" as unknown as WireMessage },
    ]);
    expect(subtasks.get("a")).toMatchObject({ status: "running", steps: [] });
  });
});

describe("mergeSubtask", () => {
  const saved = subtasksFromMessages([lead("a")]).get("a")!;
  const live: Subtask = {
    ...saved,
    description: "",
    prompt: "",
    status: "running",
    steps: [step("s1", "Looking")],
    stepIndexes: [1],
    modelName: "gpt-x",
    usage: usage(50),
  };

  it("shows the live state under the call's description and prompt until the result exists", () => {
    expect(mergeSubtask(saved, live)).toEqual({ ...live, description: "Research a", prompt: "Find out about a." });
  });

  it("lets the saved outcome win over the live state, keeping live steps it lacks", () => {
    const finished = subtasksFromMessages([lead("a"), result("a", "Task failed. Error: boom")]).get("a")!;
    const liveCompleted: Subtask = { ...live, status: "completed", result: "fine" };
    expect(mergeSubtask(finished, liveCompleted)).toMatchObject({
      status: "failed",
      error: "boom",
      steps: live.steps,
      modelName: "gpt-x",
      usage: usage(50),
    });
    expect(mergeSubtask(finished, liveCompleted).result).toBeUndefined();
  });

  it("merges maps, keeping tasks known only from events", () => {
    const merged = mergeSubtasks(new Map([["a", saved]]), new Map([["z", { ...live, id: "z" }]]));
    expect([...merged.keys()]).toEqual(["a", "z"]);
  });
});

describe("stepSummary", () => {
  it("says what a step did in one line", () => {
    expect(stepSummary(step("s", "\nFirst line\nsecond"))).toBe("First line");
    expect(stepSummary({ type: "tool", id: "t", tool_call_id: "c", name: "bash", content: "" })).toBe("Ran bash");
    expect(
      stepSummary({ type: "ai", id: "a", content: "", tool_calls: [{ id: "c", name: "web_search", args: {} }] }),
    ).toBe("Calling web_search");
    expect(stepSummary(step("s", "x".repeat(300)))).toHaveLength(140);
  });
});
