// Checks the mock's Anthropic Messages and Gemini routes over real HTTP, as those providers' SDKs call them.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HELLO_TEXT, REASONING_CHUNKS } from "./scenarios.ts";
import { startMockLlm, type MockLlm } from "./server.ts";

let mock: MockLlm;
let origin: string;

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
  origin = mock.url.replace(/\/v1$/, "");
});

afterAll(async () => {
  await mock.close();
});

/** SSE frames as `{event, data}` (Gemini's have no event name). */
async function sse(response: Response): Promise<{ event?: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "{}") as Record<string, unknown>;
      return { ...(event && { event }), data };
    });
}

const anthropicTools = [{ name: "bash", description: "Run", input_schema: { type: "object" } }];

function messages(body: Record<string, unknown>, key = "sk-ant-test"): Promise<Response> {
  return fetch(`${origin}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "mock-model", max_tokens: 1024, stream: true, ...body }),
  });
}

describe("the Anthropic Messages route", () => {
  it("streams thinking (when asked for), then text, in Anthropic's event order", async () => {
    const response = await messages({
      model: "mock-thinking",
      thinking: { type: "enabled", budget_tokens: 2048 },
      messages: [{ role: "user", content: "hello" }],
    });
    const frames = await sse(response);
    expect(frames[0]?.event).toBe("message_start");
    expect(frames.at(-2)?.data).toMatchObject({ type: "message_delta", delta: { stop_reason: "end_turn" } });
    expect(frames.at(-1)?.event).toBe("message_stop");
    const deltas = frames.filter((frame) => frame.event === "content_block_delta").map((frame) => frame.data.delta);
    const thinking = deltas.filter((d) => (d as { type: string }).type === "thinking_delta");
    expect(thinking.map((d) => (d as { thinking: string }).thinking)).toEqual(REASONING_CHUNKS);
    const text = deltas.filter((d) => (d as { type: string }).type === "text_delta");
    expect(text.map((d) => (d as { text: string }).text).join("")).toBe(HELLO_TEXT);
  });

  it("does not think when thinking is off, and calls tools with streamed JSON input", async () => {
    const response = await messages({
      model: "mock-thinking",
      tools: anthropicTools,
      messages: [{ role: "user", content: [{ type: "text", text: 'call tool bash {"command":"ls"}' }] }],
    });
    const frames = await sse(response);
    expect(frames.some((frame) => (frame.data.delta as { type?: string })?.type === "thinking_delta")).toBe(false);
    const start = frames.find((frame) => frame.event === "content_block_start");
    expect(start?.data.content_block).toMatchObject({ type: "tool_use", name: "bash" });
    const json = frames
      .map((frame) => frame.data.delta as { type?: string; partial_json?: string } | undefined)
      .filter((d) => d?.type === "input_json_delta")
      .map((d) => d?.partial_json)
      .join("");
    expect(JSON.parse(json)).toEqual({ command: "ls" });
    expect(frames.at(-2)?.data).toMatchObject({ delta: { stop_reason: "tool_use" } });
  });

  it("reads tool_result blocks as tool results (the same scenario as OpenAI's tool messages)", async () => {
    const response = await messages({
      stream: false,
      messages: [
        { role: "user", content: "run it" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "42 files" }] },
      ],
    });
    const body = (await response.json()) as { content: { type: string; text: string }[] };
    expect(body.content).toEqual([{ type: "text", text: "The tool returned: 42 files" }]);
  });

  it("answers a bad key 401, a lasting rate limit 429 and an overload 529, in Anthropic's error shape", async () => {
    const bad = await messages({ messages: [{ role: "user", content: "hi" }] }, "sk-bad-key");
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    for (const [text, status, type] of [
      ["quota exhausted", 429, "rate_limit_error"],
      ["overloaded", 529, "overloaded_error"],
    ] as const) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await messages({ messages: [{ role: "user", content: text }] });
        expect(response.status).toBe(status);
        expect(await response.json()).toMatchObject({ type: "error", error: { type } });
      }
    }
  });

  it("lists models at /v1/models in Anthropic's shape when asked with x-api-key", async () => {
    const response = await fetch(`${origin}/v1/models`, {
      headers: { "x-api-key": "sk-ant", "anthropic-version": "2023-06-01" },
    });
    const body = (await response.json()) as { data: { type: string; id: string }[]; has_more: boolean };
    expect(body.data.map((model) => model.id)).toContain("mock-thinking");
    expect(body.data[0]?.type).toBe("model");
    expect(body.has_more).toBe(false);
  });
});

function generate(model: string, body: Record<string, unknown>, key = "AIza-test"): Promise<Response> {
  return fetch(`${origin}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": key },
    body: JSON.stringify(body),
  });
}

type GeminiChunk = {
  candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
  usageMetadata?: Record<string, number>;
};

describe("the Gemini route", () => {
  it("streams thought parts (when thoughts are asked for), then text, usage on the last chunk", async () => {
    const response = await generate("mock-thinking", {
      contents: [{ role: "user", parts: [{ text: "hello" }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    const chunks = (await sse(response)).map((frame) => frame.data as unknown as GeminiChunk);
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts.filter((part) => part.thought === true).map((part) => part.text)).toEqual(REASONING_CHUNKS);
    expect(
      parts
        .filter((part) => part.thought !== true)
        .map((part) => part.text)
        .join(""),
    ).toBe(HELLO_TEXT);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe("STOP");
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
  });

  it("calls functions, and reads functionResponse parts as tool results", async () => {
    const tools = [{ functionDeclarations: [{ name: "bash", description: "Run", parameters: { type: "object" } }] }];
    const call = await generate("mock-model", {
      tools,
      contents: [{ role: "user", parts: [{ text: 'call tool bash {"command":"ls"}' }] }],
    });
    const chunks = (await sse(call)).map((frame) => frame.data as unknown as GeminiChunk);
    expect(chunks.at(-1)?.candidates[0]?.content.parts).toEqual([
      { functionCall: { name: "bash", args: { command: "ls" } } },
    ]);
    const result = await generate("mock-model", {
      tools,
      contents: [
        { role: "user", parts: [{ text: "run it" }] },
        { role: "model", parts: [{ functionCall: { name: "bash", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { name: "bash", response: { result: "42 files" } } }] },
      ],
    });
    const text = (await sse(result))
      .flatMap((frame) => (frame.data as unknown as GeminiChunk).candidates[0]?.content.parts ?? [])
      .map((part) => part.text)
      .join("");
    expect(text).toBe("The tool returned: 42 files");
  });

  it("answers a bad key 400 API_KEY_INVALID, a lasting quota 429 and an overload 503, in Google's error shape", async () => {
    const bad = await generate("mock-model", { contents: [{ role: "user", parts: [{ text: "hi" }] }] }, "bad-key");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT", details: [{ reason: "API_KEY_INVALID" }] },
    });
    const quota = await generate("mock-model", { contents: [{ role: "user", parts: [{ text: "quota exhausted" }] }] });
    expect(quota.status).toBe(429);
    expect(await quota.json()).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
    const busy = await generate("mock-model", { contents: [{ role: "user", parts: [{ text: "overloaded" }] }] });
    expect(busy.status).toBe(503);
    expect(await busy.json()).toMatchObject({ error: { code: 503, status: "UNAVAILABLE" } });
  });

  it("lists chat models at /v1beta/models with their input limits", async () => {
    const response = await fetch(`${origin}/v1beta/models`, { headers: { "x-goog-api-key": "AIza" } });
    const body = (await response.json()) as { models: { name: string; inputTokenLimit: number }[] };
    expect(body.models.map((model) => model.name)).toContain("models/mock-thinking");
    expect(body.models[0]?.inputTokenLimit).toBeGreaterThan(0);
  });
});
