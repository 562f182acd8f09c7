import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton, MockAsyncLocalStorage } from "@langchain/core/singletons";
import type { StructuredTool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_SUBAGENT_SETTINGS, isTaskEvent, type SubtaskOutcome, type TaskEvent } from "../../protocol/index.ts";
import { askClarificationTool } from "../tools/clarification.ts";
import { callTool, ScriptedChatModel } from "./scripted-chat-model.ts";
import type { SubagentRun, SubagentRunOptions } from "./subagent-runner.ts";
import { resolveSubagentTypes, type SubagentType } from "./subagent-types.ts";
import { createTaskTool } from "./task-tool.ts";

function namedTool(name: string, answer = `${name} ran`): StructuredTool {
  return tool(async () => answer, { name, description: `The ${name} tool.`, schema: z.object({}) });
}

const PARENT_TOOL_NAMES = ["bash", "ls", "read_file", "write_file", "str_replace", "glob", "web_search"];
const parentTools = [...PARENT_TOOL_NAMES.map((name) => namedTool(name)), namedTool("present_files")];
const types = (overrides: Partial<SubagentType> = {}) =>
  resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, [
    ...PARENT_TOOL_NAMES,
    "present_files",
    "task",
    "ask_clarification",
  ]).map((type) => ({ ...type, ...overrides }));

function taskCall(id: string, prompt: string, subagentType = "general-purpose") {
  return {
    id,
    name: "task",
    args: { description: `Do ${id}`, prompt, subagent_type: subagentType },
    type: "tool_call" as const,
  };
}

/** Streams a parent agent that has the task tool, collecting the custom events and the final messages. */
async function streamParent(
  parentReplies: AIMessage[],
  taskTool: StructuredTool,
  options: { signal?: AbortSignal; onEvent?: (event: TaskEvent) => void } = {},
) {
  const parent = createAgent({
    model: new ScriptedChatModel({ replies: parentReplies }),
    tools: [taskTool, askClarificationTool],
  });
  const events: TaskEvent[] = [];
  let messages: BaseMessage[] = [];
  const stream = await parent.stream(
    { messages: [new HumanMessage("Research three things.")] },
    { streamMode: ["custom", "values"], ...(options.signal && { signal: options.signal }) },
  );
  for await (const [mode, chunk] of stream) {
    if (mode === "custom" && isTaskEvent(chunk)) {
      events.push(chunk);
      options.onEvent?.(chunk);
    }
    if (mode === "values") messages = (chunk as { messages: BaseMessage[] }).messages;
  }
  return { events, messages };
}

describe("createTaskTool", () => {
  it("streams started, each subagent message and one completion through the parent's custom stream", async () => {
    const subagent = new ScriptedChatModel({
      model: "sub-model",
      replies: [
        callTool("read_file", {}, "sub-1", "Reading."),
        new AIMessage({
          content: "Paris is the capital.",
          usage_metadata: { input_tokens: 4, output_tokens: 2, total_tokens: 6 },
        }),
      ],
    });
    const task = createTaskTool({ types: types(), model: subagent, tools: parentTools });
    const { events, messages } = await streamParent(
      [
        new AIMessage({ content: "", tool_calls: [taskCall("call-1", "Find the capital of France.")] }),
        new AIMessage("Paris."),
      ],
      task,
    );
    expect(events.map((event) => event.type)).toEqual([
      "task_started",
      "task_running",
      "task_running",
      "task_running",
      "task_completed",
    ]);
    expect(events.every((event) => event.task_id === "call-1")).toBe(true);
    expect(events[0]).toEqual({
      type: "task_started",
      task_id: "call-1",
      description: "Do call-1",
      subagent_type: "general-purpose",
      model_name: "sub-model",
    });
    const running = events.filter((event) => event.type === "task_running");
    expect(running.map((event) => [event.message_index, event.total_messages, event.message.type])).toEqual([
      [1, 1, "ai"],
      [2, 2, "tool"],
      [3, 3, "ai"],
    ]);
    expect(running[2]).toMatchObject({ usage: { total_tokens: 6 }, model_name: "sub-model" });
    expect(events[4]).toMatchObject({
      type: "task_completed",
      result: "Paris is the capital.",
      usage: { total_tokens: 6 },
    });

    const result = messages.find((message): message is ToolMessage => ToolMessage.isInstance(message))!;
    expect(result.tool_call_id).toBe("call-1");
    expect(result.content).toBe("Task Succeeded. Result: Paris is the capital.");
    expect(result.artifact).toMatchObject({
      subagent_status: "completed",
      subagent_type: "general-purpose",
      subagent_result_brief: "Paris is the capital.",
      subagent_model_name: "sub-model",
    } satisfies Partial<SubtaskOutcome>);
    expect(result.artifact).not.toHaveProperty("text");
    expect(messages.at(-1)?.text).toBe("Paris.");
  });

  it("uses the writer and tool call id its config carries, with no graph around it", async () => {
    const events: unknown[] = [];
    const task = createTaskTool({
      types: types(),
      model: new ScriptedChatModel({ replies: [new AIMessage("Done.")] }),
      tools: [],
    });
    const message = await task.invoke(taskCall("call-direct", "Do it."), {
      writer: (chunk: unknown) => events.push(chunk),
    } as never);
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).content).toBe("Task Succeeded. Result: Done.");
    expect(events.map((event) => (event as TaskEvent).task_id)).toEqual(["call-direct", "call-direct", "call-direct"]);
  });

  it("runs the tasks of one response concurrently", async () => {
    const inFlightAtFirstAnswer: number[] = [];
    const subagent: ScriptedChatModel = new ScriptedChatModel({
      delayMs: 150,
      fallback: (messages) => {
        inFlightAtFirstAnswer.push(subagent.calls.length - subagent.finished);
        return new AIMessage(`Done: ${messages.at(-1)?.text}`);
      },
    });
    const task = createTaskTool({ types: types(), model: subagent, tools: parentTools });
    const calls = ["a", "b", "c"].map((name) => taskCall(`call-${name}`, `topic ${name}`));
    const { events, messages } = await streamParent(
      [new AIMessage({ content: "", tool_calls: calls }), new AIMessage("Summary.")],
      task,
    );
    const lastStart = events.findLastIndex((event) => event.type === "task_started");
    const firstEnd = events.findIndex((event) => event.type === "task_completed");
    expect(events.filter((event) => event.type === "task_started")).toHaveLength(3);
    expect(lastStart).toBeLessThan(firstEnd);
    // When the first subagent answered, all three were waiting on their model at once.
    expect(inFlightAtFirstAnswer[0]).toBe(3);
    const results = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
    expect(results.map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call-a", "Task Succeeded. Result: Done: topic a"],
      ["call-b", "Task Succeeded. Result: Done: topic b"],
      ["call-c", "Task Succeeded. Result: Done: topic c"],
    ]);
  });

  it("streams its events without AsyncLocalStorage, as in the browser build", async () => {
    const key = Symbol.for("ls:tracing_async_local_storage");
    const global = globalThis as Record<symbol, unknown>;
    const saved = global[key];
    global[key] = new MockAsyncLocalStorage();
    try {
      let implicitConfig: unknown = "unread";
      const model = new ScriptedChatModel({
        fallback: () => {
          implicitConfig = AsyncLocalStorageProviderSingleton.getRunnableConfig();
          return new AIMessage("Done.");
        },
      });
      const task = createTaskTool({ types: types(), model, tools: [] });
      const { events } = await streamParent(
        [new AIMessage({ content: "", tool_calls: [taskCall("call-web", "Go.")] }), new AIMessage("Ok.")],
        task,
      );
      expect(events.map((event) => [event.type, event.task_id])).toEqual([
        ["task_started", "call-web"],
        ["task_running", "call-web"],
        ["task_completed", "call-web"],
      ]);
      // Nothing reached the subagent through AsyncLocalStorage.
      expect(implicitConfig).toBeUndefined();
    } finally {
      global[key] = saved;
    }
  });

  it("times out with DeerFlow's text and a task_timed_out event", async () => {
    const subagent = new ScriptedChatModel({ delayMs: 10_000, fallback: new AIMessage("Too late.") });
    const task = createTaskTool({ types: types({ timeoutMs: 100 }), model: subagent, tools: [] });
    const { events, messages } = await streamParent(
      [new AIMessage({ content: "", tool_calls: [taskCall("call-slow", "Take forever.")] }), new AIMessage("Sorry.")],
      task,
    );
    expect(events.map((event) => event.type)).toEqual(["task_started", "task_timed_out"]);
    expect(events[1]).toMatchObject({ error: "The subagent did not finish within 0.1 seconds." });
    const result = messages.find((message): message is ToolMessage => ToolMessage.isInstance(message))!;
    expect(result.content).toBe("Task timed out. Error: The subagent did not finish within 0.1 seconds.");
    expect(result.artifact).toMatchObject({ subagent_status: "timed_out" });
  });

  it("hands the run's signal to the subagent, so Stop cancels it", async () => {
    const stop = new AbortController();
    let seen: AbortSignal | undefined;
    const runner = (options: SubagentRunOptions) =>
      new Promise<SubagentRun>((resolve) => {
        seen = options.signal;
        options.signal?.addEventListener("abort", () =>
          resolve({ subagent_status: "cancelled", subagent_type: options.type.name, text: "Task cancelled by user." }),
        );
      });
    const task = createTaskTool({ types: types(), model: new ScriptedChatModel(), tools: [], runner });
    await expect(
      streamParent([new AIMessage({ content: "", tool_calls: [taskCall("call-1", "Wait.")] })], task, {
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type === "task_started") stop.abort();
        },
      }),
    ).rejects.toThrow();
    expect(seen?.aborted).toBe(true);
  });

  it("stops calling the subagent's model when the run is stopped", async () => {
    const stop = new AbortController();
    const subagent = new ScriptedChatModel({ delayMs: 50, fallback: callTool("read_file", {}, undefined) });
    const task = createTaskTool({ types: types(), model: subagent, tools: parentTools });
    await expect(
      streamParent([new AIMessage({ content: "", tool_calls: [taskCall("call-1", "Loop.")] })], task, {
        signal: stop.signal,
        onEvent: (event) => {
          if (event.type === "task_running") stop.abort();
        },
      }),
    ).rejects.toThrow();
    const calls = subagent.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(subagent.calls.length).toBe(calls);
  });

  it("answers an unknown type with the available ones, as a failed task", async () => {
    const events: TaskEvent[] = [];
    const task = createTaskTool({ types: types(), model: new ScriptedChatModel(), tools: [] });
    const message = (await task.invoke(taskCall("call-x", "Go.", "researcher"), {
      writer: (chunk: TaskEvent) => events.push(chunk),
    } as never)) as ToolMessage;
    expect(message.content).toBe(
      "Task failed. Error: Unknown subagent type 'researcher'. Available: general-purpose, bash",
    );
    expect(message.artifact).toMatchObject({ subagent_status: "failed", subagent_type: "researcher" });
    expect(events.map((event) => event.type)).toEqual(["task_started", "task_failed"]);
  });

  it("gives general-purpose every parent tool but task, ask_clarification and present_files", async () => {
    const given: string[][] = [];
    const runner = async (options: SubagentRunOptions): Promise<SubagentRun> => {
      given.push(options.tools.map((candidate) => candidate.name));
      return { subagent_status: "completed", subagent_type: options.type.name, text: "Task Succeeded. Result: ok" };
    };
    const all = [...parentTools, namedTool("task"), askClarificationTool];
    const task = createTaskTool({ types: types(), model: new ScriptedChatModel(), tools: all, runner });
    await task.invoke(taskCall("c1", "Go."));
    await task.invoke(taskCall("c2", "Go.", "bash"));
    expect(given[0]).toEqual(PARENT_TOOL_NAMES);
    expect(given[1]).toEqual(["bash", "ls", "read_file", "write_file", "str_replace"]);
  });

  it("offers the available types by name and describes each", () => {
    const noBash = resolveSubagentTypes(
      {
        ...DEFAULT_SUBAGENT_SETTINGS,
        custom: [{ name: "fact-checker", description: "Checks claims against sources.", instructions: "Check." }],
      },
      ["web_search"],
    );
    const task = createTaskTool({ types: noBash, model: new ScriptedChatModel(), tools: [] });
    const schema = toJsonSchema(task.schema) as {
      required: string[];
      properties: Record<string, { enum?: string[] }>;
    };
    expect(schema.required).toEqual(["description", "prompt", "subagent_type"]);
    expect(schema.properties.subagent_type?.enum).toEqual(["general-purpose", "fact-checker"]);
    expect(task.name).toBe("task");
    expect(task.description).toContain("- fact-checker: Checks claims against sources.");
    expect(task.description).not.toContain("- bash:");
  });
});
