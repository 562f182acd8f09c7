import { describe, expect, it } from "vitest";
import type { ThreadDetail, ThreadEntry, WireMessage } from "../protocol/index.ts";
import { threadToMarkdown } from "./thread-markdown.ts";

const message = (m: WireMessage): ThreadEntry => ({ kind: "message", message: m });

function thread(entries: ThreadEntry[], extra: Partial<ThreadDetail> = {}): ThreadDetail {
  return {
    thread_id: "t1",
    title: "Two reports",
    created_at: Date.UTC(2026, 0, 25, 9, 39, 56),
    updated_at: Date.UTC(2026, 0, 25, 10, 0),
    status: "idle",
    entries,
    ...extra,
  };
}

const conversation: ThreadEntry[] = [
  message({
    type: "human",
    id: "h1",
    content: [{ type: "text", text: "Compare the reports." }],
    files: [{ filename: "a.pdf", size: 2048, virtual_path: "/mnt/user-data/uploads/a.pdf" }],
  }),
  message({ type: "system", id: "s1", content: "<uploaded_files>a.pdf</uploaded_files>" }),
  message({
    type: "ai",
    id: "a1",
    content: "",
    reasoning: "Private thoughts.",
    tool_calls: [
      { id: "c1", name: "bash", args: { description: "Count words", command: "wc -w a.md" } },
      { id: "c2", name: "web_search", args: { query: "x".repeat(1000) } },
    ],
  }),
  message({ type: "tool", id: "r1", content: "42 a.md", tool_call_id: "c1", name: "bash", status: "success" }),
  message({ type: "tool", id: "r2", content: "timeout", tool_call_id: "c2", name: "web_search", status: "error" }),
  { kind: "error", id: "e1", error: { error: "rate_limited", message: "Too many\nrequests." }, at: 5 },
  message({ type: "ai", id: "a2", content: "Report A has **42** words." }),
];

describe("threadToMarkdown", () => {
  const markdown = threadToMarkdown(
    thread(conversation, {
      artifacts: ["/mnt/user-data/outputs/compare.md"],
      todos: [
        { content: "Read both", status: "completed" },
        { content: "Compare\nthem", status: "in_progress" },
        { content: "Present", status: "pending" },
      ],
    }),
    [
      { path: "/mnt/user-data/uploads/a.pdf", size: 2048 },
      { path: "/mnt/user-data/outputs/compare.md", size: 3 * 1024 * 1024 },
      { path: "/mnt/user-data/workspace/notes.txt", size: 12 },
    ],
  );

  it("reads as a transcript: title, date, speakers, tool calls and results in brief, errors, plan and files", () => {
    expect(markdown).toBe(
      [
        "# Two reports",
        "Created 2026-01-25 09:39 UTC",
        "## User",
        "Compare the reports.",
        "Attached: `a.pdf` (2.0 KB)",
        "## Assistant",
        "**Tool call** `bash`: Count words",
        '```json\n{"command":"wc -w a.md"}\n```',
        "**Tool call** `web_search`",
        `\`\`\`json\n{"query":"${"x".repeat(289)}…\n\`\`\``,
        "**Result** of `bash`:",
        "```\n42 a.md\n```",
        "**Result** of `web_search` (error):",
        "```\ntimeout\n```",
        "> **Run error:** Too many requests.",
        "Report A has **42** words.",
        "## Plan",
        "- [x] Read both\n- [ ] Compare them _(in progress)_\n- [ ] Present",
        "## Files",
        [
          "- `/mnt/user-data/outputs/compare.md` (3.0 MB) — presented",
          "- `/mnt/user-data/uploads/a.pdf` (2.0 KB)",
          "- `/mnt/user-data/workspace/notes.txt` (12 B)",
        ].join("\n"),
      ].join("\n\n") + "\n",
    );
  });

  it("leaves out reasoning and the agent's system context", () => {
    expect(markdown).not.toContain("Private thoughts");
    expect(markdown).not.toContain("uploaded_files");
  });

  it("is the same text for the same thread, whatever order the files come in", () => {
    const files = [
      { path: "/mnt/user-data/outputs/b.md", size: 1 },
      { path: "/mnt/user-data/outputs/a.md", size: 2 },
    ];
    const detail = thread(conversation);
    expect(threadToMarkdown(detail, files)).toBe(threadToMarkdown(detail, [...files].reverse()));
  });

  it("fences a tool result past the longest backtick run inside it and keeps only its first lines", () => {
    const result = ["````", ...Array.from({ length: 20 }, (_, i) => `line ${i}`)].join("\n");
    const md = threadToMarkdown(
      thread([message({ type: "tool", id: "r", content: result, tool_call_id: "c", name: "bash" })]),
      [],
    );
    expect(md).toContain("`````\n````\nline 0\n");
    expect(md).toContain("line 6\n…\n`````\n");
    expect(md).not.toContain("line 7");
  });

  it("closes a code fence a message leaves open, so it cannot swallow the rest of the document", () => {
    const md = threadToMarkdown(
      thread([
        message({ type: "ai", id: "a", content: "Here:\n~~~~python\nprint(1)\n~~~\nstill code" }),
        message({ type: "human", id: "h", content: "Thanks" }),
      ]),
      [],
    );
    expect(md).toContain("still code\n~~~~\n\n## User\n\nThanks");
  });

  it("leaves a message's closed fences as they are", () => {
    const text = "```ts\nconst a = 1;\n```\nDone. ``` is not a fence here.";
    const md = threadToMarkdown(thread([message({ type: "ai", id: "a", content: text })]), []);
    expect(md).toContain(`## Assistant\n\n${text}\n`);
  });

  it("keeps backticks and newlines in names from breaking inline code or headings", () => {
    const md = threadToMarkdown(
      thread(
        [
          message({
            type: "human",
            id: "h",
            content: "",
            files: [{ filename: "`a`.txt", size: 1, virtual_path: "/mnt/user-data/uploads/`a`.txt" }],
          }),
          message({ type: "ai", id: "a", content: "", tool_calls: [{ id: "c", name: "x``y", args: {} }] }),
        ],
        { title: "Line one\n# Line two" },
      ),
      [],
    );
    expect(md).toContain("# Line one # Line two\n");
    expect(md).toContain("Attached: `` `a`.txt `` (1 B)");
    expect(md).toContain("**Tool call** ```x``y```");
  });

  it("notes images, stopped messages, empty results and an untitled thread", () => {
    const md = threadToMarkdown(
      thread(
        [
          {
            kind: "message",
            stopped: true,
            message: {
              type: "ai",
              id: "a",
              content: [
                { type: "text", text: "Look" },
                { type: "image_url", image_url: { url: "data:image/png;base64,AA" } },
              ],
            },
          },
          message({ type: "tool", id: "r", content: "", tool_call_id: "c" }),
        ],
        { title: "  " },
      ),
      [],
    );
    expect(md).toBe(
      "# Untitled thread\n\nCreated 2026-01-25 09:39 UTC\n\n## Assistant\n\nLook\n\n_(1 image)_\n\n_(stopped)_\n\n" +
        "**Result** of `tool`: _(empty)_\n",
    );
  });
});
