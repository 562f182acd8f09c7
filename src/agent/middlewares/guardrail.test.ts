import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { createAgent, createMiddleware, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { notAllowedMessage, toolAllowlistMiddleware } from "./guardrail.ts";

function setup() {
  const ran: string[] = [];
  const make = (name: string) =>
    tool(
      async () => {
        ran.push(name);
        return `${name} done`;
      },
      { name, description: `The ${name} tool.`, schema: z.object({}) },
    );
  const offered: string[][] = [];
  // Sits inside the allowlist, so it records the tools the model is actually offered.
  const spy = createMiddleware({
    name: "OfferedTools",
    wrapModelCall: (request, handler) => {
      offered.push(request.tools.map((entry) => (entry as { name: string }).name));
      return handler(request);
    },
  });
  return { ran, offered, spy, tools: [make("ls"), make("read_file"), make("bash")] };
}

describe("notAllowedMessage", () => {
  it("names the tool and what is allowed", () => {
    expect(notAllowedMessage("bash", ["ls", "read_file"])).toBe(
      "Tool 'bash' is not allowed here. Allowed: ls, read_file.",
    );
    expect(notAllowedMessage("bash", [])).toBe("Tool 'bash' is not allowed here. Allowed: none.");
  });
});

describe("toolAllowlistMiddleware", () => {
  it("offers the model only the allowed tools", async () => {
    const { offered, spy, tools } = setup();
    const model = fakeModel().respond(new AIMessage("Hi."));
    const agent = createAgent({
      model,
      tools,
      middleware: [toolAllowlistMiddleware({ allow: ["ls", "read_file"] }), spy],
    });
    await agent.invoke({ messages: [new HumanMessage("hello")] });
    expect(offered).toEqual([["ls", "read_file"]]);
  });

  it("refuses a call to a tool outside the list without running it, and runs allowed ones", async () => {
    const { ran, tools } = setup();
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: {}, id: "b1" },
        { name: "ls", args: {}, id: "l1" },
      ])
      .respond(new AIMessage("Done."));
    const agent = createAgent({ model, tools, middleware: [toolAllowlistMiddleware({ allow: ["ls", "read_file"] })] });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(ran).toEqual(["ls"]);
    const results = result.messages.filter(ToolMessage.isInstance);
    expect(results.find((message) => message.tool_call_id === "b1")).toMatchObject({
      content: "Tool 'bash' is not allowed here. Allowed: ls, read_file.",
      status: "error",
      name: "bash",
    });
    expect(results.find((message) => message.tool_call_id === "l1")?.content).toBe("ls done");
    expect(result.messages.at(-1)?.text).toBe("Done.");
  });

  it("drops a forced tool choice that names a hidden tool", async () => {
    const { tools } = setup();
    const choices: unknown[] = [];
    const force = createMiddleware({
      name: "ForceBash",
      wrapModelCall: (request, handler) =>
        handler({ ...request, toolChoice: { type: "function", function: { name: "bash" } } }),
    });
    const record = createMiddleware({
      name: "RecordChoice",
      wrapModelCall: (request, handler) => {
        choices.push(request.toolChoice);
        return handler(request);
      },
    });
    const model = fakeModel().respond(new AIMessage("ok"));
    const agent = createAgent({
      model,
      tools,
      middleware: [force, toolAllowlistMiddleware({ allow: ["ls"] }), record],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(choices).toEqual([undefined]);
  });
});
