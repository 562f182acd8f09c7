import { describe, expect, it } from "vitest";
import { DEFAULT_PROXY_URL, defaultModelKey, modelChoiceFor, modelChoices, proxiedUrl } from "../protocol/index.ts";
import { parseModelSettings, settingsForRun } from "./model-settings.ts";

const base = { baseUrl: "https://api.example.test/v1/", apiKey: " sk ", model: " gpt " };

describe("model settings", () => {
  it("keeps several models per endpoint with their thinking and vision flags, the default first when missing", () => {
    const parsed = parseModelSettings({
      ...base,
      models: [
        { id: "o-mini", thinking: true },
        { id: " eyes ", vision: true, thinking: false },
      ],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        baseUrl: "https://api.example.test/v1",
        apiKey: "sk",
        model: "gpt",
        models: [{ id: "gpt" }, { id: "o-mini", thinking: true }, { id: "eyes", vision: true }],
      },
    });
  });

  it("keeps the default model's own flags when the list has it", () => {
    const parsed = parseModelSettings({ ...base, models: [{ id: "gpt", vision: true }] });
    expect(parsed.ok && parsed.value.models).toEqual([{ id: "gpt", vision: true }]);
  });

  it("refuses a model listed twice or an empty model name, in a sentence", () => {
    expect(parseModelSettings({ ...base, models: [{ id: "a" }, { id: "a" }] })).toEqual({
      ok: false,
      message: "The model a is listed twice.",
    });
    const empty = parseModelSettings({ ...base, models: [{ id: " " }] });
    expect(empty.ok).toBe(false);
    expect(!empty.ok && empty.message).toMatch(/model name is required/i);
  });
});

describe("several endpoints", () => {
  const other = {
    id: "router",
    name: "OpenRouter",
    baseUrl: "https://openrouter.example.test/api/v1/",
    apiKey: " sk-or ",
    models: [{ id: "deep/think", thinking: true, vision: false }, { id: "small" }],
    useProxy: true,
  };

  it("keeps other endpoints with their keys, models and proxy switch, normalized", () => {
    const parsed = parseModelSettings({ ...base, name: "Work", endpoints: [other] });
    expect(parsed.ok && parsed.value).toMatchObject({
      name: "Work",
      endpoints: [
        {
          id: "router",
          name: "OpenRouter",
          baseUrl: "https://openrouter.example.test/api/v1",
          apiKey: "sk-or",
          models: [{ id: "deep/think", thinking: true }, { id: "small" }],
          useProxy: true,
        },
      ],
    });
  });

  it("refuses two endpoints of one name, an endpoint without models, a bad id or URL, saying which", () => {
    const twice = parseModelSettings({ ...base, endpoints: [other, { ...other, id: "again", name: "openrouter" }] });
    expect(!twice.ok && twice.message).toBe("Two endpoints are named openrouter.");
    const main = parseModelSettings({ ...base, endpoints: [{ ...other, name: "Main endpoint" }] });
    expect(!main.ok && main.message).toBe("Two endpoints are named Main endpoint.");
    const empty = parseModelSettings({ ...base, endpoints: [{ ...other, models: [] }] });
    expect(!empty.ok && empty.message).toBe("List at least one model for OpenRouter.");
    const badId = parseModelSettings({ ...base, endpoints: [{ ...other, id: "Bad Id" }] });
    expect(badId.ok).toBe(false);
    const badUrl = parseModelSettings({ ...base, endpoints: [{ ...other, baseUrl: "ftp://x" }] });
    expect(!badUrl.ok && badUrl.message).toMatch(/http:\/\/ or https:\/\//);
    const sameModel = parseModelSettings({ ...base, endpoints: [{ ...other, models: [{ id: "a" }, { id: "a" }] }] });
    expect(!sameModel.ok && sameModel.message).toBe("The model a is listed twice for OpenRouter.");
  });

  it("gives a run the endpoint and model it asks for, through the proxy when the endpoint uses it", () => {
    const parsed = parseModelSettings({ ...base, modelTitles: true, endpoints: [other] });
    if (!parsed.ok) throw new Error(parsed.message);
    const settings = parsed.value;
    expect(settingsForRun(settings, { endpoint: "router", model: "small" }, "http://127.0.0.1:8787/forward/")).toEqual({
      name: "OpenRouter",
      baseUrl: "http://127.0.0.1:8787/forward/https://openrouter.example.test/api/v1",
      apiKey: "sk-or",
      model: "small",
      models: [{ id: "deep/think", thinking: true }, { id: "small" }],
      useProxy: true,
      modelTitles: true,
    });
    // A model the endpoint does not list: its first one. The proxy's default address when Settings → Web has none.
    expect(settingsForRun(settings, { endpoint: "router", model: "gone" }, undefined)).toMatchObject({
      baseUrl: `${DEFAULT_PROXY_URL}https://openrouter.example.test/api/v1`,
      model: "deep/think",
    });
    // No endpoint, or one that was removed: the main endpoint, as it is, without the others.
    const main = settingsForRun(settings, { endpoint: "removed", model: "small" }, undefined);
    expect(main).toMatchObject({ baseUrl: "https://api.example.test/v1", apiKey: "sk", model: "gpt" });
    expect(main.endpoints).toBeUndefined();
    expect(settingsForRun({ ...settings, useProxy: true }, undefined, "http://p.test/forward/").baseUrl).toBe(
      "http://p.test/forward/https://api.example.test/v1",
    );
  });
});

describe("model choices", () => {
  it("lists every endpoint's models, the main endpoint's first, each with a key of its own", () => {
    const settings = {
      baseUrl: "https://a.test/v1",
      apiKey: "",
      model: "gpt",
      endpoints: [{ id: "local", name: "Ollama", baseUrl: "http://b.test/v1", apiKey: "", models: [{ id: "gpt" }] }],
    };
    expect(modelChoices(settings).map((choice) => [choice.key, choice.endpointName])).toEqual([
      ["gpt", "Main endpoint"],
      ["@local:gpt", "Ollama"],
    ]);
    expect(modelChoiceFor(settings, "@local:gpt")?.endpoint).toBe("local");
    // A choice that no longer exists falls back to the default model.
    expect(modelChoiceFor(settings, "@gone:x")?.key).toBe("gpt");
  });
});

describe("the default model, of any endpoint", () => {
  const other = {
    id: "router",
    name: "OpenRouter",
    baseUrl: "https://openrouter.example.test/api/v1",
    apiKey: "sk-or",
    models: [{ id: "deep/think", thinking: true }, { id: "small" }],
  };

  it("reads settings stored before there were several endpoints as they were, key included", () => {
    const old = { baseUrl: "https://api.example.test/v1", apiKey: "sk-old", model: "gpt", models: [{ id: "o1" }] };
    const parsed = parseModelSettings({ ...old, modelTitles: true });
    expect(parsed).toEqual({
      ok: true,
      value: { ...old, models: [{ id: "gpt" }, { id: "o1" }], modelTitles: true },
    });
    if (!parsed.ok) return;
    expect(defaultModelKey(parsed.value)).toBe("gpt");
    expect(settingsForRun(parsed.value, undefined, undefined)).toMatchObject({ apiKey: "sk-old", model: "gpt" });
  });

  it("may be another endpoint's model, which then answers a run that names none, with that endpoint's key", () => {
    const parsed = parseModelSettings({
      ...base,
      endpoints: [other],
      defaultModel: { endpoint: "router", model: " small " },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const settings = parsed.value;
    expect(settings.defaultModel).toEqual({ endpoint: "router", model: "small" });
    expect(defaultModelKey(settings)).toBe("@router:small");
    expect(modelChoiceFor(settings, undefined)?.key).toBe("@router:small");
    const run = settingsForRun(settings, { mode: "flash" }, undefined);
    expect(run).toMatchObject({ baseUrl: other.baseUrl, apiKey: "sk-or", model: "small", name: "OpenRouter" });
    expect(run.defaultModel).toBeUndefined();
    // The main endpoint's models are still there to choose.
    expect(settingsForRun(settings, { model: "gpt" }, undefined)).toMatchObject({ apiKey: "sk", model: "gpt" });
  });

  it("refuses a default model whose endpoint is gone or does not list it, before anything is stored", () => {
    const gone = parseModelSettings({ ...base, defaultModel: { endpoint: "router", model: "small" } });
    expect(!gone.ok && gone.message).toMatch(/default model belongs to an endpoint that is no longer listed/);
    const unlisted = parseModelSettings({
      ...base,
      endpoints: [other],
      defaultModel: { endpoint: "router", model: "big" },
    });
    expect(!unlisted.ok && unlisted.message).toBe("The default model big is not listed for OpenRouter; pick another.");
    const none = parseModelSettings({ ...base, model: "" });
    expect(!none.ok && none.message).toMatch(/model name is required/i);
  });

  it("reads a bare model id (old threads and requests) as the main endpoint's, else the one endpoint listing it", () => {
    const parsed = parseModelSettings({ ...base, endpoints: [other] });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(modelChoiceFor(parsed.value, "gpt")?.key).toBe("gpt");
    expect(modelChoiceFor(parsed.value, "small")?.key).toBe("@router:small");
    expect(settingsForRun(parsed.value, { model: "deep/think" }, undefined)).toMatchObject({
      apiKey: "sk-or",
      model: "deep/think",
    });
    // Unknown: the default model.
    expect(modelChoiceFor(parsed.value, "nothing")?.key).toBe("gpt");
  });
});

describe("the proxy URL", () => {
  it("puts the endpoint's Base URL after the relay's prefix, with or without its slash", () => {
    expect(proxiedUrl("https://api.example.test/v1", undefined)).toBe(
      "http://127.0.0.1:8787/forward/https://api.example.test/v1",
    );
    expect(proxiedUrl("https://api.example.test/v1", " http://relay.test/forward ")).toBe(
      "http://relay.test/forward/https://api.example.test/v1",
    );
    expect(proxiedUrl("https://api.example.test/v1", "")).toBe(`${DEFAULT_PROXY_URL}https://api.example.test/v1`);
  });
});
