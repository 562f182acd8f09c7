import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  limitTaskCalls,
  SUBAGENT_CONCURRENCY_DEFAULT,
  SUBAGENT_RUN_TOTAL_DEFAULT,
  subagentLimitMiddleware,
  subagentLimitNote,
  subagentLimits,
} from "./subagent-limit.ts";

const call = (id: string, name = "task") => ({ id, name, args: { prompt: id }, type: "tool_call" as const });
const raw = (id: string, name = "task") => ({ id, type: "function" as const, function: { name, arguments: "{}" } });

function response(ids: string[], extra: { id: string; name: string }[] = []) {
  return new AIMessage({
    id: "resp",
    content: "Delegating.",
    tool_calls: [...ids.map((id) => call(id)), ...extra.map(({ id, name }) => call(id, name))],
    additional_kwargs: { tool_calls: [...ids.map((id) => raw(id)), ...extra.map(({ id, name }) => raw(id, name))] },
    response_metadata: { finish_reason: "tool_calls" },
  });
}

/** A finished earlier step of the run with these task calls. */
function done(ids: string[]): BaseMessage[] {
  return [
    new AIMessage({ content: "", tool_calls: ids.map((id) => call(id)) }),
    ...ids.map((id) => new ToolMessage({ content: "Task Succeeded.", tool_call_id: id, name: "task" })),
  ];
}

const ids = (message: AIMessage | undefined) => message?.tool_calls?.map((toolCall) => toolCall.id);
const rawIds = (message: AIMessage | undefined) =>
  (message?.additional_kwargs.tool_calls as { id: string }[] | undefined)?.map((entry) => entry.id);

describe("subagentLimits", () => {
  it("defaults to 3 per response and 6 per run, and clamps to 1–4 and 1–50", () => {
    expect(subagentLimits()).toEqual({
      maxConcurrent: SUBAGENT_CONCURRENCY_DEFAULT,
      maxTotal: SUBAGENT_RUN_TOTAL_DEFAULT,
    });
    expect(subagentLimits({ maxConcurrent: 0, maxTotal: 0 })).toEqual({ maxConcurrent: 1, maxTotal: 1 });
    expect(subagentLimits({ maxConcurrent: 9, maxTotal: 500 })).toEqual({ maxConcurrent: 4, maxTotal: 50 });
  });
});

describe("limitTaskCalls", () => {
  it("keeps the first N task calls, leaves other calls alone and cuts the raw calls the same way", () => {
    const limited = limitTaskCalls(
      [new HumanMessage("go"), response(["t1", "t2", "t3", "t4"], [{ id: "l1", name: "ls" }])],
      {
        maxConcurrent: 2,
      },
    );
    expect(ids(limited)).toEqual(["t1", "t2", "l1"]);
    expect(rawIds(limited)).toEqual(["t1", "t2", "l1"]);
    expect(limited?.id).toBe("resp");
    expect(limited?.content).toBe("Delegating.");
    expect(limited?.response_metadata.finish_reason).toBe("tool_calls");
  });

  it("changes nothing within the limits or without task calls", () => {
    expect(limitTaskCalls([new HumanMessage("go"), response(["t1", "t2", "t3"])])).toBeUndefined();
    expect(limitTaskCalls([new HumanMessage("go"), response([], [{ id: "l1", name: "ls" }])])).toBeUndefined();
    expect(limitTaskCalls([new HumanMessage("go"), new AIMessage("done")])).toBeUndefined();
  });

  it("counts the run's earlier task calls against the total", () => {
    const messages = [new HumanMessage("go"), ...done(["p1", "p2", "p3"]), response(["n1", "n2", "n3"])];
    expect(ids(limitTaskCalls(messages, { maxTotal: 4 }))).toEqual(["n1"]);
  });

  it("does not count task calls of earlier runs", () => {
    const messages = [
      new HumanMessage("first"),
      ...done(["p1", "p2", "p3", "p4"]),
      new AIMessage("Finished."),
      new HumanMessage("second"),
      response(["n1", "n2"]),
    ];
    expect(limitTaskCalls(messages, { maxTotal: 4 })).toBeUndefined();
  });

  it("drops every task call with a visible note when the run has none left", () => {
    const messages = [new HumanMessage("go"), ...done(["p1", "p2"]), response(["n1", "n2"])];
    const limited = limitTaskCalls(messages, { maxTotal: 2 });
    expect(limited?.tool_calls).toEqual([]);
    expect(limited?.additional_kwargs.tool_calls).toBeUndefined();
    expect(limited?.response_metadata.finish_reason).toBe("stop");
    expect(limited?.content).toBe(`Delegating.\n\n${subagentLimitNote(2)}`);
    expect(subagentLimitNote(2)).toMatch(/^\[Subagent limit reached\]/);
  });
});

describe("subagentLimitMiddleware", () => {
  it("runs only the allowed tasks and ends the run when the total is used up", async () => {
    const started: string[] = [];
    const task = tool(
      async ({ prompt }) => {
        started.push(prompt);
        return "Task Succeeded. Result: ok";
      },
      { name: "task", description: "Delegate.", schema: z.object({ prompt: z.string() }) },
    );
    const model = fakeModel()
      .respondWithTools(["a", "b", "c"].map((prompt) => ({ name: "task", args: { prompt } })))
      .respondWithTools(["d", "e"].map((prompt) => ({ name: "task", args: { prompt } })));
    const agent = createAgent({
      model,
      tools: [task],
      middleware: [subagentLimitMiddleware({ maxConcurrent: 2, maxTotal: 2 })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage("research")] });
    expect(started).toEqual(["a", "b"]);
    expect(model.callCount).toBe(2);
    const last = result.messages.at(-1) as AIMessage;
    expect(last.tool_calls).toEqual([]);
    expect(last.text).toContain("[Subagent limit reached]");
  });
});
