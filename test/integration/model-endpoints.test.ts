// Settings → Models with several endpoints, through the Gateway: each endpoint keeps its own key (never in the
// settings record), a run goes to the endpoint and model the message chose, an endpoint marked "Use the proxy" is
// reached through Fawn's CORS relay, and a removed endpoint takes its key with it.
import { afterEach, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../proxy/server.ts";
import type { ModelSettings } from "../../src/protocol/index.ts";
import { MODEL_ENDPOINT_KEY, openFawnDb } from "../../src/storage/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("model-endpoints-test");
const MAIN_KEY = "sk-main-endpoint-1111";
const OTHER_KEY = "sk-other-endpoint-9876";

/** The same mock server under another host name: another endpoint as far as Fawn can tell. */
function otherBaseUrl(): string {
  return harness.mock.url.replace("127.0.0.1", "localhost");
}

function settingsWithOther(overrides: Partial<NonNullable<ModelSettings["endpoints"]>[number]> = {}): ModelSettings {
  return {
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
  };
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
    await harness.gateway.saveModelSettings(settingsWithOther());
    expect(await harness.gateway.getModelSettings()).toMatchObject({
      apiKey: MAIN_KEY,
      endpoints: [
        { id: "second", apiKey: OTHER_KEY, models: [{ id: "mock-thinking", thinking: true }, { id: "mock-vision" }] },
      ],
    });
    const db = await openFawnDb(harness.gatewayDbName());
    const record = await db.get("settings", MODEL_ENDPOINT_KEY);
    db.close();
    expect(JSON.stringify(record)).not.toContain(OTHER_KEY);
    expect(JSON.stringify(record)).not.toContain(MAIN_KEY);
  });

  it("sends a message to the endpoint and model it chose, with that endpoint's key", async () => {
    await harness.gateway.saveModelSettings(settingsWithOther());
    const thread = await harness.gateway.createThread();
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
    expect((await harness.gateway.getThread(thread.thread_id))?.entries.length).toBeGreaterThanOrEqual(4);
  });

  it("reaches an endpoint marked Use the proxy through Fawn's relay", async () => {
    const lines: string[] = [];
    // Node sends no Origin header; a browser page would send its own, which the relay allows by default.
    proxy = await startProxy({ port: 0, allowedOrigins: ["*"], log: (line) => lines.push(line) });
    const web = await harness.gateway.getWebToolSettings();
    await harness.gateway.saveWebToolSettings({ ...web, proxyUrl: `${proxy.url}/forward/` });
    await harness.gateway.saveModelSettings(settingsWithOther({ useProxy: true }));
    const thread = await harness.gateway.createThread();
    const events = await runThread(harness.gateway, thread.thread_id, "hello", undefined, {
      endpoint: "second",
      model: "mock-thinking",
    });
    expect(events.find((event) => event.event === "error")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });
    expect(lines.join("\n")).toContain("/v1/chat/completions");
    // The listing of models goes the same way.
    expect(await harness.gateway.listModels({ baseUrl: otherBaseUrl(), apiKey: OTHER_KEY, useProxy: true })).toContain(
      "mock-model",
    );
  });

  it("forgets a removed endpoint's key, and refuses a bad list without changing anything", async () => {
    await harness.gateway.saveModelSettings(settingsWithOther());
    expect(await secretKeys()).toContain(`${MODEL_ENDPOINT_KEY}.apiKey.second`);

    const twice = settingsWithOther();
    twice.endpoints = [...twice.endpoints!, { ...twice.endpoints![0]!, id: "third" }];
    await expect(harness.gateway.saveModelSettings(twice)).rejects.toThrow("Two endpoints are named Second.");
    expect((await harness.gateway.getModelSettings()).endpoints).toHaveLength(1);

    await harness.gateway.saveModelSettings({ ...settingsWithOther(), endpoints: [] });
    expect(await secretKeys()).not.toContain(`${MODEL_ENDPOINT_KEY}.apiKey.second`);
    expect(await secretKeys()).toContain(`${MODEL_ENDPOINT_KEY}.apiKey`);
    expect((await harness.gateway.getModelSettings()).endpoints).toBeUndefined();
  });
});
