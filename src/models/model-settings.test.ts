import { describe, expect, it } from "vitest";
import { DEFAULT_PROXY_URL, defaultModelKey, modelChoiceFor, modelChoices, proxiedUrl } from "../protocol/index.ts";
import { parseModelSettings, parseProxySettings, targetForRun } from "./model-settings.ts";

const first = { id: "main", name: "Main endpoint", baseUrl: "https://api.example.test/v1/", apiKey: " sk " };
const other = {
  id: "router",
  name: "OpenRouter",
  baseUrl: "https://openrouter.example.test/api/v1/",
  apiKey: " sk-or ",
  models: [{ id: "deep/think", thinking: true, vision: false }, { id: "small" }],
  useProxy: true,
};
/** One endpoint with `models`, its first the default, and any others after it. */
const settings = (models: unknown[], more: unknown[] = [], extra: object = {}) => ({
  endpoints: [{ ...first, models }, ...more],
  defaultModel: { endpoint: "main", model: "gpt" },
  ...extra,
});

describe("model settings", () => {
  it("keeps several models per endpoint with their thinking and vision flags, normalized", () => {
    const parsed = parseModelSettings(
      settings([{ id: " gpt " }, { id: "o-mini", thinking: true }, { id: " eyes ", vision: true, thinking: false }]),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        endpoints: [
          {
            id: "main",
            name: "Main endpoint",
            provider: "openai-compatible",
            baseUrl: "https://api.example.test/v1",
            apiKey: "sk",
            models: [{ id: "gpt" }, { id: "o-mini", thinking: true }, { id: "eyes", vision: true }],
          },
        ],
        defaultModel: { endpoint: "main", model: "gpt" },
      },
    });
  });

  it("refuses a model listed twice or an empty model name, in a sentence", () => {
    expect(parseModelSettings(settings([{ id: "gpt" }, { id: "gpt" }]))).toEqual({
      ok: false,
      message: "The model gpt is listed twice for Main endpoint.",
    });
    const empty = parseModelSettings(settings([{ id: "gpt" }, { id: " " }]));
    expect(empty.ok).toBe(false);
    expect(!empty.ok && empty.message).toMatch(/model name is required/i);
  });

  it("asks for a default model once there is an endpoint, and needs none without endpoints", () => {
    const { defaultModel: _none, ...withoutDefault } = settings([{ id: "gpt" }]);
    expect(parseModelSettings(withoutDefault)).toEqual({ ok: false, message: "Choose the default model." });
    expect(parseModelSettings({ endpoints: [] })).toEqual({ ok: true, value: { endpoints: [] } });
  });
});

describe("several endpoints", () => {
  it("keeps every endpoint with its key, models and proxy switch, normalized", () => {
    const parsed = parseModelSettings(settings([{ id: "gpt" }], [other]));
    expect(parsed.ok && parsed.value.endpoints[1]).toEqual({
      id: "router",
      name: "OpenRouter",
      provider: "openai-compatible",
      baseUrl: "https://openrouter.example.test/api/v1",
      apiKey: "sk-or",
      models: [{ id: "deep/think", thinking: true }, { id: "small" }],
      useProxy: true,
    });
  });

  it("refuses two endpoints of one name, an endpoint without models, a bad id or URL, saying which", () => {
    const twice = parseModelSettings(settings([{ id: "gpt" }], [other, { ...other, id: "again", name: "openrouter" }]));
    expect(!twice.ok && twice.message).toBe("Two endpoints are named openrouter.");
    const same = parseModelSettings(settings([{ id: "gpt" }], [{ ...other, name: "Main endpoint" }]));
    expect(!same.ok && same.message).toBe("Two endpoints are named Main endpoint.");
    const empty = parseModelSettings(settings([{ id: "gpt" }], [{ ...other, models: [] }]));
    expect(!empty.ok && empty.message).toBe("List at least one model for OpenRouter.");
    const badId = parseModelSettings(settings([{ id: "gpt" }], [{ ...other, id: "Bad Id" }]));
    expect(badId.ok).toBe(false);
    const badUrl = parseModelSettings(settings([{ id: "gpt" }], [{ ...other, baseUrl: "ftp://x" }]));
    expect(!badUrl.ok && badUrl.message).toMatch(/http:\/\/ or https:\/\//);
    const sameModel = parseModelSettings(settings([{ id: "gpt" }], [{ ...other, models: [{ id: "a" }, { id: "a" }] }]));
    expect(!sameModel.ok && sameModel.message).toBe("The model a is listed twice for OpenRouter.");
  });

  it("gives the proxy's token to a target that goes to the proxy, and to no other", () => {
    const parsed = parseModelSettings(
      settings(
        [{ id: "gpt" }],
        [
          other,
          {
            ...other,
            id: "local",
            name: "Local",
            useProxy: false,
            baseUrl: "http://127.0.0.1:8787/forward/http://10.0.0.2:11434/v1",
          },
        ],
      ),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    const token = "proxy-token-0123456789abcdefghij";
    const proxy = "http://127.0.0.1:8787/forward/";
    expect(targetForRun(parsed.value, { endpoint: "router", model: "small" }, proxy, token)?.proxyToken).toBe(token);
    // A Base URL written with the proxy's own address is the proxy too.
    expect(targetForRun(parsed.value, { endpoint: "local", model: "small" }, undefined, token)?.proxyToken).toBe(token);
    // The endpoint reached directly never sees it.
    expect(targetForRun(parsed.value, { endpoint: "main", model: "gpt" }, proxy, token)).not.toHaveProperty(
      "proxyToken",
    );
    expect(targetForRun(parsed.value, { endpoint: "router", model: "small" }, proxy)).not.toHaveProperty("proxyToken");
  });

  it("gives a run the endpoint and model it asks for, through the proxy when the endpoint uses it", () => {
    const parsed = parseModelSettings(settings([{ id: "gpt" }], [other], { modelTitles: true }));
    if (!parsed.ok) throw new Error(parsed.message);
    const value = parsed.value;
    expect(targetForRun(value, { endpoint: "router", model: "small" }, "http://127.0.0.1:8787/forward/")).toEqual({
      name: "OpenRouter",
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:8787/forward/https://openrouter.example.test/api/v1",
      apiKey: "sk-or",
      model: "small",
      models: [{ id: "deep/think", thinking: true }, { id: "small" }],
      useProxy: true,
      modelTitles: true,
    });
    // A model the endpoint does not list: its first one. The proxy's default address when Settings names none.
    expect(targetForRun(value, { endpoint: "router", model: "gone" }, undefined)).toMatchObject({
      baseUrl: `${DEFAULT_PROXY_URL}https://openrouter.example.test/api/v1`,
      model: "deep/think",
    });
    // An endpoint that was removed: the default model, on its endpoint, as it is.
    expect(targetForRun(value, { endpoint: "removed", model: "small" }, undefined)).toMatchObject({
      baseUrl: "https://api.example.test/v1",
      apiKey: "sk",
      model: "gpt",
    });
    const proxied = { ...value, endpoints: value.endpoints.map((endpoint) => ({ ...endpoint, useProxy: true })) };
    expect(targetForRun(proxied, undefined, "http://p.test/forward/")?.baseUrl).toBe(
      "http://p.test/forward/https://api.example.test/v1",
    );
  });

  it("has no model for a run until a default model is set", () => {
    expect(targetForRun({ endpoints: [] }, { model: "gpt" }, undefined)).toBeUndefined();
  });
});

describe("model choices", () => {
  it("lists every endpoint's models in order, each with a key of its own", () => {
    const value = {
      endpoints: [
        { id: "main", name: "Main endpoint", baseUrl: "https://a.test/v1", apiKey: "", models: [{ id: "gpt" }] },
        { id: "local", name: "Ollama", baseUrl: "http://b.test/v1", apiKey: "", models: [{ id: "gpt" }] },
      ],
      defaultModel: { endpoint: "main", model: "gpt" },
    };
    expect(modelChoices(value).map((choice) => [choice.key, choice.endpointName])).toEqual([
      ["@main:gpt", "Main endpoint"],
      ["@local:gpt", "Ollama"],
    ]);
    expect(modelChoiceFor(value, "@local:gpt")?.endpoint).toBe("local");
    // A choice that no longer exists falls back to the default model.
    expect(modelChoiceFor(value, "@gone:x")?.key).toBe("@main:gpt");
  });
});

describe("the default model, of any endpoint", () => {
  it("may be another endpoint's model, which then answers a run that names none, with that endpoint's key", () => {
    const parsed = parseModelSettings({
      ...settings([{ id: "gpt" }], [other]),
      defaultModel: { endpoint: "router", model: " small " },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const value = parsed.value;
    expect(value.defaultModel).toEqual({ endpoint: "router", model: "small" });
    expect(defaultModelKey(value)).toBe("@router:small");
    expect(modelChoiceFor(value, undefined)?.key).toBe("@router:small");
    expect(targetForRun(value, { mode: "flash" }, undefined)).toMatchObject({
      apiKey: "sk-or",
      model: "small",
      name: "OpenRouter",
    });
    // The first endpoint's models are still there to choose.
    expect(targetForRun(value, { model: "gpt" }, undefined)).toMatchObject({ apiKey: "sk", model: "gpt" });
  });

  it("refuses a default model whose endpoint is gone or does not list it, before anything is stored", () => {
    const gone = parseModelSettings({ ...settings([{ id: "gpt" }]), defaultModel: { endpoint: "router", model: "s" } });
    expect(!gone.ok && gone.message).toMatch(/default model belongs to an endpoint that is no longer listed/);
    const unlisted = parseModelSettings({
      ...settings([{ id: "gpt" }], [other]),
      defaultModel: { endpoint: "router", model: "big" },
    });
    expect(!unlisted.ok && unlisted.message).toBe("The default model big is not listed for OpenRouter; pick another.");
  });

  it("reads a bare model id (old threads and requests) as the first endpoint's that lists it", () => {
    const parsed = parseModelSettings(settings([{ id: "gpt" }], [other]));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(modelChoiceFor(parsed.value, "gpt")?.key).toBe("@main:gpt");
    expect(modelChoiceFor(parsed.value, "small")?.key).toBe("@router:small");
    expect(targetForRun(parsed.value, { model: "deep/think" }, undefined)).toMatchObject({
      apiKey: "sk-or",
      model: "deep/think",
    });
    // Unknown: the default model.
    expect(modelChoiceFor(parsed.value, "nothing")?.key).toBe("@main:gpt");
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

  it("is its own setting: Fawn's proxy by its bare address gets its /forward/ path; blank means none", () => {
    expect(parseProxySettings({ url: " http://localhost:8787 " })).toEqual({
      ok: true,
      value: { url: "http://localhost:8787/forward/" },
    });
    expect(parseProxySettings({ url: "http://127.0.0.1:8787/" })).toEqual({
      ok: true,
      value: { url: "http://127.0.0.1:8787/forward/" },
    });
    expect(parseProxySettings({ url: "http://127.0.0.1:8787/forward" })).toEqual({
      ok: true,
      value: { url: "http://127.0.0.1:8787/forward/" },
    });
    expect(parseProxySettings({ url: "https://relay.example/?url=" })).toEqual({
      ok: true,
      value: { url: "https://relay.example/?url=" },
    });
    expect(parseProxySettings({ url: "  " })).toEqual({ ok: true, value: {} });
    const bad = parseProxySettings({ url: "localhost:8787" });
    expect(!bad.ok && bad.message).toMatch(/proxy URL must be an http:\/\/ or https:\/\/ address/);
  });
});
