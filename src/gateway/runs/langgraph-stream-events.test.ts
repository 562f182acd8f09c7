// LangGraph's run stream read back as RunEvents (Fawn's own frames: server/langgraph/sse.test.ts): LangGraph's own
// serialization (langgraphjs dev) reads as the same wire messages, and parts that are not what they claim are dropped
// rather than passed to the page.
import { describe, expect, it } from "vitest";
import { endStatusOf, runEventOf, wireMessageOf, wireMessagesOf } from "./langgraph-stream-events.ts";

describe("reading LangGraph's run stream", () => {
  it("reads LangGraph's serialized messages as wire messages", () => {
    expect(
      wireMessageOf({
        type: "human",
        id: "h1",
        content: "<uploaded_files>\n- a.csv\n</uploaded_files>\n\nLook at this",
        additional_kwargs: { files: [{ filename: "a.csv", size: 3, virtual_path: "/mnt/user-data/uploads/a.csv" }] },
      }),
    ).toEqual({
      type: "human",
      id: "h1",
      content: "Look at this",
      files: [{ filename: "a.csv", size: 3, virtual_path: "/mnt/user-data/uploads/a.csv" }],
    });
    expect(
      wireMessageOf({
        lc: 1,
        type: "constructor",
        id: ["langchain_core", "messages", "AIMessage"],
        kwargs: {
          id: "a1",
          content: [{ type: "text", text: "Hi" }],
          additional_kwargs: { reasoning_content: "think" },
        },
      }),
    ).toEqual({ type: "ai", id: "a1", content: [{ type: "text", text: "Hi" }], reasoning: "think" });
    const chunk = runEventOf(
      { event: "messages", data: [{ type: "AIMessageChunk", content: [{ type: "text", text: "Hi" }] }, {}] },
      "r9",
    );
    expect(chunk).toEqual({ event: "messages", data: [{ type: "AIMessageChunk", id: "run-r9", content: "Hi" }, {}] });
  });

  it("reads DeerFlow's messages: a file's `path` as its place, a leading <think> block as reasoning", () => {
    expect(
      wireMessageOf({
        type: "human",
        id: "h1",
        content: "Look",
        additional_kwargs: { files: [{ filename: "a.csv", size: 3, path: "/mnt/user-data/uploads/a.csv" }] },
      }),
    ).toEqual({
      type: "human",
      id: "h1",
      content: "Look",
      files: [{ filename: "a.csv", size: 3, virtual_path: "/mnt/user-data/uploads/a.csv" }],
    });
    expect(wireMessageOf({ type: "ai", id: "a1", content: "<think>\nLet me see.\n</think>\n\nNo." })).toEqual({
      type: "ai",
      id: "a1",
      content: "No.",
      reasoning: "Let me see.",
    });
    expect(
      wireMessageOf({
        type: "ai",
        id: "a2",
        content: "<think>inline</think>Yes.",
        additional_kwargs: { reasoning_content: "own" },
      }),
    ).toEqual({ type: "ai", id: "a2", content: "Yes.", reasoning: "own" });
  });

  it("drops what is not what it claims, and keeps an error's code to Fawn's", () => {
    expect(runEventOf({ event: "metadata", data: "x" }, "r")).toBeUndefined();
    expect(runEventOf({ event: "messages", data: [{ type: "human", content: "x" }, {}] }, "r")).toBeUndefined();
    expect(runEventOf({ event: "values|sub:1", data: {} }, "r")).toBeUndefined();
    expect(runEventOf({ event: "values", data: { messages: [1, { type: "bogus" }] } }, "r")).toEqual({
      event: "values",
      data: { messages: [] },
    });
    expect(runEventOf({ event: "error", data: { error: "CancelledError", message: 5 } }, "r")).toEqual({
      event: "error",
      data: { error: "unknown", message: "The server's run failed." },
    });
    expect(wireMessageOf({ type: "tool", id: "x", content: "no call id" })).toBeUndefined();
  });

  it("leaves out the messages a client marked hide_from_ui, plain or serialized (DeerFlow's reminders)", () => {
    const messages = wireMessagesOf([
      { type: "human", id: "r", content: "<system-reminder>", additional_kwargs: { hide_from_ui: true } },
      {
        lc: 1,
        type: "constructor",
        id: ["langchain_core", "messages", "HumanMessage"],
        kwargs: { id: "a", content: "an answer", additional_kwargs: { hide_from_ui: true } },
      },
      { type: "human", id: "h", content: "hello", additional_kwargs: { hide_from_ui: false } },
    ]);
    expect(messages.map((message) => message.id)).toEqual(["h"]);
  });

  it("ends with the run's stored status", () => {
    expect(endStatusOf("success", false)).toBe("success");
    expect(endStatusOf("interrupted", false)).toBe("interrupted");
    expect(endStatusOf("timeout", false)).toBe("interrupted");
    expect(endStatusOf("error", false)).toBe("error");
    expect(endStatusOf(undefined, true)).toBe("error");
  });
});
