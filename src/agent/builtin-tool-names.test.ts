// Built-in tools always win: BUILT_IN_TOOL_NAMES (which MCP tools are renamed around) names every tool the lead agent
// can have, and an MCP tool that still carries a built-in's name, or another tool's, never reaches the agent.
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool, type StructuredTool } from "@langchain/core/tools";
import { fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { BUILT_IN_TOOL_NAMES, DEFAULT_SUBAGENT_SETTINGS } from "../protocol/index.ts";
import { createMcpTools } from "../mcp/tools.ts";
import { MemoryImageSearch, MemoryWebFetch, MemoryWebSearch } from "./tools/web/memory-web-providers.ts";
import { webToolsFor } from "./tools/web/search-and-fetch-tools.ts";
import { askClarificationTool } from "./tools/clarification.ts";
import { createLeadAgent, type LeadAgentOptions } from "./lead-agent.ts";

type Agent = ReturnType<typeof createLeadAgent>;

/** Every tool the agent is built with: its own list and its middlewares' (write_todos, view_image, …). */
function agentTools(agent: Agent): StructuredTool[] {
  const options = agent.options as { tools?: StructuredTool[]; middleware?: { tools?: StructuredTool[] }[] };
  return [...(options.tools ?? []), ...(options.middleware ?? []).flatMap((middleware) => middleware.tools ?? [])];
}

const noSandbox = () => Promise.reject(new Error("no sandbox in this test"));
const webTools = () =>
  webToolsFor({
    search: new MemoryWebSearch([]),
    fetch: new MemoryWebFetch({}),
    images: new MemoryImageSearch([]),
  } as Parameters<typeof webToolsFor>[0]);

/** A tool of an MCP server, named as given (as a server could name it before Fawn renames it). */
function mcpTool(name: string, calls: string[]): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name,
    description: `An MCP tool named ${name}.`,
    schema: { type: "object", properties: {} },
    metadata: { mcp_server: "ask", mcp_tool: name },
    func: async () => {
      calls.push(name);
      return `the MCP ${name} ran`;
    },
  });
}

describe("built-in tool names", () => {
  it("BUILT_IN_TOOL_NAMES lists every tool of the lead agent with every option on", async () => {
    const agent = createLeadAgent({
      model: fakeModel(),
      sandbox: noSandbox,
      planMode: true,
      vision: true,
      subagents: DEFAULT_SUBAGENT_SETTINGS,
      webTools: webTools(),
      mcp: {
        tools: [],
        servers: [],
        unavailable: [],
        catalog: { tools: [], digest: "" } as unknown as NonNullable<LeadAgentOptions["mcp"]>["catalog"] & object,
      },
    });
    const names = agentTools(agent).map((tool) => tool.name);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !BUILT_IN_TOOL_NAMES.includes(name))).toEqual([]);
  });

  it("an MCP server's tools named ask_clarification or web_fetch do not reach the agent; the built-ins keep the names", async () => {
    const calls: string[] = [];
    const web = webTools();
    const agent = createLeadAgent({
      model: fakeModel()
        .respondWithTools([{ name: "ask_clarification", args: { question: "Which colour?" }, id: "c1" }])
        .respond(new AIMessage("unused")),
      webTools: web,
      mcp: {
        tools: [mcpTool("ask_clarification", calls), mcpTool("web_fetch", calls), mcpTool("ask_other", calls)],
        servers: [{ name: "ask" }],
        unavailable: [],
      },
    });
    const tools = agentTools(agent);
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(tools.find((tool) => tool.name === "ask_clarification")).toBe(askClarificationTool);
    expect(tools.find((tool) => tool.name === "web_fetch")).toBe(web.find((tool) => tool.name === "web_fetch"));
    expect(names).toContain("ask_other");

    // Called by that name, the built-in asks the user; the MCP tool never runs.
    const result = await agent.invoke({ messages: [new HumanMessage("pick a colour")] });
    expect(calls).toEqual([]);
    const answer = result.messages.filter(ToolMessage.isInstance).at(-1);
    expect(answer?.name).toBe("ask_clarification");
    expect(answer?.text).toContain("Which colour?");
  });

  it("an MCP server named ask with a tool named clarification gets ask_clarification_2 beside the built-in", async () => {
    const calls: string[] = [];
    const { tools, renamed } = createMcpTools(
      {
        config: { name: "ask", url: "https://ask.example/mcp", enabled: true },
        callTool: async (name) => {
          calls.push(name);
          return { content: [{ type: "text", text: "the MCP clarification ran" }] };
        },
      },
      [{ name: "clarification", inputSchema: { type: "object" } }],
    );
    expect(renamed).toEqual([
      {
        server: "ask",
        tool: "clarification",
        name: "ask_clarification_2",
        reason: 'renamed to "ask_clarification_2": "ask_clarification" is the name of a built-in tool',
      },
    ]);
    const agent = createLeadAgent({
      model: fakeModel()
        .respondWithTools([{ name: "ask_clarification_2", args: {}, id: "m1" }])
        .respond(new AIMessage("Done.")),
      mcp: { tools, servers: [{ name: "ask" }], unavailable: [] },
    });
    const agentNames = agentTools(agent).map((tool) => tool.name);
    expect(agentNames.filter((name) => name.startsWith("ask_clarification"))).toEqual([
      "ask_clarification_2",
      "ask_clarification",
    ]);
    expect(agentTools(agent).find((tool) => tool.name === "ask_clarification")).toBe(askClarificationTool);
    const result = await agent.invoke({ messages: [new HumanMessage("use the server")] });
    expect(calls).toEqual(["clarification"]);
    expect(result.messages.at(-1)?.text).toBe("Done.");
  });
});
