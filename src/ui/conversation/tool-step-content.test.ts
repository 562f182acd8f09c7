import { describe, expect, it } from "vitest";
import type { ToolWireMessage, WireToolCall } from "../../protocol/index.ts";
import { searchLinks, toolResultsOf, toolSteps } from "./tool-step-content.ts";

function call(name: string, args: Record<string, unknown>, id = `call-${name}`): WireToolCall {
  return { id, name, args };
}

function result(id: string, content: string, status?: "success" | "error"): ToolWireMessage {
  return { type: "tool", id: `tool-${id}`, tool_call_id: id, content, ...(status && { status }) };
}

function stepOf(toolCall: WireToolCall, output?: string, status?: "success" | "error") {
  const results = toolResultsOf(output === undefined ? [] : [result(toolCall.id, output, status)]);
  return toolSteps([toolCall], results, false)[0]!;
}

describe("toolSteps", () => {
  it("shows a command with its output and the agent's reason", () => {
    const step = stepOf(call("bash", { command: "ls -la /tmp", description: "See what is there" }), "a\nb");
    expect(step).toMatchObject({
      title: "Ran ls -la /tmp",
      note: "See what is there",
      status: "done",
      body: { kind: "command", command: "ls -la /tmp", output: "a\nb" },
    });
  });

  it("marks a command that exited non-zero, and a tool error, as failed", () => {
    expect(stepOf(call("bash", { command: "false" }), "[exit code 1]").status).toBe("failed");
    expect(stepOf(call("bash", { command: "true" }), "ok\n[exit code 0]").status).toBe("done");
    expect(stepOf(call("read_file", { path: "/x" }), "Error: /x does not exist").status).toBe("failed");
    expect(stepOf(call("ls", { path: "/x" }), "listing", "error").status).toBe("failed");
  });

  it("cuts a long or multi-line command to one line in the title", () => {
    const long = `echo ${"x".repeat(200)}`;
    expect(stepOf(call("bash", { command: long }), "").title).toHaveLength("Ran ".length + 80);
    expect(stepOf(call("bash", { command: "cd /tmp\nls" }), "").title).toBe("Ran cd /tmp …");
  });

  it("shows a written file's path and content, and an append as such", () => {
    const step = stepOf(call("write_file", { path: "/mnt/user-data/outputs/a.md", content: "# A" }), "OK");
    expect(step.title).toBe("Wrote /mnt/user-data/outputs/a.md");
    expect(step.body).toEqual({ kind: "file", path: "/mnt/user-data/outputs/a.md", content: "# A", append: false });
    expect(stepOf(call("write_file", { path: "/a", content: "x", append: true }), "OK").title).toBe("Appended to /a");
  });

  it("shows an edit as the text replaced", () => {
    const step = stepOf(call("str_replace", { path: "/a.py", old_str: "x = 1", new_str: "x = 2" }), "OK");
    expect(step.title).toBe("Edited /a.py");
    expect(step.body).toMatchObject({ kind: "edit", before: "x = 1", after: "x = 2" });
  });

  it("names reads with their line range, and listing and searching tools", () => {
    expect(stepOf(call("read_file", { path: "/a", start_line: 3, end_line: 9 }), "…").title).toBe(
      "Read /a (lines 3–9)",
    );
    expect(stepOf(call("read_file", { path: "/a" }), "…").title).toBe("Read /a");
    expect(stepOf(call("ls", { path: "/mnt" }), "…").title).toBe("Listed /mnt");
    expect(stepOf(call("glob", { pattern: "**/*.md", path: "/mnt" }), "…").title).toBe("Looked for **/*.md in /mnt");
    expect(stepOf(call("grep", { pattern: "TODO", path: "/src" }), "…").title).toBe("Searched for TODO in /src");
  });

  it("turns web search results into links", () => {
    const output = JSON.stringify({
      query: "fawn",
      results: [{ title: "Fawn", url: "https://example.com/fawn", content: "A young deer." }],
    });
    const step = stepOf(call("web_search", { query: "fawn" }), output);
    expect(step.title).toBe("Searched the web for \u201cfawn\u201d");
    expect(step.body).toMatchObject({
      kind: "links",
      links: [{ title: "Fawn", url: "https://example.com/fawn", snippet: "A young deer." }],
    });
  });

  it("presents files by name", () => {
    const step = stepOf(call("present_files", { filepaths: ["/mnt/user-data/outputs/a.md", "/o/b.csv"] }), "OK");
    expect(step.title).toBe("Presented a.md, b.csv");
    expect(step.body).toEqual({ kind: "files", paths: ["/mnt/user-data/outputs/a.md", "/o/b.csv"] });
  });

  it("shows any other tool's arguments (without its description) and output", () => {
    const step = stepOf(call("mcp_weather", { city: "Lisbon", description: "Check" }), "Sunny");
    expect(step.title).toBe("Used mcp weather");
    expect(step.body).toEqual({ kind: "output", args: JSON.stringify({ city: "Lisbon" }, null, 2), output: "Sunny" });
  });

  it("is running while the reply streams and no result came, and failed once the run ended without one", () => {
    const pending = call("bash", { command: "sleep 9" });
    expect(toolSteps([pending], new Map(), true)[0]!.status).toBe("running");
    expect(toolSteps([pending], new Map(), false)[0]!.status).toBe("failed");
  });
});

describe("searchLinks", () => {
  it("keeps only http(s) links and skips text that is not the search JSON", () => {
    const output = JSON.stringify({
      results: [
        { title: "Bad", url: "javascript:alert(1)", content: "" },
        { title: "", url: "http://example.com/", content: "x" },
      ],
    });
    expect(searchLinks(output)).toEqual([{ title: "http://example.com/", url: "http://example.com/", snippet: "x" }]);
    expect(searchLinks("Error: no provider")).toEqual([]);
    expect(searchLinks(JSON.stringify({ error: "No results found" }))).toEqual([]);
  });
});

describe("step names", () => {
  it("names every built-in tool for people, never by its raw name", () => {
    const titles = Object.fromEntries(
      [
        call("write_todos", { todos: [] }),
        call("ask_clarification", { question: "Which?" }),
        call("task", { description: "Count apples", prompt: "…" }),
        call("tool_search", { query: "github" }),
        call("bash", {}),
        call("write_file", {}),
        call("str_replace", {}),
        call("read_file", {}),
        call("ls", {}),
        call("web_search", {}),
        call("web_fetch", {}),
        call("present_files", {}),
        call("view_image", {}),
      ].map((toolCall) => [toolCall.name, stepOf(toolCall, "ok").title]),
    );
    expect(titles).toEqual({
      write_todos: "Updated the plan",
      ask_clarification: "Asked you a question",
      task: "Gave a subagent a task",
      tool_search: "Looked for tools",
      bash: "Ran a command",
      write_file: "Wrote a file",
      str_replace: "Edited a file",
      read_file: "Read a file",
      ls: "Listed files",
      web_search: "Searched the web",
      web_fetch: "Read a web page",
      present_files: "Presented files",
      view_image: "Looked at an image",
    });
  });

  it("keeps the raw name on the step, for its details", () => {
    expect(stepOf(call("write_todos", { todos: [] }), "ok").tool).toBe("write_todos");
  });

  it("writes another tool's name as words, with its MCP server when the result names it", () => {
    expect(stepOf(call("github_create_issue", { title: "x" }), "ok").title).toBe("Used github create issue");
    const mcp = call("docs_search_pages", { q: "x" });
    const results = toolResultsOf([
      { ...result(mcp.id, "found"), artifact: { mcp_server: "docs", mcp_tool: "search_pages" } },
    ]);
    expect(toolSteps([mcp], results, false)[0]!.title).toBe("Used search pages on docs");
    expect(stepOf(call("echo", {}), "ok").title).toBe("Used echo");
  });
});

describe("step status", () => {
  it("shows a call whose result comes later as pending, one that never got one as failed", () => {
    const bash = call("bash", { command: "ls" });
    const none = toolResultsOf([]);
    expect(toolSteps([bash], none, true)[0]!.status).toBe("running");
    expect(toolSteps([bash], none, false, new Set([bash.id]))[0]!.status).toBe("pending");
    expect(toolSteps([bash], none, false)[0]!.status).toBe("failed");
    expect(toolSteps([bash], toolResultsOf([result(bash.id, "a")]), false, new Set([bash.id]))[0]!.status).toBe("done");
  });
});
