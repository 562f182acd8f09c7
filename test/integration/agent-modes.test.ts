// Modes: Flash, Thinking, Pro and Ultra change what the model is asked for and which tools the agent has.
import { describe, expect, it } from "vitest";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("agent-modes-test");

interface ChatBody {
  model: string;
  reasoning_effort?: string;
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown }[];
}

function chatBodies(): ChatBody[] {
  return harness.mock.requests
    .filter((request) => request.path.endsWith("/chat/completions"))
    .map((request) => request.body as ChatBody);
}

const toolNames = (body: ChatBody | undefined) => (body?.tools ?? []).map((tool) => tool.function.name);

async function configureModels(): Promise<void> {
  await harness.gateway.settings.saveModels(
    modelSettings({
      baseUrl: harness.mock.url,
      apiKey: "sk-test",
      model: "mock-model",
      models: [{ id: "mock-model" }, { id: "mock-thinking", thinking: true }],
    }),
  );
}

describe("modes", () => {
  it("Flash: no reasoning effort and no write_todos", async () => {
    await configureModels();
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "just answer", undefined, {
      mode: "flash",
      model: "mock-thinking",
    });
    const [body] = chatBodies();
    expect(body?.model).toBe("mock-thinking");
    expect(body?.reasoning_effort).toBeUndefined();
    expect(toolNames(body)).not.toContain("write_todos");
  });

  it("Thinking asks a reasoning model for low effort, and the reasoning is streamed apart from the answer", async () => {
    await configureModels();
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "think first", undefined, {
      mode: "thinking",
      model: "mock-thinking",
    });
    expect(chatBodies()[0]?.reasoning_effort).toBe("low");
    const reasoning = events
      .flatMap((event) =>
        event.event === "messages" && event.data[0].type === "AIMessageChunk" ? [event.data[0].reasoning ?? ""] : [],
      )
      .join("");
    expect(reasoning).toContain("Let me think about this step by step.");
    const last = (await harness.gateway.threads.get(thread.thread_id))?.entries.at(-1);
    expect(last?.kind === "message" && last.message.type === "ai" && last.message.reasoning).toContain("step by step");
    expect(last?.kind === "message" && last.message.content).toBe("You said: think first");
  });

  it("Pro keeps a plan: write_todos updates the thread's todos, which getThread returns", async () => {
    await configureModels();
    const thread = await harness.gateway.threads.create();
    const todos = [
      { content: "Read the data", status: "completed" },
      { content: "Write the report", status: "in_progress" },
    ];
    const events = await runThread(
      harness.gateway,
      thread.thread_id,
      `call tool write_todos ${JSON.stringify({ todos })}`,
      undefined,
      { mode: "pro", model: "mock-thinking" },
    );
    expect(chatBodies()[0]?.reasoning_effort).toBe("medium");
    expect(toolNames(chatBodies()[0])).toContain("write_todos");
    const planned = events.flatMap((event) =>
      event.event === "values" && Array.isArray(event.data.todos) ? [event.data.todos] : [],
    );
    expect(planned.at(-1)).toEqual(todos);
    expect((await harness.gateway.threads.get(thread.thread_id))?.todos).toEqual(todos);
  });

  it("Pro on a model without reasoning keeps write_todos and sends no reasoning effort", async () => {
    await configureModels();
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "plan it", undefined, { mode: "pro", model: "mock-model" });
    const [body] = chatBodies();
    expect(body?.reasoning_effort).toBeUndefined();
    expect(toolNames(body)).toContain("write_todos");
  });
});
