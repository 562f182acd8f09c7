// A model's options through the Gateway: a model marked for OpenAI's Responses API runs a whole thread over
// /v1/responses (the reply streamed, a tool called and its result read back, a second message after it), and the
// entry's temperature and max tokens reach every model request of the run.
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("model-options-test");

/** The text of the run's streamed reply pieces. */
function streamedText(events: RunEvent[]): string[] {
  return events.flatMap((event) =>
    event.event === "messages" && event.data[0].type === "AIMessageChunk" && typeof event.data[0].content === "string"
      ? [event.data[0].content]
      : event.event === "messages" && event.data[0].type === "AIMessageChunk" && Array.isArray(event.data[0].content)
        ? event.data[0].content.map((part) => (part.type === "text" ? part.text : ""))
        : [],
  );
}

describe("a model on OpenAI's Responses API", () => {
  it("streams its reply, calls a tool and reads its result back, and answers a second message", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({
        baseUrl: harness.mock.url,
        apiKey: "sk-test",
        model: "mock-model",
        models: [{ id: "mock-model", responsesApi: true, temperature: 0.5, maxTokens: 700 }],
      }),
    );
    const thread = await harness.gateway.threads.create();
    const first = await runThread(harness.gateway, thread.thread_id, "hello");
    expect(first.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(streamedText(first).filter(Boolean).length).toBeGreaterThan(3);
    expect(streamedText(first).join("")).toContain("I am Fawn's mock model");

    const second = await runThread(
      harness.gateway,
      thread.thread_id,
      'call tool bash {"description":"say","command":"echo from-responses"}',
    );
    expect(second.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const detail = await harness.gateway.threads.get(thread.thread_id);
    const messages = detail?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])) ?? [];
    expect(messages.map((message) => message.type)).toEqual(["human", "ai", "human", "ai", "tool", "ai"]);
    const reply = messages.at(-1);
    expect(typeof reply?.content === "string" ? reply.content : JSON.stringify(reply?.content)).toContain(
      "The tool returned: from-responses",
    );

    const models = harness.mock.requests.filter((request) => !request.path.startsWith("/__mock"));
    expect(models.map((request) => request.path)).not.toContain("/v1/chat/completions");
    const conversation = models.filter((request) => request.scenario !== "title" && request.scenario !== "suggestions");
    expect(conversation.length).toBeGreaterThanOrEqual(3);
    for (const request of conversation) {
      expect(request.path).toBe("/v1/responses");
      expect(request.body).toMatchObject({ temperature: 0.5, max_output_tokens: 700, stream: true });
    }
    // The tool's output went back as the Responses API's function_call_output, after the call it answers.
    const last = conversation.at(-1)?.body as { input: { type?: string; call_id?: string; output?: string }[] };
    const call = last.input.find((item) => item.type === "function_call");
    const output = last.input.find((item) => item.type === "function_call_output");
    expect(output?.call_id).toBe(call?.call_id);
    expect(output?.output).toContain("from-responses");
  });
});
