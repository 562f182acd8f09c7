import { describe, expect, it } from "vitest";
import { CANCELLED_ON_IMPORT, DEERFLOW_IMPORT_LIMITS } from "../protocol/index.ts";
import { planDeerFlowImport, virtualPathOf } from "./deerflow-import.ts";
import { DeerFlowImportError } from "./deerflow-thread.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function plan(
  messages: unknown[],
  values: Record<string, unknown> = {},
  files: { path: string; bytes: Uint8Array }[] = [],
) {
  return planDeerFlowImport({ thread: { values: { messages, ...values } }, files });
}

describe("virtualPathOf", () => {
  it("maps DeerFlow's thread folder to the virtual paths, and takes virtual paths as they are", () => {
    expect(virtualPathOf("user-data/outputs/site/index.html")).toEqual({
      path: "/mnt/user-data/outputs/site/index.html",
    });
    expect(virtualPathOf("user-data/uploads/titanic.csv")).toEqual({ path: "/mnt/user-data/uploads/titanic.csv" });
    expect(virtualPathOf("/mnt/user-data/workspace/a.py")).toEqual({ path: "/mnt/user-data/workspace/a.py" });
  });

  it.each([
    ["user-data/outputs/../../etc/passwd", 'a path may not have "." or ".." segments'],
    ["user-data/outputs/./a", 'a path may not have "." or ".." segments'],
    ["user-data/outputs//a", "empty segments"],
    ["user-data/other/a", "a path must start with"],
    ["thread.json", "only files under user-data/workspace, user-data/uploads and user-data/outputs"],
    ["/etc/passwd", "only files under user-data"],
    ["user-data\\outputs\\a", "only files under user-data"],
  ])("refuses %s", (path, problem) => {
    const result = virtualPathOf(path);
    expect("error" in result && result.error).toContain(`The file ${JSON.stringify(path)} cannot be imported: `);
    expect("error" in result && result.error).toContain(problem);
  });
});

describe("planDeerFlowImport", () => {
  it("closes the tool calls the thread ends on without a result as cancelled, so none of them ever runs here", () => {
    const { messages } = plan([
      { type: "human", id: "h1", content: "Clean up" },
      {
        type: "ai",
        id: "a1",
        content: "",
        tool_calls: [
          { id: "c1", name: "bash", args: { command: "ls" } },
          { id: "c2", name: "bash", args: { command: "rm -rf /mnt/user-data" } },
        ],
      },
      { type: "tool", id: "t1", content: "a.txt", tool_call_id: "c1", name: "bash", status: "success" },
    ]);
    expect(messages.slice(2)).toEqual([
      { type: "tool", id: "t1", content: "a.txt", tool_call_id: "c1", name: "bash", status: "success" },
      {
        type: "tool",
        id: expect.any(String) as unknown as string,
        content: CANCELLED_ON_IMPORT,
        tool_call_id: "c2",
        name: "bash",
        status: "error",
      },
    ]);
  });

  it("maps LangChain's message dumps to wire messages", () => {
    const { messages } = plan([
      {
        type: "human",
        id: "h1",
        content: [
          { type: "text", text: "Plot " },
          { type: "text", text: "this" },
        ],
      },
      {
        type: "ai",
        id: "a1",
        content: "",
        additional_kwargs: { reasoning_content: "I should plot it." },
        tool_calls: [{ id: "c1", name: "bash", args: { command: "python plot.py" }, type: "tool_call" }],
        usage_metadata: { input_tokens: 10, output_tokens: 4, total_tokens: 14, input_token_details: {} },
        response_metadata: { model_name: "deepseek-v3", finish_reason: "tool_calls" },
      },
      { type: "tool", id: "t1", content: "done", tool_call_id: "c1", name: "bash", status: "success", artifact: null },
      { type: "system", id: "s1", content: "<uploaded_files>\nNo files have been uploaded yet.\n</uploaded_files>" },
      { type: "ai", id: "a2", content: "Here is the plot." },
    ]);
    expect(messages).toEqual([
      { type: "human", id: "h1", content: "Plot this" },
      {
        type: "ai",
        id: "a1",
        content: "",
        reasoning: "I should plot it.",
        tool_calls: [{ id: "c1", name: "bash", args: { command: "python plot.py" } }],
        usage_metadata: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
        response_metadata: { model_name: "deepseek-v3", finish_reason: "tool_calls" },
      },
      { type: "tool", id: "t1", content: "done", tool_call_id: "c1", name: "bash", status: "success" },
      { type: "system", id: "s1", content: "<uploaded_files>\nNo files have been uploaded yet.\n</uploaded_files>" },
      { type: "ai", id: "a2", content: "Here is the plot." },
    ]);
  });

  it("reads reasoning from thinking blocks and from a leading <think> block", () => {
    const { messages } = plan([
      {
        type: "ai",
        id: "a1",
        content: [
          { type: "thinking", thinking: "Hmm." },
          { type: "text", text: "Yes." },
        ],
      },
      { type: "ai", id: "a2", content: "<think>\nLet me see.\n</think>\n\nNo." },
    ]);
    expect(messages).toEqual([
      { type: "ai", id: "a1", content: "Yes.", reasoning: "Hmm." },
      { type: "ai", id: "a2", content: "No.", reasoning: "Let me see." },
    ]);
  });

  it("keeps images, a tool's artifact and the user's file chips", () => {
    const { messages } = plan([
      {
        type: "human",
        id: "h1",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
        additional_kwargs: { files: [{ filename: "a.csv", size: 12, path: "/mnt/user-data/uploads/a.csv" }, "junk"] },
      },
      {
        type: "tool",
        id: "t1",
        content: "Which one?",
        tool_call_id: "c1",
        name: "ask_clarification",
        artifact: { human_input: { question: "Which one?" } },
      },
    ]);
    expect(messages).toEqual([
      {
        type: "human",
        id: "h1",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
        files: [{ filename: "a.csv", size: 12, virtual_path: "/mnt/user-data/uploads/a.csv" }],
      },
      {
        type: "tool",
        id: "t1",
        content: "Which one?",
        tool_call_id: "c1",
        name: "ask_clarification",
        artifact: { human_input: { question: "Which one?" } },
      },
    ]);
  });

  it("leaves out DeerFlow's hidden messages, and gives missing and repeated ids new ones", () => {
    const { messages } = plan([
      { type: "human", id: "h1", content: "hi" },
      { type: "human", id: "h2", content: "[image]", additional_kwargs: { hide_from_ui: true } },
      { type: "ai", id: null, content: "hello", tool_calls: [{ name: "bash", args: {} }] },
      { type: "ai", id: "h1", content: "again" },
    ]);
    expect(messages.map((message) => message.content)).toEqual(["hi", "hello", "again"]);
    const ids = messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("h1");
    const call = messages[1]?.type === "ai" ? messages[1].tool_calls?.[0] : undefined;
    expect(call?.id).toEqual(expect.any(String));
  });

  it("keeps the presented files it brings, once each and in order, the title cleaned and the plan", () => {
    const files = [
      { path: "user-data/outputs/b.md", bytes: bytes("b") },
      { path: "user-data/outputs/a.png", bytes: bytes("a") },
    ];
    const result = plan(
      [],
      {
        title: "  A   long\ttitle  ",
        artifacts: [
          "/mnt/user-data/outputs/a.png",
          "/mnt/user-data/outputs/missing.md",
          "/mnt/user-data/outputs/b.md",
          "/mnt/user-data/outputs/a.png",
        ],
        todos: [{ content: "Plot", status: "completed", id: "x" }],
      },
      files,
    );
    expect(result).toEqual({
      title: "A long title",
      messages: [],
      artifacts: ["/mnt/user-data/outputs/a.png", "/mnt/user-data/outputs/b.md"],
      todos: [{ content: "Plot", status: "completed" }],
      files: [
        { path: "/mnt/user-data/outputs/b.md", bytes: files[0]?.bytes },
        { path: "/mnt/user-data/outputs/a.png", bytes: files[1]?.bytes },
      ],
    });
    expect(plan([], { title: "x".repeat(300) }).title).toHaveLength(200);
    expect(plan([], { title: "   " }).title).toBeUndefined();
  });

  it.each([
    [
      "a presented file with ..",
      () => plan([], { artifacts: ["/mnt/user-data/outputs/../uploads/a.csv"] }),
      'The presented file "/mnt/user-data/outputs/../uploads/a.csv" cannot be imported: a path may not have "." or ".." segments.',
    ],
    [
      "a presented file outside outputs",
      () => plan([], { artifacts: ["/mnt/user-data/uploads/a.csv"] }),
      'The presented file "/mnt/user-data/uploads/a.csv" cannot be imported: only files under /mnt/user-data/outputs/ can be presented.',
    ],
    [
      "a file without bytes",
      () =>
        planDeerFlowImport({ thread: { values: { messages: [] } }, files: [{ path: "user-data/outputs/a" }] as never }),
      "Each of the thread's files should have a path and its bytes.",
    ],
    [
      "files that are not a list",
      () => planDeerFlowImport({ thread: { values: { messages: [] } }, files: "a" as never }),
      "The thread's files should be a list.",
    ],
    [
      "too many files",
      () =>
        plan(
          [],
          {},
          Array.from({ length: DEERFLOW_IMPORT_LIMITS.max_files + 1 }, (_, index) => ({
            path: `user-data/workspace/${index}`,
            bytes: new Uint8Array(),
          })),
        ),
      "A thread can bring at most 2,000 files; this one has 2,001.",
    ],
  ])("refuses %s", (_name, run, message) => {
    expect(run).toThrow(DeerFlowImportError);
    expect(run).toThrow(message);
  });
});
