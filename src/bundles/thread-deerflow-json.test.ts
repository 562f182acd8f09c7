import { describe, expect, it } from "vitest";
import type { ThreadDetail, WireMessage } from "../protocol/index.ts";
import { planDeerFlowImport, type DeerFlowImportPlan } from "./deerflow-import.ts";
import { threadToDeerFlowJson } from "./thread-deerflow-json.ts";

// DeerFlow's demo threads (MIT), read as text at build time: src/ code never reaches for node:fs.
const FIXTURES = import.meta.glob<string>("../../test/fixtures/deerflow-threads/*/thread.json", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** planDeerFlowImport keeps only presented files that travel with the thread, so each is given (empty). */
function reimport(thread: unknown, artifacts: readonly string[]): DeerFlowImportPlan {
  return planDeerFlowImport({ thread, files: artifacts.map((path) => ({ path, bytes: new Uint8Array() })) });
}

function detailOf(plan: DeerFlowImportPlan): ThreadDetail {
  return {
    thread_id: plan.sourceThreadId ?? "imported",
    title: plan.title ?? "",
    created_at: plan.createdAt ?? 0,
    updated_at: plan.createdAt ?? 0,
    status: "idle",
    entries: plan.messages.map((message) => ({ kind: "message", message })),
    artifacts: plan.artifacts,
    todos: plan.todos,
  };
}

const messages: WireMessage[] = [
  {
    type: "human",
    id: "h1",
    content: "Compare the two reports.",
    files: [{ filename: "a.pdf", size: 2048, virtual_path: "/mnt/user-data/uploads/a.pdf" }],
  },
  {
    type: "ai",
    id: "a1",
    content: "",
    reasoning: "I should read both files first.",
    tool_calls: [
      { id: "c1", name: "read_file", args: { description: "Read report A", path: "/mnt/user-data/uploads/a.md" } },
      { id: "c2", name: "bash", args: { description: "Count words", command: "wc -w /mnt/user-data/uploads/*" } },
    ],
    usage_metadata: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
    response_metadata: { model_name: "deepseek-v3", finish_reason: "tool_calls" },
  },
  { type: "tool", id: "t1", content: "# Report A\n…", tool_call_id: "c1", name: "read_file", status: "success" },
  {
    type: "tool",
    id: "t2",
    content: "wc: no such file",
    tool_call_id: "c2",
    name: "bash",
    status: "error",
    artifact: { exit_code: 1 },
  },
  {
    type: "ai",
    id: "a2",
    content: [
      { type: "text", text: "Report A is longer. " },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ],
  },
];

const detail: ThreadDetail = {
  thread_id: "thread-1",
  title: "Two reports",
  created_at: Date.UTC(2026, 0, 25, 9, 39, 56, 81),
  updated_at: Date.UTC(2026, 0, 25, 9, 45),
  status: "idle",
  entries: [
    ...messages.slice(0, 4).map((message) => ({ kind: "message" as const, message })),
    { kind: "error", id: "e1", error: { error: "rate_limited", message: "Slow down." }, at: 1 },
    { kind: "message", message: messages[4] as WireMessage },
  ],
  artifacts: ["/mnt/user-data/outputs/compare.md"],
  todos: [
    { content: "Read both reports", status: "completed" },
    { content: "Write the comparison", status: "in_progress" },
    { content: "Present it", status: "pending" },
  ],
};

describe("threadToDeerFlowJson", () => {
  it("reads back through planDeerFlowImport as the same messages, title, artifacts and plan", () => {
    const plan = reimport(threadToDeerFlowJson(detail), detail.artifacts ?? []);
    expect(plan.messages).toEqual(messages);
    expect(plan.title).toBe("Two reports");
    expect(plan.sourceThreadId).toBe("thread-1");
    expect(plan.createdAt).toBe(detail.created_at);
    expect(plan.artifacts).toEqual(detail.artifacts);
    expect(plan.todos).toEqual(detail.todos);
  });

  it("writes messages as LangChain dumps them, as DeerFlow's own thread.json holds them", () => {
    const json = threadToDeerFlowJson(detail) as { values: { messages: Record<string, unknown>[] } };
    expect(json.values.messages.map((message) => message.type)).toEqual(["human", "ai", "tool", "tool", "ai"]);
    expect(json.values.messages[1]).toMatchObject({
      additional_kwargs: { reasoning_content: "I should read both files first." },
      tool_calls: [{ id: "c1", name: "read_file", type: "tool_call" }, { id: "c2" }],
      invalid_tool_calls: [],
    });
    expect(json.values.messages[0]?.additional_kwargs).toEqual({
      files: [{ filename: "a.pdf", size: 2048, path: "/mnt/user-data/uploads/a.pdf" }],
    });
    expect(json.values.messages[2]).toMatchObject({ artifact: null, status: "success", name: "read_file" });
  });

  it("leaves run errors out (DeerFlow has no place for them) and shares no objects with the thread", () => {
    const json = threadToDeerFlowJson(detail) as { values: { messages: { id: string; tool_calls?: unknown[] }[] } };
    expect(json.values.messages.map((message) => message.id)).toEqual(["h1", "a1", "t1", "t2", "a2"]);
    const first = json.values.messages[1]?.tool_calls?.[0] as { args: Record<string, unknown> };
    first.args.path = "changed";
    expect((messages[1] as { tool_calls: { args: Record<string, unknown> }[] }).tool_calls[0]?.args.path).toBe(
      "/mnt/user-data/uploads/a.md",
    );
  });

  it("writes a thread without a plan or presented files as empty lists", () => {
    const json = threadToDeerFlowJson({ ...detail, artifacts: undefined, todos: undefined, entries: [] });
    expect(json).toMatchObject({ values: { messages: [], artifacts: [], todos: [], title: "Two reports" } });
  });

  const fixtures = Object.entries(FIXTURES).map(([path, text]) => [path.split("/").at(-2), text] as const);
  it.each(fixtures)("is a fixed point of import for DeerFlow's demo thread %s", (_id, text) => {
    const source = JSON.parse(text) as { values: { artifacts?: string[] } };
    const artifacts = source.values.artifacts ?? [];
    const first = reimport(source, artifacts);
    const second = reimport(threadToDeerFlowJson(detailOf(first)), artifacts);
    expect(first.messages.length).toBeGreaterThan(0);
    expect(second.messages).toEqual(first.messages);
    expect(second.title).toBe(first.title);
    expect(second.sourceThreadId).toBe(first.sourceThreadId);
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.artifacts).toEqual(first.artifacts);
    expect(second.todos).toEqual(first.todos);
  });
});
