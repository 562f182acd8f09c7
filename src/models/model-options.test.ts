// A model's options (temperature, max tokens, OpenAI's Responses API, the extra body when thinking): what Settings →
// Models refuses, one sentence each, and what each provider's request carries, read from the mock model's log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HELLO_TEXT } from "../../test/mock-llm/scenarios.ts";
import { startMockLlm, type MockLlm } from "../../test/mock-llm/server.ts";
import type { ModelEntry, ModelProvider, ModelTarget } from "../protocol/index.ts";
import { createChatModel } from "./chat-model.ts";
import { parseModelSettings } from "./model-settings.ts";

/** Settings with one `provider` endpoint named Main holding `entry`. */
function settings(entry: object, provider: ModelProvider = "openai-compatible") {
  return {
    endpoints: [
      { id: "main", name: "Main", provider, baseUrl: "https://api.example.test/v1", apiKey: "", models: [entry] },
    ],
    defaultModel: { endpoint: "main", model: "m" },
  };
}

function refusal(entry: object, provider?: ModelProvider): string | undefined {
  const parsed = parseModelSettings(settings(entry, provider));
  return parsed.ok ? undefined : parsed.message;
}

describe("model options in Settings → Models", () => {
  it("keeps temperature, max tokens, the Responses API and the extra body when thinking, as set", () => {
    const entry = {
      id: "m",
      thinking: true,
      temperature: 0.4,
      maxTokens: 2048,
      responsesApi: true,
      thinkingExtraBody: { thinking: { type: "enabled" } },
    };
    const parsed = parseModelSettings(settings(entry));
    expect(parsed.ok && parsed.value.endpoints[0]?.models[0]).toEqual(entry);
    const plain = parseModelSettings(settings({ id: "m", responsesApi: false, thinkingExtraBody: {} }));
    expect(plain.ok && plain.value.endpoints[0]?.models[0]).toEqual({ id: "m" });
  });

  it("refuses each wrong option in its own sentence, naming the model and its endpoint", () => {
    expect(refusal({ id: "m", temperature: 2.5 })).toBe("The temperature of m of Main is a number from 0 to 2.");
    expect(refusal({ id: "m", temperature: 1.5 }, "anthropic")).toBe(
      "The temperature of m of Main is a number from 0 to 1.",
    );
    expect(refusal({ id: "m", maxTokens: 0.5, temperature: -1 })).toBe(
      "The temperature of m of Main is a number from 0 to 2. Max tokens of m of Main is a whole number from 1 to 1,000,000.",
    );
    expect(refusal({ id: "m", responsesApi: true }, "gemini")).toBe(
      "Only an OpenAI-compatible endpoint speaks OpenAI's Responses API; turn it off for m of Main.",
    );
    expect(refusal({ id: "m", thinkingExtraBody: [1] })).toMatch(
      /^The extra body when thinking of m of Main is a JSON object/,
    );
    expect(refusal({ id: "m", thinkingExtraBody: { a: 1 } }, "gemini")).toBe(
      "A Gemini endpoint sends no extra body; clear it for m of Main.",
    );
    expect(refusal({ id: "m", thinkingExtraBody: { messages: [] } })).toBe(
      "The extra body when thinking of m of Main may not set messages: Fawn writes it.",
    );
    expect(refusal({ id: "m", thinkingExtraBody: { a: "x".repeat(9_000) } })).toMatch(/at most 8,000 characters/);
  });
});

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** A target of the mock over `provider` whose one model is `entry`. */
function target(entry: ModelEntry, provider: ModelProvider = "openai-compatible"): ModelTarget {
  const baseUrl = provider === "openai-compatible" ? mock.url : mock.url.replace(/\/v1$/, "");
  return { name: "Mock", provider, baseUrl, apiKey: "sk-test", model: entry.id, models: [entry] };
}

/** Streams "hello" from the model and gives the reply's text, and the request the mock received. */
async function ask(entry: ModelEntry, provider?: ModelProvider, effort?: "low" | "medium" | "high") {
  const model = await createChatModel(target(entry, provider), effort ? { reasoningEffort: effort } : {});
  let text = "";
  let chunks = 0;
  for await (const chunk of await model.stream("hello")) {
    text += chunk.text;
    if (chunk.text) chunks++;
  }
  const request = mock.requests.at(-1)!;
  return { text, chunks, path: request.path, body: request.body as Record<string, unknown> };
}

const EXTRA = { thinking: { type: "enabled" }, chat_template_kwargs: { enable_thinking: true } };

describe("what a request carries", () => {
  it("sends an OpenAI-compatible model's temperature and max tokens, and the extra body only when thinking", async () => {
    const entry = { id: "mock-model", thinking: true, temperature: 0.3, maxTokens: 500, thinkingExtraBody: EXTRA };
    const flash = await ask(entry);
    expect(flash.path).toBe("/v1/chat/completions");
    expect(flash.body).toMatchObject({ temperature: 0.3, max_tokens: 500 });
    expect(flash.body).not.toHaveProperty("thinking");
    const thinking = await ask({ ...entry, reasoning: "reasoning-effort" }, undefined, "medium");
    expect(thinking.body).toMatchObject({ reasoning_effort: "medium", ...EXTRA, temperature: 0.3 });
  });

  it("talks to a model marked for the Responses API at /v1/responses, and streams its reply", async () => {
    const entry: ModelEntry = {
      id: "mock-model",
      thinking: true,
      reasoning: "reasoning-effort",
      responsesApi: true,
      temperature: 0.7,
      maxTokens: 900,
      thinkingExtraBody: { text: { verbosity: "low" } },
    };
    const reply = await ask(entry, undefined, "high");
    expect(reply.path).toBe("/v1/responses");
    expect(reply.text).toBe(HELLO_TEXT);
    expect(reply.chunks).toBeGreaterThan(3);
    expect(reply.body).toMatchObject({
      stream: true,
      temperature: 0.7,
      max_output_tokens: 900,
      reasoning: { effort: "high" },
      text: { verbosity: "low" },
    });
    expect(reply.body).not.toHaveProperty("reasoning_effort");
    expect(reply.body).not.toHaveProperty("messages");
  });

  it("sends Anthropic's temperature and max tokens, and while thinking the answer's room above the budget", async () => {
    const entry = {
      id: "mock-thinking",
      thinking: true,
      temperature: 0.2,
      maxTokens: 1000,
      thinkingExtraBody: { top_k: 5 },
    };
    const plain = await ask(entry, "anthropic");
    expect(plain.path).toBe("/v1/messages");
    expect(plain.body).toMatchObject({ temperature: 0.2, max_tokens: 1000 });
    expect(plain.body).not.toHaveProperty("top_k");
    const thinking = await ask({ ...entry, reasoning: "anthropic-thinking" }, "anthropic", "low");
    expect(thinking.body).toMatchObject({ max_tokens: 2048 + 1000, thinking: { budget_tokens: 2048 }, top_k: 5 });
    expect(thinking.body).not.toHaveProperty("temperature");
  });

  it("sends Gemini's temperature and max output tokens", async () => {
    const reply = await ask({ id: "mock-model", temperature: 1.2, maxTokens: 300 }, "gemini");
    expect(reply.body.generationConfig).toMatchObject({ temperature: 1.2, maxOutputTokens: 300 });
  });
});
