import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { openFawnDb } from "./fawn-db.ts";
import { upgradedRecords } from "./settings-upgrade.ts";

let dbCount = 0;

/** What Settings → Models and Web held at store versions 1–5, two endpoints and the proxy included. */
const LEGACY_MODELS = {
  baseUrl: "https://api.example.com/v1",
  model: "gpt-main",
  models: [{ id: "gpt-reason", thinking: true }],
  name: "Work",
  useProxy: true,
  modelTitles: true,
  endpoints: [{ id: "second", name: "Second", baseUrl: "https://second.example/v1", models: [{ id: "s-1" }] }],
};
const LEGACY_SEARCH = {
  provider: "searxng",
  baseUrl: "https://searx.example",
  proxyUrl: "http://127.0.0.1:8787/forward/",
};

const UPGRADED_MODELS = {
  endpoints: [
    {
      id: "main",
      name: "Work",
      baseUrl: "https://api.example.com/v1",
      models: [{ id: "gpt-main" }, { id: "gpt-reason", thinking: true }],
      useProxy: true,
    },
    { id: "second", name: "Second", baseUrl: "https://second.example/v1", models: [{ id: "s-1" }] },
  ],
  defaultModel: { endpoint: "main", model: "gpt-main" },
  modelTitles: true,
};

/** The store version whose upgrade rewrote settings in today's shape: every earlier one stored them the old way. */
const SETTINGS_REWRITTEN_AT = 6;

describe("settings from every earlier store version", () => {
  for (let version = 1; version < SETTINGS_REWRITTEN_AT; version++) {
    it(`reads version ${version}'s model endpoints, keys and proxy as this version stores them`, async () => {
      const name = `settings-upgrade-v${version}-${dbCount++}`;
      const old = await openFawnDb(name, version);
      // Before version 4 the first endpoint's key sat in its record; from then on in the secrets store.
      const inline = version < 4;
      await old.put("settings", {
        key: "models.endpoint",
        value: inline ? { ...LEGACY_MODELS, apiKey: "sk-main-1111" } : LEGACY_MODELS,
      });
      await old.put("settings", { key: "web.search", value: LEGACY_SEARCH });
      await old.put("settings", { key: "memory.settings", value: { enabled: false } });
      if (!inline) {
        await old.put("secrets", { key: "models.endpoint.apiKey", value: "sk-main-1111" });
        await old.put("secrets", { key: "models.endpoint.apiKey.second", value: "sk-second-2222" });
        await old.put("secrets", { key: "web.search.apiKey", value: "sk-search-3333" });
      }
      old.close();

      const db = await openFawnDb(name);
      const settings = Object.fromEntries((await db.getAll("settings")).map((record) => [record.key, record.value]));
      expect(settings).toEqual({
        models: UPGRADED_MODELS,
        "web.search": { provider: "searxng", baseUrl: "https://searx.example" },
        proxy: { url: "http://127.0.0.1:8787/forward/" },
        "memory.settings": { enabled: false },
      });
      const secrets = Object.fromEntries((await db.getAll("secrets")).map((record) => [record.key, record.value]));
      expect(secrets).toEqual({
        "models.apiKey.main": "sk-main-1111",
        ...(!inline && { "models.apiKey.second": "sk-second-2222", "web.search.apiKey": "sk-search-3333" }),
      });
      db.close();
    });
  }

  it("leaves a database already at this version as it is", async () => {
    const name = `settings-upgrade-current-${dbCount++}`;
    const db = await openFawnDb(name);
    await db.put("settings", { key: "models", value: UPGRADED_MODELS });
    db.close();
    const again = await openFawnDb(name);
    expect(await again.get("settings", "models")).toEqual({ key: "models", value: UPGRADED_MODELS });
    again.close();
  });
});

describe("a backup's settings records", () => {
  it("read as this version's, whichever version wrote them", () => {
    const records = upgradedRecords([
      { key: "models.endpoint", value: LEGACY_MODELS },
      { key: "web.search", value: LEGACY_SEARCH },
      { key: "web.fetch", value: { provider: "jina" } },
    ]);
    expect(Object.fromEntries(records.map((record) => [record.key, record.value]))).toEqual({
      models: UPGRADED_MODELS,
      "web.search": { provider: "searxng", baseUrl: "https://searx.example" },
      "web.fetch": { provider: "jina" },
      proxy: { url: "http://127.0.0.1:8787/forward/" },
    });
  });

  it("keep a default model on another endpoint, and give the first endpoint a free id", () => {
    const [models] = upgradedRecords([
      {
        key: "models.endpoint",
        value: {
          baseUrl: "https://a.example/v1",
          model: "a",
          endpoints: [{ id: "main", name: "Other", baseUrl: "https://b.example/v1", models: [{ id: "b" }] }],
          defaultModel: { endpoint: "main", model: "b" },
        },
      },
    ]);
    expect(models?.value).toEqual({
      endpoints: [
        { id: "main-2", name: "Main endpoint", baseUrl: "https://a.example/v1", models: [{ id: "a" }] },
        { id: "main", name: "Other", baseUrl: "https://b.example/v1", models: [{ id: "b" }] },
      ],
      defaultModel: { endpoint: "main", model: "b" },
    });
  });

  it("are left alone when they are already this version's", () => {
    const records = [
      { key: "models", value: UPGRADED_MODELS },
      { key: "proxy", value: {} },
    ];
    expect(upgradedRecords(records)).toEqual(records);
  });
});
