import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { JsonPlusSerializer, MemorySaver } from "@langchain/langgraph-checkpoint";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { humanInputRequestOf, type ToolWireMessage } from "../../protocol/index.ts";
import { fromWireMessage, toWireMessage } from "../wire-messages.ts";
import { askClarificationTool } from "./clarification.ts";
import { humanInputRequest } from "./clarification-request.ts";

function ask(args: Record<string, unknown>, id = "call-abc") {
  return askClarificationTool.invoke({ id, name: "ask_clarification", args, type: "tool_call" });
}

describe("ask_clarification", () => {
  it("answers its call with the question as text and the request as artifact.human_input", async () => {
    const args = { question: "Which format?", clarification_type: "approach_choice", options: ["PDF", "Markdown"] };
    const message = await ask(args);
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.id).toBe("clarification:call-abc");
    expect(message.name).toBe("ask_clarification");
    expect(message.tool_call_id).toBe("call-abc");
    expect(message.status).toBe("success");
    expect(message.content).toBe("🔀 Which format?\n\n  1. PDF\n  2. Markdown");
    // The request's shape is clarification-request.test.ts's concern; here, that the card gets it whole.
    expect(humanInputRequestOf(message.artifact)).toEqual(
      humanInputRequest(args, { requestId: "clarification:call-abc", toolCallId: "call-abc" }),
    );
  });

  it("normalizes slightly-off arguments instead of refusing them", async () => {
    const message = await ask({
      question: "Which environment?",
      clarification_type: "deployment",
      context: 42,
      options: '["dev", "prod"]',
      fields: "not a form",
    });
    expect(message.status).toBe("success");
    expect(message.content).toBe("❓ 42\n\nWhich environment?\n\n  1. dev\n  2. prod");
  });

  it("asks with a form when it has valid fields", async () => {
    const message = await ask({
      question: "Expense details?",
      clarification_type: "missing_info",
      fields: [
        { name: "amount", label: "Amount", type: "number", required: true },
        { name: "category", label: "Category", type: "select", options: ["travel", "meals"] },
      ],
    });
    expect(humanInputRequestOf(message.artifact)).toMatchObject({ version: 2, input_mode: "form" });
    expect(message.content).toContain("Please reply with a value for each field.");
  });

  it("shows the model the ideal shape of its arguments", () => {
    const schema = toJsonSchema(askClarificationTool.schema) as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.required).toEqual(["question", "clarification_type"]);
    expect(schema.properties.options).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schema.properties.clarification_type?.enum).toHaveLength(5);
    expect(schema.properties.fields).toMatchObject({ type: "array", items: { required: ["name"] } });
  });

  it("returns the text alone when called outside a tool call", async () => {
    expect(await askClarificationTool.invoke({ question: "Which city?", clarification_type: "missing_info" })).toBe(
      "❓ Which city?",
    );
  });

  it("keeps its artifact through the checkpointer's serializer and the wire", async () => {
    const message = await ask({ question: "Which city?", clarification_type: "missing_info" });
    const serde = new JsonPlusSerializer();
    const restored = (await serde.loadsTyped(...(await serde.dumpsTyped(message)))) as ToolMessage;
    expect(restored.artifact).toEqual(message.artifact);

    const wire = toWireMessage(restored) as ToolWireMessage;
    const structured = structuredClone(wire);
    expect(humanInputRequestOf(structured.artifact)?.question).toBe("Which city?");
    expect((fromWireMessage(structured) as ToolMessage).artifact).toEqual(message.artifact);
  });

  it("ends the run on the question", async () => {
    const model = fakeModel().respondWithTools([
      { name: "ask_clarification", args: { question: "Which city?", clarification_type: "missing_info" } },
    ]);
    const agent = createAgent({ model, tools: [askClarificationTool], checkpointer: new MemorySaver() });
    const result = await agent.invoke(
      { messages: [new HumanMessage("Book me a hotel")] },
      { configurable: { thread_id: "t1" } },
    );
    expect(model.callCount).toBe(1);
    const last = result.messages.at(-1) as ToolMessage;
    expect(last.name).toBe("ask_clarification");
    expect(last.content).toBe("❓ Which city?");
    expect(humanInputRequestOf(last.artifact)?.input_mode).toBe("free_text");
  });
});
