import { describe, expect, it } from "vitest";
import {
  DEFAULT_PROXY_URL,
  describeAdditions,
  emptyMemoryDocument,
  type MemoryDocument,
  type MemoryFact,
} from "../protocol/index.ts";
import {
  addressChanges,
  importAdditions,
  isSecretField,
  mergeMemoryDocuments,
  withoutSecrets,
} from "./data-service.ts";

const fact = (id: string, content: string): MemoryFact => ({
  id,
  content,
  category: "context",
  confidence: 0.9,
  createdAt: "2025-01-01T00:00:00Z",
  source: "manual",
});

const withFacts = (...facts: MemoryFact[]): MemoryDocument => ({ ...emptyMemoryDocument(), facts });

describe("withoutSecrets", () => {
  it("drops credential fields at any depth and keeps the rest", () => {
    expect(
      withoutSecrets({
        baseUrl: "http://x",
        apiKey: "sk-1",
        maxTokens: 10,
        servers: [{ url: "u", headers: { Authorization: "Bearer t", accept: "json" }, api_key: "k" }],
      }),
    ).toEqual({ baseUrl: "http://x", maxTokens: 10, servers: [{ url: "u", headers: { accept: "json" } }] });
  });

  it("knows a credential by its name's last word, however it is written (found by the key scan)", () => {
    for (const name of ["X-API-Key", "x-api-key", "clientSecret", "accessToken", "refresh_token", "Cookie", "apikey"]) {
      expect(isSecretField(name)).toBe(true);
    }
    for (const name of ["key", "maxTokens", "maxInjectionTokens", "keyboard", "author", "subagent_token_usage"]) {
      expect(isSecretField(name)).toBe(false);
    }
  });
});

describe("mergeMemoryDocuments", () => {
  const now = new Date("2025-06-01T00:00:00Z");

  it("adds facts whose content is new, whatever their case and spacing, and renames a taken id", () => {
    const merged = mergeMemoryDocuments(
      withFacts(fact("fact_1", "Likes tea")),
      withFacts(fact("fact_1", "Keeps bees"), fact("fact_2", "  likes TEA ")),
      now,
    );
    expect(merged?.added).toBe(1);
    expect(merged?.value.facts.map((item) => item.content)).toEqual(["Likes tea", "Keeps bees"]);
    expect(new Set(merged?.value.facts.map((item) => item.id)).size).toBe(2);
  });

  it("fills empty summaries only, and changes nothing when there is nothing new", () => {
    const mine = emptyMemoryDocument();
    mine.user.workContext = { summary: "Beekeeper", updatedAt: "x" };
    const theirs = emptyMemoryDocument();
    theirs.user.workContext = { summary: "Farmer", updatedAt: "y" };
    theirs.user.topOfMind = { summary: "Spring honey", updatedAt: "y" };
    const merged = mergeMemoryDocuments(mine, theirs, now);
    expect(merged?.value.user.workContext.summary).toBe("Beekeeper");
    expect(merged?.value.user.topOfMind.summary).toBe("Spring honey");
    expect(mergeMemoryDocuments(merged!.value, theirs, now)).toBeUndefined();
  });
});

describe("addressChanges", () => {
  it("lists each endpoint's Base URL, the web services' own addresses and a proxy URL other than the default", () => {
    const changes = addressChanges([
      {
        key: "web.search",
        value: { provider: "searxng", baseUrl: "https://searx.example", proxyUrl: "https://relay.example/forward/" },
      },
      { key: "web.fetch", value: { provider: "jina", baseUrl: "https://reader.example" } },
      { key: "sandbox.settings", value: { provider: "browser", baseUrl: "not an address setting" } },
      {
        key: "models.endpoint",
        value: {
          baseUrl: "https://api.example/v1",
          model: "m",
          endpoints: [
            { id: "second", name: "Second", baseUrl: "https://second.example/v1" },
            { id: "no-url", name: "No URL" },
          ],
        },
      },
    ]);
    expect(changes).toEqual([
      { kind: "endpoint", name: "Main endpoint", address: "https://api.example/v1" },
      { kind: "endpoint", name: "Second", address: "https://second.example/v1" },
      { kind: "web-search", name: "SearXNG", address: "https://searx.example" },
      { kind: "web-fetch", name: "Jina Reader", address: "https://reader.example" },
      { kind: "proxy", name: "", address: "https://relay.example/forward/" },
    ]);
    expect(describeAdditions(changes)).toBe(
      "This backup adds what can act or send data: the endpoint Main endpoint at https://api.example/v1; the endpoint " +
        "Second at https://second.example/v1; SearXNG at https://searx.example; Jina Reader at " +
        "https://reader.example; the proxy URL https://relay.example/forward/. Nothing was imported; import it " +
        "again accepting them to apply it.",
    );
  });

  it("lists nothing for settings without addresses, or with the default proxy", () => {
    expect(
      addressChanges([
        { key: "web.search", value: { provider: "tavily", proxyUrl: DEFAULT_PROXY_URL.replace(/\/$/, "") } },
        { key: "web.fetch", value: { provider: "jina" } },
        { key: "models.endpoint", value: { baseUrl: "  ", model: "" } },
        { key: "subagents.settings", value: { maxConcurrent: 3 } },
      ]),
    ).toEqual([]);
  });
});

describe("importAdditions", () => {
  const bytes = new Uint8Array([1]);
  const skill = (name: string, paths: string[]) => ({
    name,
    enabled: true,
    installed_at: 0,
    metadata: { description: "" },
    files: Object.fromEntries(paths.map((path) => [path, bytes])),
  });

  it("lists the addresses, then each MCP server, then each skill whose files are not all Markdown", () => {
    const additions = importAdditions({
      settings: [{ key: "proxy", value: { url: "https://relay.example/forward/" } }],
      mcp_servers: [
        { name: "files", url: "https://mcp.example/files", enabled: false },
        { name: "mailer", url: "https://mail.example/mcp", enabled: false, useProxy: true },
      ],
      skills: [
        skill("tea", ["SKILL.md", "reference.md", "docs/Notes.MARKDOWN"]),
        skill("deploy", ["SKILL.md", "scripts/run.sh", "bin/tool", "scripts/a.py"]),
      ],
    });
    expect(additions).toEqual([
      { kind: "proxy", name: "", address: "https://relay.example/forward/" },
      { kind: "mcp-server", name: "files", address: "https://mcp.example/files" },
      { kind: "mcp-server", name: "mailer", address: "https://mail.example/mcp", via_proxy: true },
      { kind: "skill-scripts", name: "deploy", scripts: ["bin/tool", "scripts/a.py", "scripts/run.sh"] },
    ]);
    expect(describeAdditions(additions)).toBe(
      "This backup adds what can act or send data: the proxy URL https://relay.example/forward/; the MCP server " +
        "files at https://mcp.example/files (switched off); the MCP server mailer at https://mail.example/mcp " +
        "(switched off); the skill deploy with scripts (bin/tool, scripts/a.py, scripts/run.sh). Nothing was " +
        "imported; import it again accepting them to apply it.",
    );
  });

  it("lists nothing when nothing added can act or send data", () => {
    expect(importAdditions({ settings: [], mcp_servers: [], skills: [skill("tea", ["SKILL.md"])] })).toEqual([]);
  });
});
