import { describe, expect, it } from "vitest";
import { detectReasoning, reasoningStyleOf } from "../protocol/index.ts";
import { describeModelError, isRetryableModelError } from "./model-errors.ts";
import { parseAnthropicModels, parseGeminiModels, parseOpenAiModels } from "./fetch-models.ts";
import { parseModelSettings, targetForRun } from "./model-settings.ts";
import { apiRoot } from "./provider-urls.ts";
import { reasoningRequest } from "./reasoning.ts";

describe("settings saved before providers existed", () => {
  const old = {
    endpoints: [
      { id: "main", name: "Main", baseUrl: "https://api.example.test/v1", apiKey: "k", models: [{ id: "gpt" }] },
    ],
    defaultModel: { endpoint: "main", model: "gpt" },
  };

  it("read as OpenAI-compatible endpoints, and runs talk to them that way", () => {
    const parsed = parseModelSettings(old);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.endpoints[0]?.provider).toBe("openai-compatible");
    expect(targetForRun(parsed.value, undefined, undefined)?.provider).toBe("openai-compatible");
  });

  it("keep a chosen provider, and refuse one Fawn does not speak", () => {
    const anthropic = { ...old, endpoints: [{ ...old.endpoints[0], provider: "anthropic" }] };
    const parsed = parseModelSettings(anthropic);
    expect(parsed.ok && parsed.value.endpoints[0]?.provider).toBe("anthropic");
    const unknown = parseModelSettings({ ...old, endpoints: [{ ...old.endpoints[0], provider: "cohere" }] });
    expect(!unknown.ok && unknown.message).toBe(
      "The provider is OpenAI-compatible, Anthropic, Gemini or On this device.",
    );
  });

  it("give the run the model's context window, reasoning switch and tools flag as typed in Settings", () => {
    const models = [{ id: "gpt", contextWindow: 200_000, reasoning: "enable-thinking", tools: false }, { id: "b" }];
    const parsed = parseModelSettings({ ...old, endpoints: [{ ...old.endpoints[0], models }] });
    if (!parsed.ok) throw new Error(parsed.message);
    const target = targetForRun(parsed.value, undefined, undefined);
    expect(target?.contextWindow).toBe(200_000);
    expect(target?.models[0]).toEqual(models[0]);
    expect(targetForRun(parsed.value, { model: "b" }, undefined)?.contextWindow).toBeUndefined();
    const tiny = parseModelSettings({
      ...old,
      endpoints: [{ ...old.endpoints[0], models: [{ id: "gpt", contextWindow: 10 }] }],
    });
    expect(!tiny.ok && tiny.message).toBe("A context window is at least 1,000 tokens.");
  });
});

describe("model lists", () => {
  it("read OpenRouter's context length, image input, tools and reasoning, and Groq's context window", () => {
    const body = {
      data: [
        {
          id: "z/vision",
          context_length: 131072,
          architecture: { input_modalities: ["text", "image"] },
          supported_parameters: ["tools", "reasoning", "temperature"],
        },
        { id: "a/plain", context_length: 8192, architecture: { input_modalities: ["text"] }, supported_parameters: [] },
        { id: "groq-model", context_window: 32768 },
        { id: 42 },
      ],
    };
    expect(parseOpenAiModels(body)).toEqual([
      { id: "a/plain", contextWindow: 8192, vision: false, tools: false, thinking: false },
      { id: "groq-model", contextWindow: 32768 },
      { id: "z/vision", contextWindow: 131072, vision: true, tools: true, thinking: true },
    ]);
    expect(parseOpenAiModels({ nope: true })).toEqual([]);
  });

  it("read Anthropic's ids and Gemini's chat models with their input limits", () => {
    expect(parseAnthropicModels({ data: [{ type: "model", id: "claude-x", display_name: "Claude X" }] })).toEqual([
      { id: "claude-x" },
    ]);
    expect(
      parseGeminiModels({
        models: [
          {
            name: "models/gemini-2.5-pro",
            inputTokenLimit: 1048576,
            supportedGenerationMethods: ["generateContent"],
            thinking: true,
          },
          { name: "models/embedding-001", inputTokenLimit: 2048, supportedGenerationMethods: ["embedContent"] },
        ],
      }),
    ).toEqual([{ id: "gemini-2.5-pro", contextWindow: 1048576, thinking: true }]);
  });
});

describe("each provider's reasoning switch", () => {
  it("is detected from the provider and the model id, and a choice in Settings wins", () => {
    expect(detectReasoning("openai-compatible", "o4-mini")).toBe("reasoning-effort");
    expect(detectReasoning("openai-compatible", "qwen3-235b-a22b")).toBe("enable-thinking");
    expect(detectReasoning("openai-compatible", "qwen/qwq-32b")).toBe("enable-thinking");
    expect(detectReasoning("openai-compatible", "deepseek-reasoner")).toBe("deepseek");
    expect(detectReasoning("openai-compatible", "deepseek/deepseek-r1")).toBe("deepseek");
    expect(detectReasoning("anthropic", "claude-sonnet-4-5")).toBe("anthropic-thinking");
    expect(detectReasoning("gemini", "gemini-2.5-flash")).toBe("gemini-thinking");
    expect(reasoningStyleOf("openai-compatible", { id: "o4-mini", reasoning: "none" })).toBe("none");
  });

  it("asks OpenAI-style models by reasoning_effort, Qwen by enable_thinking, DeepSeek's reasoner by nothing", () => {
    expect(reasoningRequest("openai-compatible", { id: "o4-mini" }, "high")).toEqual({
      modelKwargs: { reasoning_effort: "high" },
    });
    expect(reasoningRequest("openai-compatible", { id: "o4-mini" })).toEqual({});
    expect(reasoningRequest("openai-compatible", { id: "qwen3-32b" }, "low")).toEqual({
      modelKwargs: { enable_thinking: true },
    });
    expect(reasoningRequest("openai-compatible", { id: "qwen3-32b" })).toEqual({
      modelKwargs: { enable_thinking: false },
    });
    expect(reasoningRequest("openai-compatible", { id: "deepseek-reasoner" }, "high")).toEqual({});
  });

  it("gives Anthropic a thinking budget below max_tokens (adaptive for models that take only that), off in Flash", () => {
    expect(reasoningRequest("anthropic", { id: "claude-sonnet-4-5" }, "medium")).toEqual({
      thinking: { type: "enabled", budget_tokens: 6144 },
      maxTokens: 6144 + 4096,
    });
    expect(reasoningRequest("anthropic", { id: "claude-opus-4-7" }, "high")).toEqual({
      thinking: { type: "adaptive" },
      outputConfig: { effort: "high" },
    });
    expect(reasoningRequest("anthropic", { id: "claude-sonnet-4-5" })).toEqual({});
    expect(reasoningRequest("anthropic", { id: "claude-sonnet-4-5", reasoning: "none" }, "high")).toEqual({});
  });

  it("gives Gemini a thinking budget with thoughts included, off in Flash", () => {
    expect(reasoningRequest("gemini", { id: "gemini-2.5-flash" }, "low")).toEqual({
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(reasoningRequest("gemini", { id: "gemini-2.5-flash" })).toEqual({});
  });

  it("switches a Qwen 3 file on this device through its chat template's arguments, on in Thinking modes, off in Flash", () => {
    expect(detectReasoning("on-device", "qwen3-1.7b-q4_k_m.gguf")).toBe("enable-thinking");
    expect(detectReasoning("on-device", "deepseek-r1-distill-qwen-1.5b-q4_k_m.gguf")).toBe("deepseek");
    expect(detectReasoning("on-device", "qwen2.5-1.5b-instruct-q4_k_m.gguf")).toBe("none");
    expect(detectReasoning("on-device", "my-qwen3-finetune.gguf")).toBe("none");
    expect(reasoningRequest("on-device", { id: "qwen3-1.7b-q4_k_m.gguf" }, "low")).toEqual({
      modelKwargs: { chat_template_kwargs: { enable_thinking: true } },
    });
    expect(reasoningRequest("on-device", { id: "qwen3-1.7b-q4_k_m.gguf" })).toEqual({
      modelKwargs: { chat_template_kwargs: { enable_thinking: false } },
    });
    // Chosen in Settings for a file whose name does not say.
    expect(reasoningRequest("on-device", { id: "my-qwen3-finetune.gguf", reasoning: "enable-thinking" })).toEqual({
      modelKwargs: { chat_template_kwargs: { enable_thinking: false } },
    });
    expect(reasoningRequest("on-device", { id: "qwen2.5-1.5b-instruct-q4_k_m.gguf" }, "high")).toEqual({});
  });
});

describe("Base URLs", () => {
  it("lose the version path the provider's SDK adds itself", () => {
    expect(apiRoot("anthropic", "https://api.anthropic.com/v1/")).toBe("https://api.anthropic.com");
    expect(apiRoot("gemini", "https://generativelanguage.googleapis.com/v1beta")).toBe(
      "https://generativelanguage.googleapis.com",
    );
    expect(apiRoot("openai-compatible", "https://api.openai.com/v1/")).toBe("https://api.openai.com/v1");
  });
});

describe("Anthropic's and Gemini's errors", () => {
  /** As @anthropic-ai/sdk throws them: status, and the body under `error`. */
  const anthropic = (status: number, type: string, message: string) =>
    Object.assign(new Error(`${status} ${JSON.stringify({ type: "error", error: { type, message } })}`), {
      status,
      type,
      error: { type: "error", error: { type, message } },
    });
  /** As @google/generative-ai throws them: the URL, status and message in one line, details apart. */
  const gemini = (status: number, statusText: string, message: string, details?: unknown[]) =>
    Object.assign(
      new Error(
        `[GoogleGenerativeAI Error]: Error fetching from https://g.test/v1beta/models/m:streamGenerateContent?alt=sse: ` +
          `[${status} ${statusText}] ${message}${details ? ` ${JSON.stringify(details)}` : ""}`,
      ),
      { status, statusText, errorDetails: details },
    );

  it("say the key was refused, for Anthropic's 401 and Gemini's 400 API_KEY_INVALID", () => {
    expect(describeModelError(anthropic(401, "authentication_error", "invalid x-api-key"), "")).toEqual({
      error: "authentication",
      message:
        "The model endpoint refused the API key (401): invalid x-api-key Check the API key in Settings → Models.",
    });
    const badKey = gemini(400, "Bad Request", "API key not valid. Please pass a valid API key.", [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
    ]);
    expect(describeModelError(badKey, "")).toEqual({
      error: "authentication",
      message:
        "The model endpoint refused the API key (400): API key not valid. Please pass a valid API key. Check the API key in Settings → Models.",
    });
    expect(describeModelError(gemini(403, "Forbidden", "Permission denied."), "").error).toBe("authentication");
  });

  it("say a rate limit or an exhausted quota is one, and retry it", () => {
    const limited = anthropic(429, "rate_limit_error", "Number of requests has exceeded your rate limit.");
    expect(describeModelError(limited, "").message).toBe(
      "The model endpoint is rate limiting requests (429): Number of requests has exceeded your rate limit. " +
        "Wait a little, or check the plan and quota of this API key.",
    );
    const quota = gemini(429, "Too Many Requests", "Resource has been exhausted (e.g. check quota).");
    expect(describeModelError(quota, "").error).toBe("rate_limited");
    expect(isRetryableModelError(quota)).toBe(true);
  });

  it("say the provider is overloaded or unavailable, and retry it", () => {
    const overloaded = anthropic(529, "overloaded_error", "Overloaded");
    expect(describeModelError(overloaded, "")).toEqual({
      error: "server_error",
      message: "The model provider is overloaded (529): Overloaded Try again in a moment.",
    });
    expect(isRetryableModelError(overloaded)).toBe(true);
    // Sent inside a stream that had started: no status, only the type.
    const midStream = Object.assign(new Error("Overloaded"), {
      error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    expect(isRetryableModelError(midStream)).toBe(true);
    const unavailable = gemini(503, "Service Unavailable", "The model is overloaded. Please try again later.");
    expect(describeModelError(unavailable, "")).toEqual({
      error: "server_error",
      message:
        "The model provider is unavailable right now (503): The model is overloaded. Please try again later. Try again in a moment.",
    });
  });

  it("never repeat a key given in a URL's query", () => {
    const leaky = Object.assign(new Error("GET https://g.test/v1beta/models?key=AIzaSECRET failed"), { status: 400 });
    expect(describeModelError(leaky, "").message).not.toContain("AIzaSECRET");
  });
});
