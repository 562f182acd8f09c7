// The proxy's token through the Gateway, against the real proxy (in this process): Settings → Web keeps it with the
// API keys, every request Fawn makes to the proxy carries it (a model run and its model list, with the OpenAI,
// Anthropic and Gemini SDKs alike, an MCP server through the relay and one on the stdio bridge), nothing else gets it,
// and a missing or wrong one reads as "Fawn's proxy needs its token". (web_fetch's side: fetch-providers.test.ts.)
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { PROXY_TOKEN_HEADER, startProxy, type RunningProxy } from "../../proxy/server.ts";
import type { ModelEndpoint, ModelSettings } from "../../src/protocol/index.ts";
import { openFawnDb } from "../../src/storage/index.ts";
import { EVERYTHING, startEverything, type Everything } from "../mcp/everything.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("proxy-token-test");
const TOKEN = "fawn-proxy-token-0123456789abcdefABCDEF_-xy";
const WRONG = "not-the-token-0123456789abcdefABCDEF_-xyz";

let proxy: RunningProxy | undefined;
let everything: Everything | undefined;
afterEach(async () => {
  await proxy?.close();
  await everything?.stop();
  proxy = undefined;
  everything = undefined;
});

/** The mock model under another host name, marked "Use the proxy" (the relay forwards to it by its host:port). */
function proxiedSettings(overrides: Partial<ModelEndpoint> = {}): ModelSettings {
  return modelSettings({
    baseUrl: harness.mock.url,
    apiKey: "sk-main",
    model: "mock-model",
    endpoints: [
      {
        id: "far",
        name: "Far",
        baseUrl: harness.mock.url.replace("127.0.0.1", "localhost"),
        apiKey: "sk-far",
        models: [{ id: "mock-model" }],
        useProxy: true,
        ...overrides,
      },
    ],
  });
}

async function startTokenProxy(): Promise<RunningProxy> {
  everything = await startEverything("streamableHttp");
  proxy = await startProxy({
    port: 0,
    token: TOKEN,
    // Node sends no Origin; the browser e2e (mcp.spec.ts) checks the origin with the token.
    allowedOrigins: ["*"],
    allowedTargets: [new URL(harness.mock.url).host.replace("127.0.0.1", "localhost"), `127.0.0.1:${everything.port}`],
    log: null,
    mcpServers: [{ name: "everything", command: process.execPath, args: [path.resolve(EVERYTHING), "stdio"], env: {} }],
    mcpLog: () => {},
  });
  return proxy;
}

async function runFar(text: string) {
  const thread = await harness.gateway.threads.create();
  return runThread(harness.gateway, thread.thread_id, text, undefined, { endpoint: "far", model: "mock-model" });
}

describe("the proxy's token", () => {
  it("goes with every request to the proxy, and to nothing else", async () => {
    const running = await startTokenProxy();
    await harness.gateway.settings.saveProxy({ url: `${running.url}/forward/`, token: TOKEN });
    await harness.gateway.settings.saveModels(proxiedSettings());

    const events = await runFar("hello");
    expect(events.find((event) => event.event === "error")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });
    expect(
      await harness.gateway.settings.listModels({
        baseUrl: proxiedSettings().endpoints[1]!.baseUrl,
        apiKey: "k",
        useProxy: true,
      }),
    ).toContain("mock-model");
    // A direct endpoint never sees it, and the proxy does not pass it on.
    const main = await harness.gateway.threads.create();
    await runThread(harness.gateway, main.thread_id, "hello direct");
    expect(harness.mock.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of harness.mock.requests) expect(request.headers).not.toHaveProperty(PROXY_TOKEN_HEADER);

    // An MCP server through the relay, and one on the stdio bridge (added by its URL, "Use the proxy" off).
    const relayed = await harness.gateway.mcp.test({
      name: "relayed",
      url: everything!.url,
      enabled: true,
      useProxy: true,
    });
    expect(relayed).toMatchObject({ ok: true });
    const bridged = await harness.gateway.mcp.test({
      name: "bridged",
      url: `${running.url}/mcp/everything`,
      enabled: true,
    });
    expect(bridged).toMatchObject({ ok: true });
  });

  it.each(["anthropic", "gemini"] as const)(
    "goes with %s's SDK too, and its absence reads the same",
    async (provider) => {
      const running = await startTokenProxy();
      // The mock's origin: each SDK adds its own API path.
      const baseUrl = new URL(harness.mock.url.replace("127.0.0.1", "localhost")).origin;
      await harness.gateway.settings.saveModels(proxiedSettings({ provider, baseUrl, apiKey: "sk-test-key" }));
      await harness.gateway.settings.saveProxy({ url: `${running.url}/forward/`, token: TOKEN });
      const events = await runFar("hello");
      expect(events.find((event) => event.event === "error")).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ event: "end", data: { status: "success" } });

      await harness.gateway.settings.saveProxy({ url: `${running.url}/forward/`, token: WRONG });
      const error = (await runFar("hello")).find((event) => event.event === "error");
      expect(error?.data).toMatchObject({
        error: "proxy_refused",
        message: expect.stringMatching(/^Fawn's proxy needs its token: /),
      });
    },
  );

  it("says the proxy needs its token when it is missing or wrong, for models and MCP alike", async () => {
    const running = await startTokenProxy();
    await harness.gateway.settings.saveModels(proxiedSettings());
    for (const token of [undefined, WRONG]) {
      await harness.gateway.settings.saveProxy({ url: `${running.url}/forward/`, ...(token && { token }) });
      const error = (await runFar("hello")).find((event) => event.event === "error");
      expect(error?.data).toEqual({
        error: "proxy_refused",
        message:
          "Fawn's proxy needs its token: the request carried no token or a wrong one. Paste the token the proxy " +
          "was started with into Settings → Web → Proxy token.",
      });
      await expect(
        harness.gateway.settings.listModels({
          baseUrl: proxiedSettings().endpoints[1]!.baseUrl,
          apiKey: "k",
          useProxy: true,
        }),
      ).rejects.toThrow(/^Fawn's proxy needs its token: /);
      const bridged = await harness.gateway.mcp.test({
        name: "bridged",
        url: `${running.url}/mcp/everything`,
        enabled: true,
      });
      expect(bridged).toEqual({
        ok: false,
        error:
          'The MCP server "bridged" cannot be used: Fawn\'s proxy needs its token: the request carried no token or a ' +
          "wrong one. Paste the token the proxy was started with into Settings → Web → Proxy token.",
      });
    }
  });

  it("is kept with the API keys: not in the settings record, not in a backup, and a backup's is never read", async () => {
    await harness.gateway.settings.saveProxy({ url: "http://127.0.0.1:8787/forward/", token: TOKEN });
    expect(await harness.gateway.settings.getProxy()).toEqual({ url: "http://127.0.0.1:8787/forward/", token: TOKEN });
    const db = await openFawnDb(harness.gatewayDbName());
    try {
      expect(await db.get("settings", "proxy")).toEqual({
        key: "proxy",
        value: { url: "http://127.0.0.1:8787/forward/" },
      });
      expect(await db.get("secrets", "proxy.apiKey")).toEqual({ key: "proxy.apiKey", value: TOKEN });
      // A token in the settings record (a crafted backup could put one there) is not the token.
      await db.put("settings", { key: "proxy", value: { url: "http://127.0.0.1:8787/forward/", token: WRONG } });
      expect(await harness.gateway.settings.getProxy()).toEqual({
        url: "http://127.0.0.1:8787/forward/",
        token: TOKEN,
      });
      await db.delete("secrets", "proxy.apiKey");
      expect(await harness.gateway.settings.getProxy()).toEqual({ url: "http://127.0.0.1:8787/forward/" });
      await db.put("secrets", { key: "proxy.apiKey", value: TOKEN });
      await db.put("settings", { key: "proxy", value: { url: "http://127.0.0.1:8787/forward/" } });
    } finally {
      db.close();
    }
    const bytes = new Uint8Array(await (await harness.gateway.data.export()).blob.arrayBuffer());
    const texts = [
      new TextDecoder("latin1").decode(bytes),
      ...Object.values(unzipSync(bytes)).map((data) => strFromU8(data)),
    ];
    expect(texts.filter((text) => text.includes(TOKEN))).toEqual([]);

    await expect(harness.gateway.settings.saveProxy({ url: "http://127.0.0.1:8787/", token: "short" })).rejects.toThrow(
      "The proxy token is the text of the proxy's token file (letters, digits, - and _, at least 22): the proxy names that file when it starts.",
    );
  });
});
