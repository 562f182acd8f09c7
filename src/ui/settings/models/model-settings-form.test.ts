import { describe, expect, it } from "vitest";
import type { ModelSettings } from "../../../protocol/index.ts";
import {
  addEndpoint,
  addModels,
  modelFormProblems,
  MODELS_PER_ENDPOINT,
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

  it("leaves the endpoint's models as they are, names and all, when the Model field is emptied", () => {
    expect(setFirstModel(two, "main", "")).toEqual(two);
    expect(setFirstModel(two, "main", "   ")).toEqual(two);
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

describe("what Save would be refused for, field by field", () => {
  it("finds nothing wrong with settings the gateway takes", () => {
    expect(modelFormProblems(two)).toEqual([]);
  });

  it("puts each problem at its own field, once, in the order the fields are shown", () => {
    const broken: ModelSettings = {
      endpoints: [
        { ...two.endpoints[0]!, name: " ", baseUrl: "ftp://a.test/v1", models: [{ id: "a", contextWindow: 12 }] },
        { ...two.endpoints[1]!, baseUrl: "", models: [] },
      ],
    };
    expect(modelFormProblems(broken)).toEqual([
      { endpoint: "main", field: "name", message: "Each endpoint needs a name." },
      {
        endpoint: "main",
        field: "baseUrl",
        message: "Base URL must be an http:// or https:// address, for example https://api.openai.com/v1",
      },
      {
        endpoint: "main",
        field: "contextWindow",
        model: "a",
        message: "A context window is a whole number from 1,000 to 100,000,000 tokens.",
      },
      { endpoint: "ep-1", field: "baseUrl", message: "Base URL is required, for example https://api.openai.com/v1" },
      { endpoint: "ep-1", field: "model", message: "List at least one model for Backup." },
    ]);
  });

  it("says a model name is required once when the Model field is emptied, whatever else is wrong with it", () => {
    const problems = modelFormProblems(two, new Set(["main"]));
    expect(problems).toEqual([
      { endpoint: "main", field: "model", message: "A model name is required, for example gpt-4o-mini" },
    ]);
  });

  it("refuses a Model field naming a model listed below it, and endpoints of the same name", () => {
    const twice = setFirstModel(addModels(two, "main", ["b"]), "main", "b");
    expect(modelFormProblems(twice)).toEqual([
      { endpoint: "main", field: "model", message: "The model b is listed twice." },
    ]);
    const namesakes = { ...two, endpoints: [two.endpoints[0]!, { ...two.endpoints[1]!, name: "main ENDPOINT" }] };
    expect(modelFormProblems(namesakes).map((problem) => [problem.endpoint, problem.field])).toEqual([
      ["main", "name"],
      ["ep-1", "name"],
    ]);
  });
});

describe("adding the models a list offered", () => {
  const listed = [{ id: "a" }, { id: "z/think", thinking: true }, { id: "z/see", vision: true }];

  it("adds each model once, after the endpoint's own, with what the list says of it", () => {
    const next = addModels(two, "main", ["a", "z/think", "z/see", "z/think"], listed);
    expect(next.endpoints[0]?.models).toEqual([
      { id: "a", vision: true },
      { id: "z/think", thinking: true },
      { id: "z/see", vision: true },
    ]);
    expect(next.endpoints[1]).toEqual(two.endpoints[1]);
    expect(next.defaultModel).toEqual(two.defaultModel);
  });

  it("stops at the number of models an endpoint may hold", () => {
    const many = Array.from({ length: 80 }, (_, index) => `m${index}`);
    expect(addModels(two, "main", many).endpoints[0]?.models).toHaveLength(MODELS_PER_ENDPOINT);
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
