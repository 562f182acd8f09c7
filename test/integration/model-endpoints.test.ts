// Settings → Models with several endpoints, through the Gateway: each endpoint keeps its own key (never in the
// settings record), a run goes to the endpoint and model the message chose, an endpoint marked "Use the proxy" is
// reached through Fawn's CORS relay, a removed endpoint takes its key with it, the default model may be any
// endpoint's, settings stored before there were several endpoints read as they were, and no key reaches a backup.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../proxy/server.ts";
import { createGatewayFetch, openGateway } from "../../src/gateway/index.ts";
import type { ModelEndpoint, ModelSettings } from "../../src/protocol/index.ts";
import { LEGACY_MODEL_ENDPOINT_KEY, MODEL_SETTINGS_KEY, openFawnDb } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("model-endpoints-test");
const MAIN_KEY = "sk-main-endpoint-1111";
const OTHER_KEY = "sk-other-endpoint-9876";
/** The proxy's token, as Settings → Web holds it. */
const PROXY_TOKEN = "proxy-token-for-model-endpoints-test";

/** The same mock server under another host name: another endpoint as far as Fawn can tell. */
function otherBaseUrl(): string {
  return harness.mock.url.replace("127.0.0.1", "localhost");
}

function settingsWithOther(overrides: Partial<ModelEndpoint> = {}): ModelSettings {
  return modelSettings({
    baseUrl: harness.mock.url,
    apiKey: MAIN_KEY,
    model: "mock-model",
    endpoints: [
      {
        id: "second",
        name: "Second",
        baseUrl: otherBaseUrl(),
        apiKey: OTHER_KEY,
        models: [{ id: "mock-thinking", thinking: true }, { id: "mock-vision" }],
        ...overrides,
      },
    ],
  });
}

async function secretKeys(): Promise<string[]> {
  const db = await openFawnDb(harness.gatewayDbName());
  try {
    return (await db.getAllKeys("secrets")).map(String);
  } finally {
    db.close();
  }
}

let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe("several model endpoints", () => {
  it("keeps each endpoint's key apart from the settings, and gives them all back", async () => {
    await harness.gateway.settings.saveModels(settingsWithOther());
    expect(await harness.gateway.settings.getModels()).toMatchObject({
      endpoints: [
        { id: "main", apiKey: MAIN_KEY },
        { id: "second", apiKey: OTHER_KEY, models: [{ id: "mock-thinking", thinking: true }, { id: "mock-vision" }] },
      ],
    });
    const db = await openFawnDb(harness.gatewayDbName());
    const record = await db.get("settings", MODEL_SETTINGS_KEY);
    db.close();
    expect(JSON.stringify(record)).not.toContain(OTHER_KEY);
    expect(JSON.stringify(record)).not.toContain(MAIN_KEY);
  });

  it("sends a message to the endpoint and model it chose, with that endpoint's key", async () => {
    await harness.gateway.settings.saveModels(settingsWithOther());
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "hello", undefined, {
      endpoint: "second",
      model: "mock-vision",
    });
    const chat = harness.mock.requests.filter((request) => request.path === "/v1/chat/completions");
    expect(chat.at(-1)).toMatchObject({
      headers: { host: expect.stringContaining("localhost"), authorization: "Bearer sk-***9876" },
      body: { model: "mock-vision" },
    });

    // Without a choice, the main endpoint's default model and key.
    await runThread(harness.gateway, thread.thread_id, "hello again");
    const last = harness.mock.requests.filter((request) => request.path === "/v1/chat/completions").at(-1);
    expect(last).toMatchObject({
      headers: { host: expect.stringContaining("127.0.0.1"), authorization: "Bearer sk-***1111" },
      body: { model: "mock-model" },
    });
    expect((await harness.gateway.threads.get(thread.thread_id))?.entries.length).toBeGreaterThanOrEqual(4);
  });

  it("sends no tools to a model whose entry says it cannot call them, and every tool to the others", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({
        baseUrl: harness.mock.url,
        apiKey: "sk-test",
        model: "mock-model",
        models: [{ id: "mock-model", tools: false }],
      }),
    );
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "no tools here");
    const chat = () => harness.mock.requests.filter((request) => request.path === "/v1/chat/completions");
    expect((chat().at(-1)?.body as { tools?: unknown[] }).tools ?? []).toEqual([]);
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
    );
    await runThread(harness.gateway, thread.thread_id, "tools again");
    expect(((chat().at(-1)?.body as { tools?: unknown[] }).tools ?? []).length).toBeGreaterThan(3);
  });

  it("reaches an endpoint marked Use the proxy through Fawn's relay", async () => {
    const lines: string[] = [];
    // Node sends no Origin header; a browser page would send its own, which the relay allows by default. The mock
    // endpoint is on loopback, which the relay forwards to only when its host:port is listed.
    const allowedTargets = [new URL(otherBaseUrl()).host];
    proxy = await startProxy({
      port: 0,
      allowedOrigins: ["*"],
      allowedTargets,
      log: (line) => lines.push(line),
      token: PROXY_TOKEN,
    });
    await harness.gateway.settings.saveProxy({ url: `${proxy.url}/forward/`, token: PROXY_TOKEN });
    await harness.gateway.settings.saveModels(settingsWithOther({ useProxy: true }));
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "hello", undefined, {
      endpoint: "second",
      model: "mock-thinking",
    });
    expect(events.find((event) => event.event === "error")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });
    expect(lines.join("\n")).toContain("/v1/chat/completions");
    // The listing of models goes the same way.
    expect(
      await harness.gateway.settings.listModels({ baseUrl: otherBaseUrl(), apiKey: OTHER_KEY, useProxy: true }),
    ).toContain("mock-model");
  });

  it("says it was Fawn's proxy, not the provider, that refused a request, and what to change", async () => {
    // The relay only forwards to the hosts it was started with; this endpoint (on loopback) is not one of them.
    proxy = await startProxy({
      port: 0,
      allowedOrigins: ["*"],
      allowedTargets: ["api.deepseek.com"],
      log: () => {},
      token: PROXY_TOKEN,
    });
    await harness.gateway.settings.saveProxy({ url: `${proxy.url}/forward/`, token: PROXY_TOKEN });
    await harness.gateway.settings.saveModels(settingsWithOther({ useProxy: true }));
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "hello", undefined, {
      endpoint: "second",
      model: "mock-thinking",
    });
    const error = events.find((event) => event.event === "error");
    expect(error?.data).toEqual({
      error: "proxy_refused",
      message:
        "Fawn's proxy refused to forward the request (403): Fawn's proxy does not forward to localhost " +
        `(a loopback name); to allow it, add "${new URL(otherBaseUrl()).host}" to FAWN_PROXY_TARGETS.`,
    });
    expect(JSON.stringify(error)).not.toContain("API key");
  });

  it("forgets a removed endpoint's key, and refuses a bad list without changing anything", async () => {
    await harness.gateway.settings.saveModels(settingsWithOther());
    expect(await secretKeys()).toContain("models.apiKey.second");

    const twice = settingsWithOther();
    twice.endpoints = [...twice.endpoints, { ...twice.endpoints[1]!, id: "third" }];
    await expect(harness.gateway.settings.saveModels(twice)).rejects.toThrow("Two endpoints are named Second.");
    expect((await harness.gateway.settings.getModels()).endpoints).toHaveLength(2);

    const all = settingsWithOther();
    await harness.gateway.settings.saveModels({ ...all, endpoints: all.endpoints.slice(0, 1) });
    expect(await secretKeys()).not.toContain("models.apiKey.second");
    expect(await secretKeys()).toContain("models.apiKey.main");
    expect((await harness.gateway.settings.getModels()).endpoints.map((endpoint) => endpoint.id)).toEqual(["main"]);
  });
});

describe("the default model and older settings", () => {
  const chatRequests = () => harness.mock.requests.filter((request) => request.path === "/v1/chat/completions");

  it("reads the single endpoint stored by an older Fawn, key included, and runs with it", async () => {
    // Exactly what the settings and secrets stores held before several endpoints (store version 3).
    const name = `${harness.gatewayDbName()}-older`;
    const db = await openFawnDb(name, 3);
    await db.put("settings", {
      key: LEGACY_MODEL_ENDPOINT_KEY,
      value: {
        baseUrl: harness.mock.url,
        apiKey: "sk-older-fawn-5555",
        model: "mock-model",
        models: [{ id: "mock-thinking", thinking: true }],
      },
    });
    db.close();
    const gateway = await openGateway(name);
    expect(await gateway.settings.getModels()).toEqual({
      endpoints: [
        {
          id: "main",
          name: "Main endpoint",
          // Stored before providers existed: read as OpenAI-compatible.
          provider: "openai-compatible",
          baseUrl: harness.mock.url,
          apiKey: "sk-older-fawn-5555",
          models: [{ id: "mock-model" }, { id: "mock-thinking", thinking: true }],
        },
      ],
      defaultModel: { endpoint: "main", model: "mock-model" },
    });
    const thread = await gateway.threads.create();
    // A thread's request from then names the model by its bare id.
    await runThread(gateway, thread.thread_id, "hello", undefined, { model: "mock-thinking" });
    expect(chatRequests().at(-1)).toMatchObject({
      headers: { authorization: "Bearer sk-***5555" },
      body: { model: "mock-thinking" },
    });
  });

  it("sends a message that names no model to the default one, on whichever endpoint holds it", async () => {
    await harness.gateway.settings.saveModels({
      ...settingsWithOther(),
      defaultModel: { endpoint: "second", model: "mock-vision" },
    });
    expect((await harness.gateway.settings.getModels()).defaultModel).toEqual({
      endpoint: "second",
      model: "mock-vision",
    });
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "hello");
    expect(chatRequests().at(-1)).toMatchObject({
      headers: { host: expect.stringContaining("localhost"), authorization: "Bearer sk-***9876" },
      body: { model: "mock-vision" },
    });
    // A default whose endpoint is gone is refused, and the stored one stays.
    await expect(
      harness.gateway.settings.saveModels({
        ...settingsWithOther(),
        endpoints: settingsWithOther().endpoints.slice(0, 1),
        defaultModel: { endpoint: "second", model: "mock-vision" },
      }),
    ).rejects.toThrow("The default model belongs to an endpoint that is no longer listed; pick another.");
    expect((await harness.gateway.settings.getModels()).endpoints).toHaveLength(2);
  });

  it("lists every endpoint's models on GET /api/models and runs the one a request names", async () => {
    await harness.gateway.settings.saveModels({
      ...settingsWithOther(),
      defaultModel: { endpoint: "second", model: "mock-thinking" },
    });
    const handle = createGatewayFetch(harness.gateway);
    const listed = (await (await handle(new Request("http://fawn.local/api/models"))).json()) as {
      models: { name: string; model: string; supports_thinking: boolean }[];
    };
    expect(listed.models.map((model) => [model.name, model.model, model.supports_thinking])).toEqual([
      ["@second:mock-thinking", "mock-thinking", true],
      ["@main:mock-model", "mock-model", false],
      ["@second:mock-vision", "mock-vision", false],
    ]);
    const thread = await harness.gateway.threads.create();
    const response = await handle(
      new Request(`http://fawn.local/api/threads/${thread.thread_id}/runs/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          input: { messages: [{ type: "human", content: "hello" }] },
          context: { model_name: "mock-model" },
        }),
      }),
    );
    await response.text();
    expect(chatRequests().at(-1)).toMatchObject({
      headers: { authorization: "Bearer sk-***1111" },
      body: { model: "mock-model" },
    });
  });

  it("exports every endpoint without any key, and refuses a backup whose endpoints are broken", async () => {
    await harness.gateway.settings.saveModels({
      ...settingsWithOther(),
      defaultModel: { endpoint: "second", model: "mock-vision" },
    });
    const bytes = new Uint8Array(await (await harness.gateway.data.export()).blob.arrayBuffer());
    const members = unzipSync(bytes);
    const everything = [
      new TextDecoder("latin1").decode(bytes),
      ...Object.values(members).map((data) => strFromU8(data)),
    ];
    for (const key of [MAIN_KEY, OTHER_KEY]) expect(everything.filter((text) => text.includes(key))).toEqual([]);
    const settings = JSON.parse(strFromU8(members["settings.json"]!)) as {
      settings: { key: string; value: ModelSettings }[];
    };
    const models = settings.settings.find((record) => record.key === MODEL_SETTINGS_KEY)?.value;
    expect(models).toMatchObject({
      endpoints: [{ id: "main" }, { id: "second", name: "Second" }],
      defaultModel: { endpoint: "second" },
    });

    // Another browser gets the endpoints back, without keys.
    const other = await harness.freshGateway();
    await other.data.import(new Blob([bytes as Uint8Array<ArrayBuffer>]), { acceptAdditions: true });
    expect(await other.settings.getModels()).toMatchObject({
      endpoints: [
        { id: "main", apiKey: "" },
        { id: "second", apiKey: "", models: [{ id: "mock-thinking" }, { id: "mock-vision" }] },
      ],
      defaultModel: { endpoint: "second", model: "mock-vision" },
    });

    // Two endpoints of one name: refused with the reason, nothing written.
    const broken = {
      ...settings,
      settings: settings.settings.map((record) =>
        record.key === MODEL_SETTINGS_KEY
          ? {
              ...record,
              value: {
                ...record.value,
                endpoints: [...record.value.endpoints, { ...record.value.endpoints[1]!, id: "third" }],
              },
            }
          : record,
      ),
    };
    const tampered = zipSync({ ...members, "settings.json": strToU8(JSON.stringify(broken)) });
    const third = await harness.freshGateway();
    await expect(third.data.import(new Blob([tampered as Uint8Array<ArrayBuffer>]))).rejects.toThrow(
      "The backup's model settings are not valid: Two endpoints are named Second.",
    );
    expect(await third.threads.list()).toEqual([]);
  });
});
