import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { createAgent, createMiddleware, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  deferredToolsPrompt,
  promotedToolNames,
  searchTools,
  shouldDeferTools,
  toolCatalog,
  toolSearchMiddleware,
  toolSearchTool,
} from "./tool-search.ts";

function makeTool(name: string, description: string, ran: string[] = []) {
  return tool(
    async () => {
      ran.push(name);
      return `${name} done`;
    },
    { name, description, schema: z.object({ query: z.string().optional() }) },
  );
}

const tools = [
  makeTool("github_search_issues", "Search issues and pull requests."),
  makeTool("github_create_issue", "Open a new issue."),
  makeTool("github_get_file", "Read a file from a repository."),
  makeTool("slack_post_message", "Post a message to a channel."),
  makeTool("slack_search", "Search messages in Slack."),
  makeTool("notion_search", "Search pages."),
  makeTool("notion_get_page", "Read a page."),
];

describe("searchTools", () => {
  const names = (query: string) => searchTools(tools, query).map((found) => found.name);

  it("selects exact names with select:", () => {
    expect(names("select:slack_search, github_get_file,missing")).toEqual(["slack_search", "github_get_file"]);
  });

  it("requires a word in the name with +word, ranked by the other words", () => {
    expect(names("+github pull requests")).toEqual(["github_search_issues", "github_create_issue", "github_get_file"]);
  });

  it("matches a regular expression over names first, then descriptions, at most five", () => {
    expect(names("search")).toEqual(["github_search_issues", "slack_search", "notion_search"]);
    expect(names("page")).toEqual(["notion_get_page", "notion_search"]);
    expect(names(".*")).toHaveLength(5);
    // Not a valid expression: taken literally.
    expect(names("search(")).toEqual([]);
  });
});

describe("tool_search", () => {
  it("returns the found tools' function schemas, tagged with the catalog, or says nothing matched", async () => {
    const catalog = await toolCatalog(tools);
    const search = toolSearchTool(catalog);
    const found = (await search.invoke({
      id: "s1",
      name: "tool_search",
      args: { query: "select:slack_search" },
      type: "tool_call",
    })) as ToolMessage;
    expect(JSON.parse(String(found.content))).toEqual([
      expect.objectContaining({
        name: "slack_search",
        description: "Search messages in Slack.",
        parameters: expect.any(Object),
      }),
    ]);
    expect(found.artifact).toEqual({ catalog_hash: catalog.hash, names: ["slack_search"] });
    const none = (await search.invoke({
      id: "s2",
      name: "tool_search",
      args: { query: "zzz" },
      type: "tool_call",
    })) as ToolMessage;
    expect(none.content).toBe("No tools found matching: zzz");
  });

  it("counts only findings for the current catalog", async () => {
    const catalog = await toolCatalog(tools);
    const changed = await toolCatalog(tools.slice(1));
    expect(changed.hash).not.toBe(catalog.hash);
    expect((await toolCatalog([...tools].reverse())).hash).toBe(catalog.hash);
    const messages = [
      new ToolMessage({
        content: "[]",
        tool_call_id: "a",
        name: "tool_search",
        artifact: { catalog_hash: catalog.hash, names: ["slack_search"] },
      }),
      new ToolMessage({
        content: "[]",
        tool_call_id: "b",
        name: "tool_search",
        artifact: { catalog_hash: changed.hash, names: ["notion_search"] },
      }),
    ];
    expect([...promotedToolNames(messages, catalog)]).toEqual(["slack_search"]);
  });

  it("is worth it above 30 tools, and lists the deferred names for the prompt", async () => {
    expect(shouldDeferTools(30)).toBe(false);
    expect(shouldDeferTools(31)).toBe(true);
    const prompt = deferredToolsPrompt(await toolCatalog(tools.slice(0, 2)));
    expect(prompt).toBe(
      "<available-deferred-tools>\ngithub_create_issue\ngithub_search_issues\n</available-deferred-tools>",
    );
  });
});

describe("toolSearchMiddleware", () => {
  it("shows the model only tool_search until a search finds a tool, then binds it, and refuses an unfound one", async () => {
    const ran: string[] = [];
    const deferred = [makeTool("slack_search", "Search Slack.", ran), makeTool("notion_search", "Search Notion.", ran)];
    const builtIn = makeTool("bash", "Run a command.", ran);
    const catalog = await toolCatalog(deferred);
    const offered: string[][] = [];
    const prompts: string[] = [];
    const spy = createMiddleware({
      name: "OfferedTools",
      wrapModelCall: (request, handler) => {
        offered.push(request.tools.map((entry) => (entry as { name: string }).name).sort());
        prompts.push(request.systemMessage.text);
        return handler(request);
      },
    });
    const model = fakeModel()
      .respondWithTools([
        { name: "notion_search", args: {}, id: "n1" },
        { name: "tool_search", args: { query: "select:slack_search" }, id: "s1" },
      ])
      .respondWithTools([{ name: "slack_search", args: { query: "x" }, id: "c1" }])
      .respond(new AIMessage("Done."));
    const agent = createAgent({
      model,
      tools: [builtIn, ...deferred],
      middleware: [toolSearchMiddleware(catalog), spy],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(offered).toEqual([
      ["bash", "tool_search"],
      ["bash", "slack_search", "tool_search"],
      ["bash", "slack_search", "tool_search"],
    ]);
    expect(prompts[0]).toContain(
      "<available-deferred-tools>\nnotion_search\nslack_search\n</available-deferred-tools>",
    );
    expect(ran).toEqual(["slack_search"]);
    const refused = result.messages.filter(ToolMessage.isInstance).find((message) => message.tool_call_id === "n1");
    expect(refused).toMatchObject({ status: "error" });
    expect(String(refused?.content)).toMatch(/^Error: notion_search is a deferred tool: call tool_search first/);
  });
});
