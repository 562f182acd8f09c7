import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { GraphInterrupt, type Command } from "@langchain/langgraph";
import { createAgent, fakeModel, tool, type ToolCallRequest } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isCancellation, TOOL_ERROR_MAX_CHARS, toolErrorContent, toolErrorsMiddleware } from "./tool-errors.ts";

function request(signal?: AbortSignal): ToolCallRequest {
  return {
    toolCall: { id: "c1", name: "flaky", args: {} },
    tool: undefined,
    state: { messages: [] },
    runtime: signal ? { signal } : {},
  };
}

/** Runs the middleware's wrapToolCall around a tool that throws `error`. */
function callThrowing(error: unknown, signal?: AbortSignal): Promise<ToolMessage | Command> {
  const middleware = toolErrorsMiddleware();
  return Promise.resolve(
    middleware.wrapToolCall!(request(signal), () => {
      throw error;
    }),
  );
}

describe("toolErrorContent", () => {
  it("is 'Error: ' and the message, without stack frames", () => {
    const error = new Error("disk full");
    expect(error.stack).toContain("at ");
    expect(toolErrorContent(error)).toBe("Error: disk full");
    expect(toolErrorContent(new Error("bad input\n    at parse (file:///app/x.js:3:9)\n    at run (x.js:1:1)"))).toBe(
      "Error: bad input",
    );
    expect(toolErrorContent("plain")).toBe("Error: plain");
    expect(toolErrorContent({ code: 7 })).toBe('Error: {"code":7}');
  });

  it("never carries a stored key, even one echoed in a long message", async () => {
    const key = "sk-tool-SECRET-4242";
    expect(toolErrorContent(new Error(`upstream said: bad key ${key}`), TOOL_ERROR_MAX_CHARS, [key])).toBe(
      "Error: upstream said: bad key [redacted key]",
    );
    const long = toolErrorContent(`${"x".repeat(5_000)} ${key} ${"y".repeat(5_000)}`, TOOL_ERROR_MAX_CHARS, [key]);
    expect(long).not.toContain("SECRET");
    const middleware = toolErrorsMiddleware({ secrets: [key] });
    const result = await middleware.wrapToolCall!(request(), () => {
      throw new Error(`401 for ${key}`);
    });
    expect(ToolMessage.isInstance(result) && result.content).toBe("Error: 401 for [redacted key]");
  });

  it("is bounded to 2,000 characters", () => {
    const content = toolErrorContent(new Error("x".repeat(10_000)));
    expect(content.length).toBeLessThanOrEqual(TOOL_ERROR_MAX_CHARS);
    expect(content.startsWith("Error: xxx")).toBe(true);
    expect(content).toContain("[middle truncated:");
  });
});

describe("isCancellation", () => {
  it("knows an aborted run and an AbortError", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isCancellation(new Error("whatever"), controller.signal)).toBe(true);
    expect(isCancellation(new DOMException("stopped", "AbortError"))).toBe(true);
    expect(isCancellation(new Error("boom"), new AbortController().signal)).toBe(false);
  });
});

describe("toolErrorsMiddleware", () => {
  it("answers a throwing tool with an error ToolMessage", async () => {
    const result = await callThrowing(new TypeError("cannot read x"));
    expect(ToolMessage.isInstance(result)).toBe(true);
    expect(result).toMatchObject({
      content: "Error: cannot read x",
      tool_call_id: "c1",
      name: "flaky",
      status: "error",
    });
  });

  it("lets cancellation and LangGraph interrupts propagate", async () => {
    const abort = new DOMException("The run was stopped.", "AbortError");
    await expect(callThrowing(abort)).rejects.toBe(abort);
    const controller = new AbortController();
    controller.abort();
    const late = new Error("socket closed");
    await expect(callThrowing(late, controller.signal)).rejects.toBe(late);
    const interrupt = new GraphInterrupt();
    await expect(callThrowing(interrupt)).rejects.toBe(interrupt);
  });

  it("lets a full storage propagate, so the run ends with the storage-full sentence", async () => {
    const quota = new DOMException("", "QuotaExceededError");
    await expect(callThrowing(quota)).rejects.toBe(quota);
  });

  it("keeps the run going: the model sees the error and answers", async () => {
    const flaky = tool(
      async () => {
        throw new Error("service unavailable");
      },
      { name: "flaky", description: "Fails.", schema: z.object({}) },
    );
    const model = fakeModel()
      .respondWithTools([{ name: "flaky", args: {}, id: "c1" }])
      .respond(new AIMessage("The service is down; try later."));
    const agent = createAgent({ model, tools: [flaky], middleware: [toolErrorsMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    const toolMessage = result.messages.find(ToolMessage.isInstance);
    expect(toolMessage).toMatchObject({ content: "Error: service unavailable", status: "error" });
    expect(result.messages.at(-1)?.text).toBe("The service is down; try later.");
    expect(model.calls[1]!.messages.some((message) => message.text === "Error: service unavailable")).toBe(true);
  });

  it("stops the run when it is cancelled while a tool runs", async () => {
    const controller = new AbortController();
    const slow = tool(
      async () => {
        controller.abort();
        throw new DOMException("aborted", "AbortError");
      },
      { name: "slow", description: "Slow.", schema: z.object({}) },
    );
    const model = fakeModel()
      .respondWithTools([{ name: "slow", args: {} }])
      .respond(new AIMessage("never"));
    const agent = createAgent({ model, tools: [slow], middleware: [toolErrorsMiddleware()] });
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, { signal: controller.signal })).rejects.toThrow();
    expect(model.callCount).toBe(1);
  });
});
