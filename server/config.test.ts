// The server's configuration: fawn-server.json and the environment, their defaults, and one sentence per mistake.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_PORT, loadConfig, resolveConfig } from "./config.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), "fawn-config-"));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
  return folder;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("the environment alone", () => {
  it("has defaults for a quick start: port 2024 on 127.0.0.1, the embedded database in ./.fawn-server", () => {
    const config = loadConfig({}, "/srv/fawn");
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: DEFAULT_PORT,
      origins: [],
      dataDir: "/srv/fawn/.fawn-server",
      maxBodyBytes: 16 * 1024 * 1024,
      runLeaseMs: 10_000,
      source: "the environment",
    });
    expect(config.models).toBeUndefined();
    expect(config.adminToken).toBeUndefined();
    expect(config.databaseUrl).toBeUndefined();
  });

  it("refuses an admin token shorter than 16 characters, in one sentence", () => {
    expect(() => resolveConfig(undefined, { FAWN_SERVER_TOKEN: "secret" })).toThrow(
      /^FAWN_SERVER_TOKEN is 6 characters; use at least 16 .*\.$/,
    );
  });

  it("takes an OpenAI-compatible model, the token, origins, the database and the data folder", () => {
    const config = resolveConfig(undefined, {
      FAWN_MODEL_BASE_URL: "https://api.example.com/v1",
      FAWN_MODEL_API_KEY: "sk-live",
      FAWN_MODEL: "gpt-x",
      PORT: "8080",
      FAWN_SERVER_TOKEN: "secret-admin-token-0123",
      FAWN_SERVER_ORIGINS: "https://app.example.com/, http://localhost:5173",
      DATABASE_URL: "postgres://db/fawn",
      FAWN_SERVER_DATA: "/var/fawn",
    });
    expect(config).toMatchObject({
      port: 8080,
      adminToken: "secret-admin-token-0123",
      origins: ["https://app.example.com", "http://localhost:5173"],
      databaseUrl: "postgres://db/fawn",
      dataDir: "/var/fawn",
      models: {
        endpoints: [
          { id: "main", baseUrl: "https://api.example.com/v1", apiKey: "sk-live", models: [{ id: "gpt-x" }] },
        ],
        defaultModel: { endpoint: "main", model: "gpt-x" },
      },
    });
  });

  it("refuses a half-given model and a port that is not one, in one sentence", () => {
    expect(refusal(() => resolveConfig(undefined, { FAWN_MODEL: "gpt-x" }))).toBe(
      "FAWN_MODEL_BASE_URL and FAWN_MODEL are needed together.",
    );
    expect(refusal(() => resolveConfig(undefined, { PORT: "http" }))).toBe(
      'PORT must be a whole number from 0 to 65535, not "http".',
    );
    expect(refusal(() => resolveConfig(undefined, { FAWN_MODEL_BASE_URL: "ftp://x", FAWN_MODEL: "m" }))).toBe(
      "FAWN_MODEL_BASE_URL must be an http(s) URL.",
    );
  });
});

describe("fawn-server.json", () => {
  const file = {
    port: 3000,
    origins: ["https://fawn.example.com"],
    models: [
      {
        name: "OpenAI",
        baseUrl: "https://api.openai.com/v1",
        apiKey: "$OPENAI_API_KEY",
        models: ["gpt-4.1", { id: "o3", thinking: true }],
      },
      {
        name: "Claude",
        provider: "anthropic",
        baseUrl: "https://api.anthropic.com",
        apiKey: "${ANTHROPIC_KEY}",
        models: ["claude"],
      },
    ],
    defaultModel: "Claude/claude",
    webTools: {
      search: { provider: "tavily", apiKey: "$TAVILY_API_KEY" },
      images: { provider: "firecrawl", apiKey: "$FIRECRAWL_API_KEY" },
    },
    mcpServers: [
      { name: "docs", url: "https://mcp.example.com/mcp", headers: { "X-Key": "$DOCS_KEY", Accept: "json" } },
    ],
  };
  const env = {
    OPENAI_API_KEY: "sk-o",
    ANTHROPIC_KEY: "sk-a",
    TAVILY_API_KEY: "tv",
    FIRECRAWL_API_KEY: "fc",
    DOCS_KEY: "dk",
  };

  it("is read from ./fawn-server.json, keys from the variables it names, the environment winning for the port", () => {
    const folder = folderWith({ "fawn-server.json": JSON.stringify(file) });
    const config = loadConfig({ ...env, PORT: "4000" }, folder);
    expect(config.source).toBe(path.join(folder, "fawn-server.json"));
    expect(config.port).toBe(4000);
    expect(config.origins).toEqual(["https://fawn.example.com"]);
    expect(config.models).toEqual({
      endpoints: [
        {
          id: "openai",
          name: "OpenAI",
          provider: "openai-compatible",
          baseUrl: "https://api.openai.com/v1",
          apiKey: "sk-o",
          models: [{ id: "gpt-4.1" }, { id: "o3", thinking: true }],
        },
        {
          id: "claude",
          name: "Claude",
          provider: "anthropic",
          baseUrl: "https://api.anthropic.com",
          apiKey: "sk-a",
          models: [{ id: "claude" }],
        },
      ],
      defaultModel: { endpoint: "claude", model: "claude" },
    });
    expect(config.webTools).toEqual({
      search: { provider: "tavily", apiKey: "tv" },
      fetch: { provider: "jina", apiKey: "" },
      images: { provider: "firecrawl", apiKey: "fc" },
    });
    expect(config.mcpServers).toEqual([
      { name: "docs", url: "https://mcp.example.com/mcp", enabled: true, headers: { "X-Key": "dk", Accept: "json" } },
    ]);
  });

  it("is found at FAWN_SERVER_CONFIG, which must exist", () => {
    const folder = folderWith({ "team.json": JSON.stringify({ port: 5000 }) });
    expect(loadConfig({ FAWN_SERVER_CONFIG: "team.json" }, folder).port).toBe(5000);
    expect(refusal(() => loadConfig({ FAWN_SERVER_CONFIG: "missing.json" }, folder))).toBe(
      `FAWN_SERVER_CONFIG names ${path.join(folder, "missing.json")}, which does not exist.`,
    );
  });

  it("never takes a key written into the file", () => {
    const written = {
      models: [{ name: "OpenAI", baseUrl: "https://api.openai.com/v1", apiKey: "sk-live", models: ["m"] }],
    };
    expect(refusal(() => resolveConfig(written, {}, { source: "fawn-server.json" }))).toBe(
      "fawn-server.json: models[0].apiKey must name an environment variable ($NAME); keys are never written into the file.",
    );
  });

  it("names the field of each mistake", () => {
    const cases: [unknown, Record<string, string>, string][] = [
      [
        { models: [{ ...file.models[0], apiKey: "$UNSET" }] },
        {},
        "models[0].apiKey names the environment variable UNSET, which is not set.",
      ],
      [
        { models: [{ name: "x", baseUrl: "not a url", models: ["m"] }] },
        {},
        "x: models[0].baseUrl must be an http(s) URL.",
      ],
      [
        { models: [{ name: "x", baseUrl: "https://x", models: [] }] },
        {},
        "x: models[0].models must list at least one model.",
      ],
      [{ prot: 1 }, {}, 'x: Unrecognized key: "prot".'],
      [
        { models: file.models, defaultModel: "OpenAI/gpt-5" },
        env,
        'defaultModel "OpenAI/gpt-5" is not "<endpoint>/<model>" of a listed model.',
      ],
      [
        { models: [file.models[0], file.models[0]] },
        env,
        'models[1] has the id "openai" of an earlier endpoint; give it another "id".',
      ],
      [
        { models: file.models },
        { ...env, FAWN_MODEL_BASE_URL: "https://x", FAWN_MODEL: "m" },
        "Models are set both in the configuration file and by FAWN_MODEL_*: keep one of them.",
      ],
    ];
    for (const [json, vars, message] of cases) {
      expect(refusal(() => resolveConfig(json, vars, { source: "x" }))).toBe(message);
    }
  });

  it("says when the file is not JSON", () => {
    const folder = folderWith({ "fawn-server.json": "{ models: [" });
    expect(refusal(() => loadConfig({}, folder))).toMatch(/fawn-server\.json is not valid JSON \(/);
  });
});

describe("fawn-server.example.json", () => {
  it("is a configuration the server takes, once the keys it names are set", () => {
    const example = JSON.parse(
      readFileSync(new URL("../fawn-server.example.json", import.meta.url), "utf8"),
    ) as unknown;
    const env = { OPENAI_API_KEY: "sk-1", ANTHROPIC_API_KEY: "sk-2", TAVILY_API_KEY: "tv", DOCS_MCP_KEY: "dk" };
    const config = resolveConfig(example, env, { source: "fawn-server.example.json" });
    expect(config.models?.endpoints.map((endpoint) => endpoint.id)).toEqual(["openai", "claude", "ollama"]);
    expect(config.models?.defaultModel).toEqual({ endpoint: "openai", model: "gpt-4.1" });
    expect(refusal(() => resolveConfig(example, {}, { source: "fawn-server.example.json" }))).toBe(
      "models[0].apiKey names the environment variable OPENAI_API_KEY, which is not set.",
    );
  });
});
