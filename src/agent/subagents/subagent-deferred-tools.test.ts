// Deferred MCP tools in subagents: a subagent of a lead agent whose MCP tools wait behind tool_search sees their
// names and tool_search only, finds one, then calls it (DeerFlow's deferred tools in subagents).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_SUBAGENT_SETTINGS } from "../../protocol/index.ts";
import { toolCatalog } from "../../mcp/tool-search.ts";
import { createLeadAgent } from "../lead-agent.ts";
import { callTool, ScriptedChatModel } from "./scripted-chat-model.ts";

/** A scripted model that records the tool names each call was bound with. */
class BindingRecorder extends ScriptedChatModel {
  readonly bound: string[][] = [];
  override bindTools(...args: unknown[]): this {
    const tools = (args[0] ?? []) as unknown[];
    this.bound.push(tools.map((entry) => String((entry as { name?: unknown }).name)).sort());
    return this;
  }
}

function mcpTool(name: string, ran: string[]) {
  return tool(
    async ({ query }) => {
      ran.push(`${name}:${query}`);
      return `${name} found 3 results for ${query}`;
    },
    { name, description: `The ${name} tool.`, schema: z.object({ query: z.string() }) },
  );
}

const systemText = (messages: BaseMessage[]) =>
  messages
    .filter((message) => SystemMessage.isInstance(message))
    .map((message) => message.text)
    .join("\n");

describe("deferred MCP tools in subagents", () => {
  it("a subagent finds a deferred tool with tool_search, then calls it; an unfound one stays hidden", async () => {
    const ran: string[] = [];
    const deferred = [mcpTool("wiki_search", ran), mcpTool("wiki_page", ran)];
    const catalog = await toolCatalog(deferred);
    const model = new BindingRecorder({
      replies: [
        // The lead delegates; the subagent searches, calls what it found, answers; the lead answers.
        callTool("task", {
          description: "Look it up",
          prompt: "Search the wiki for otters.",
          subagent_type: "general-purpose",
        }),
        callTool("tool_search", { query: "select:wiki_search" }, "s1"),
        callTool("wiki_search", { query: "otters" }, "w1"),
        new AIMessage("The wiki has 3 pages on otters."),
        new AIMessage("Done: 3 pages."),
      ],
    });
    const agent = createLeadAgent({
      model,
      now: new Date("2026-01-01T00:00:00Z"),
      subagents: DEFAULT_SUBAGENT_SETTINGS,
      mcp: { tools: deferred, servers: [{ name: "wiki" }], unavailable: [], catalog },
      retry: { maxRetries: 0 },
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Find otters in the wiki.")] });

    // Calls 1–3 are the subagent's (call 0 and 4 the lead's).
    const subagentBindings = model.bound.slice(1, 4);
    expect(subagentBindings[0]).toContain("tool_search");
    expect(subagentBindings[0]).not.toContain("wiki_search");
    expect(subagentBindings[1]).toContain("wiki_search");
    expect(subagentBindings.flat()).not.toContain("wiki_page");
    expect(subagentBindings.flat()).not.toContain("task");
    expect(systemText(model.calls[1]!)).toContain(
      "<available-deferred-tools>\nwiki_page\nwiki_search\n</available-deferred-tools>",
    );
    expect(ran).toEqual(["wiki_search:otters"]);
    const taskResult = result.messages.find((message) => ToolMessage.isInstance(message) && message.name === "task");
    expect(taskResult?.text).toBe("Task Succeeded. Result: The wiki has 3 pages on otters.");
  });

  it("a subagent calling a deferred tool it has not found is told to search first", async () => {
    const ran: string[] = [];
    const deferred = [mcpTool("wiki_search", ran)];
    const model = new BindingRecorder({
      replies: [
        callTool("task", { description: "Look it up", prompt: "Search.", subagent_type: "general-purpose" }),
        callTool("wiki_search", { query: "otters" }, "w1"),
        (messages) => new AIMessage(`Seen: ${messages.at(-1)!.text}`),
        new AIMessage("Done."),
      ],
    });
    const agent = createLeadAgent({
      model,
      subagents: DEFAULT_SUBAGENT_SETTINGS,
      mcp: { tools: deferred, servers: [{ name: "wiki" }], unavailable: [], catalog: await toolCatalog(deferred) },
      retry: { maxRetries: 0 },
    });
    const result = await agent.invoke({ messages: [new HumanMessage("Go.")] });
    expect(ran).toEqual([]);
    const taskResult = result.messages.find((message) => ToolMessage.isInstance(message) && message.name === "task");
    expect(taskResult?.text).toContain("Seen: Error: wiki_search is a deferred tool: call tool_search first");
  });
});
