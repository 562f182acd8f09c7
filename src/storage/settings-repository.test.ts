import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { openFawnDb } from "./fawn-db.ts";
import { McpOAuthRepository } from "./mcp-oauth-repository.ts";
import { SettingsRepository } from "./settings-repository.ts";

describe("the secrets run errors are redacted of", () => {
  it("hold every stored key, and an MCP sign-in's tokens and client secret one by one", async () => {
    const db = await openFawnDb("settings-repository-test");
    const settings = new SettingsRepository(db);
    await settings.putWithApiKey("web.search", { provider: "tavily" }, "tvly-key-1");
    const oauth = new McpOAuthRepository(db);
    await oauth.set("github", "https://mcp.example.com/mcp", "tokens", {
      access_token: "at-123",
      refresh_token: "rt-456",
      token_type: "Bearer",
    });
    await oauth.set("github", "https://mcp.example.com/mcp", "client", { client_id: "fawn", client_secret: "cs-789" });
    const secrets = await settings.secretValues();
    expect(secrets).toEqual(expect.arrayContaining(["tvly-key-1", "at-123", "rt-456", "cs-789"]));
    expect(secrets).not.toContain("Bearer");
    expect(secrets).not.toContain("fawn");
  });
});
