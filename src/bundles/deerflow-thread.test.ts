import { describe, expect, it } from "vitest";
import { DeerFlowImportError, parseDeerFlowThread } from "./deerflow-thread.ts";

const human = { type: "human", id: "h1", content: "hello" };

function refusal(json: unknown): string {
  try {
    parseDeerFlowThread(json);
  } catch (error) {
    expect(error).toBeInstanceOf(DeerFlowImportError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("parseDeerFlowThread", () => {
  it("reads DeerFlow's thread state: the values, the thread id from its metadata and when it was created", () => {
    const thread = parseDeerFlowThread({
      values: { messages: [human], title: "Greetings", artifacts: [], thread_data: { workspace_path: "/x" } },
      metadata: { thread_id: "abc-123", model_name: "deepseek" },
      checkpoint: { checkpoint_id: "1", thread_id: "abc-123" },
      created_at: "2026-01-24T16:19:44.462829+00:00",
      next: [],
      tasks: [],
    });
    expect(thread).toEqual({
      threadId: "abc-123",
      createdAt: Date.parse("2026-01-24T16:19:44.462Z"),
      values: { messages: [{ ...human }], title: "Greetings", artifacts: [] },
    });
  });

  it("reads a thread's top-level id first, and a bare values object", () => {
    expect(
      parseDeerFlowThread({ thread_id: "top", metadata: { thread_id: "meta" }, values: { messages: [] } }),
    ).toMatchObject({ threadId: "top" });
    expect(parseDeerFlowThread({ messages: [human], title: "Bare" })).toEqual({
      values: { messages: [human], title: "Bare" },
    });
  });

  it("accepts null where DeerFlow writes null, and ignores fields it does not read", () => {
    const thread = parseDeerFlowThread({
      values: {
        messages: [
          { ...human, name: null, additional_kwargs: {}, response_metadata: {}, example: false },
          {
            type: "ai",
            id: "a1",
            content: "",
            name: null,
            tool_calls: [{ name: "bash", args: { command: "ls" }, id: "c1", type: "tool_call" }],
            invalid_tool_calls: [],
            usage_metadata: null,
          },
          {
            type: "tool",
            id: "t1",
            content: "ok",
            tool_call_id: "c1",
            name: "bash",
            artifact: null,
            status: "success",
          },
        ],
        title: null,
        artifacts: null,
        todos: null,
      },
    });
    expect(thread.values.messages).toHaveLength(3);
  });

  it.each([
    ["a list", [], "This is not a DeerFlow thread.json: thread.json should be an object, not a list."],
    ["no values", { metadata: {} }, "This is not a DeerFlow thread.json: values is missing."],
    ["no messages", { values: { title: "x" } }, "This is not a DeerFlow thread.json: values.messages is missing."],
    [
      "a message of an unknown type",
      { values: { messages: [human, { ...human, type: "robot" }] } },
      'This is not a DeerFlow thread.json: values.messages[1].type should be "human", "system", "ai", "AIMessageChunk" or "tool".',
    ],
    [
      "a tool call without a name",
      { values: { messages: [{ type: "ai", content: "", tool_calls: [{ id: "c1", args: {} }] }] } },
      "This is not a DeerFlow thread.json: values.messages[0].tool_calls[0].name is missing.",
    ],
    [
      "a title that is a number",
      { values: { messages: [], title: 7 } },
      "This is not a DeerFlow thread.json: values.title should be a string, not a number.",
    ],
    [
      "an artifact that is not a path",
      { values: { messages: [], artifacts: [{ path: "/mnt/user-data/outputs/a.md" }] } },
      "This is not a DeerFlow thread.json: values.artifacts[0] should be a string, not an object.",
    ],
  ])("refuses %s with one sentence naming the place", (_name, json, message) => {
    expect(refusal(json)).toBe(message);
  });
});
