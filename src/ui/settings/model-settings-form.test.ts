import { describe, expect, it } from "vitest";
import type { ModelSettings } from "../../protocol/index.ts";
import {
  addEndpoint,
  defaultsSettled,
  removeEndpoint,
  setFirstModel,
  startingEndpoints,
  withListed,
} from "./model-settings-form.ts";
import { presetChange, PRESETS, refusesBrowsers } from "./models-presets.ts";

const two: ModelSettings = {
  endpoints: [
    {
      id: "main",
      name: "Main endpoint",
      baseUrl: "https://a.test/v1",
      apiKey: "",
      models: [{ id: "a", vision: true }],
    },
    { id: "ep-1", name: "Backup", baseUrl: "https://b.test/v1", apiKey: "", models: [{ id: "b" }] },
  ],
  defaultModel: { endpoint: "main", model: "a" },
};

describe("Settings → Models' form", () => {
  it("starts a first setup with one blank endpoint, and stored settings as they are", () => {
    expect(startingEndpoints({ endpoints: [] }, "Main endpoint").endpoints).toEqual([
      { id: "main", name: "Main endpoint", baseUrl: "", apiKey: "", models: [] },
    ]);
    expect(startingEndpoints(two, "x")).toEqual(two);
  });

  it("edits an endpoint's first model with the Model field, the default model following it", () => {
    const renamed = setFirstModel(two, "main", "a2");
    expect(renamed.endpoints[0]?.models).toEqual([{ id: "a2", vision: true }]);
    expect(renamed.defaultModel).toEqual({ endpoint: "main", model: "a2" });
    const first = setFirstModel(startingEndpoints(undefined, "Main endpoint"), "main", "gpt");
    expect(first.endpoints[0]?.models).toEqual([{ id: "gpt" }]);
  });

  it("names a new endpoint after the first free number, and a removed one takes the default with it", () => {
    const added = addEndpoint(two, (count) => `Endpoint ${count}`);
    expect(added.endpoints.at(-1)).toMatchObject({ name: "Endpoint 3", models: [] });
    const moved = { ...two, defaultModel: { endpoint: "ep-1", model: "b" } };
    expect(removeEndpoint(moved, "ep-1")).toEqual({ endpoints: [two.endpoints[0]] });
  });

  it("makes the first endpoint's first model the default when none is chosen", () => {
    expect(defaultsSettled({ endpoints: two.endpoints }).defaultModel).toEqual({ endpoint: "main", model: "a" });
    expect(defaultsSettled(two)).toEqual(two);
    expect(defaultsSettled({ endpoints: [{ ...two.endpoints[0]!, models: [] }] }).defaultModel).toBeUndefined();
  });
});

describe("what a provider's model list says", () => {
  const listed = [{ id: "z/vision", contextWindow: 131072, vision: true, tools: false, thinking: true }];

  it("fills a new model's context window, vision, tools and thinking, but never what the user set", () => {
    expect(withListed({ id: "z/vision" }, listed)).toEqual({
      id: "z/vision",
      contextWindow: 131072,
      vision: true,
      tools: false,
      thinking: true,
    });
    expect(withListed({ id: "z/vision", contextWindow: 64000, vision: false }, listed)).toMatchObject({
      contextWindow: 64000,
      vision: false,
    });
    expect(withListed({ id: "other" }, listed)).toEqual({ id: "other" });
  });

  it("reaches the Model field's first model", () => {
    const blank = startingEndpoints(undefined, "Main endpoint");
    const next = setFirstModel(blank, "main", "z/vision", listed);
    expect(next.endpoints[0]?.models[0]?.contextWindow).toBe(131072);
  });
});

describe("presets", () => {
  it("pick the native provider for Anthropic and Gemini, and the proxy for a provider that refuses browsers", () => {
    const byName = (name: string) => PRESETS.find((preset) => preset.name === name)!;
    expect(presetChange(byName("Anthropic"))).toEqual({ provider: "anthropic", baseUrl: "https://api.anthropic.com" });
    expect(presetChange(byName("Gemini")).provider).toBe("gemini");
    expect(presetChange(byName("Mistral"))).toMatchObject({ provider: "openai-compatible", useProxy: true });
    expect(presetChange(byName("OpenAI"))).not.toHaveProperty("useProxy");
    expect(refusesBrowsers("https://api.mistral.ai/v1/")).toBe(true);
    expect(refusesBrowsers("https://openrouter.ai/api/v1")).toBe(false);
  });
});
