// Settings → Tools' service over a real (fake-indexeddb) database: servers are checked before anything is stored,
// their secrets are kept apart from them and out of every export, and "Test connection" answers with a sentence.
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { ChangeNotice, McpServerEntry } from "../protocol/index.ts";
import { openFawnDb } from "../storage/fawn-db.ts";
import { indexedDbStorage, McpOAuthRepository, SettingsRepository } from "../storage/index.ts";
import { McpService, type McpConnections } from "./mcp-service.ts";

let dbCount = 0;
async function open(listTools: (server: McpServerEntry) => Promise<{ name: string; inputSchema: object }[]>) {
  const db = await openFawnDb(`mcp-service-test-${dbCount++}`);
  const notices: ChangeNotice[] = [];
  const forgotten: string[] = [];
  // The MCP layer is tested against a real server in test/integration/mcp-*.test.ts; here it answers from a list.
  const connections: McpConnections = {
    test: async (server) => {
      try {
        const tools = await listTools(server as McpServerEntry);
        return {
          ok: true,
          transport: undefined,
          tools: tools.map((tool) => ({ ...tool, inputSchema: { ...tool.inputSchema } })),
        };
      } catch (error) {
        return { ok: false, kind: "down", message: (error as Error).message };
      }
    },
    tools: async () => ({ tools: [], skipped: [], renamed: [], failures: [] }),
    forget: async (name) => void forgotten.push(name),
    setProxyUrl: async () => undefined,
    beginSignIn: async () => ({ signedIn: false, authorizationUrl: "https://auth.example/authorize?state=s1" }),
    finishSignIn: async () => undefined,
  };
  const service = new McpService(indexedDbStorage(db), {
    notify: (notice) => notices.push(notice),
    connections,
    proxyUrl: async () => undefined,
    oauthRedirectUrl: "http://localhost/oauth-callback.html",
  });
  return { db, service, notices, forgotten };
}

const remote: McpServerEntry = {
  name: "remote",
  url: "https://remote.example/mcp",
  enabled: true,
  bearerToken: "tok-remote-5151",
  headers: { "X-Api-Key": "hdr-remote-7272" },
  disabledTools: ["slow"],
};

describe("McpService", () => {
  it("stores servers with their secrets apart, reads them back, and tells every tab", async () => {
    const { db, service, notices, forgotten } = await open(async () => []);
    const off = { name: "off", url: "http://127.0.0.1:8787/mcp/files", enabled: false };
    expect(await service.save([remote, off])).toEqual([off, remote]);
    expect(await service.list()).toEqual([off, remote]);
    expect(await service.enabled()).toEqual([remote]);
    expect(notices).toEqual([{ type: "settings-changed" }]);
    // The record itself holds no secret; the secrets store does, so runs keep them out of error text.
    expect(JSON.stringify(await db.getAll("mcp_servers"))).not.toMatch(/tok-remote|hdr-remote/);
    expect(await new SettingsRepository(db).secretValues()).toEqual(
      expect.arrayContaining(["tok-remote-5151", "hdr-remote-7272"]),
    );
    // Saving a list without the server removes it and its secrets, and closes its connection.
    await service.save([off]);
    expect(await service.list()).toEqual([off]);
    expect(forgotten).toEqual(["remote"]);
    expect(await new SettingsRepository(db).secretValues()).not.toContain("tok-remote-5151");
  });

  it("refuses a bad list with a sentence and keeps what was stored", async () => {
    const { service, notices } = await open(async () => []);
    await service.save([remote]);
    await expect(service.save([remote, { ...remote, name: "REMOTE" }])).rejects.toThrow(/^Two servers are named/);
    await expect(service.save([{ ...remote, url: "nope" }])).rejects.toThrow(/^Server "remote": The URL is an http/);
    expect(await service.list()).toEqual([remote]);
    expect(notices).toHaveLength(1);
  });

  it("answers Test connection with the tools, or with the sentence of why not", async () => {
    const { service } = await open(async (server) => {
      if (server.name === "down") throw new Error("The MCP server down cannot be reached.");
      return [{ name: "echo", inputSchema: { type: "object" } }];
    });
    expect(await service.test(remote)).toEqual({
      ok: true,
      tools: [{ name: "echo", inputSchema: { type: "object" } }],
    });
    expect(await service.test({ ...remote, name: "down" })).toEqual({
      ok: false,
      error: "The MCP server down cannot be reached.",
    });
    expect(await service.test({ ...remote, url: "" })).toMatchObject({ ok: false, error: /The URL is an http/ });
  });

  it("exports DeerFlow's file without a secret, and imports one for the form without storing it", async () => {
    const { service } = await open(async () => []);
    await service.save([remote]);
    const exported = await service.exportConfig();
    expect(exported.file_name).toBe("extensions_config.json");
    const text = await exported.blob.text();
    expect(text).not.toMatch(/tok-remote|hdr-remote/);
    const read = await service.importConfig(text);
    expect(read).toEqual({
      servers: [{ ...remote, bearerToken: undefined, headers: undefined }].map(
        ({ bearerToken: _b, headers: _h, ...rest }) => rest,
      ),
      skipped: [],
    });
    expect(await service.list()).toEqual([remote]);
    await expect(service.importConfig("{")).rejects.toThrow(/^This file is not JSON/);
  });

  it("keeps a server's sign-in across saves, and forgets it when the server leaves, moves or signs out", async () => {
    const { db, service } = await open(async () => []);
    const oauth = new McpOAuthRepository(db);
    const signedIn = { name: "signed", url: "https://signed.example/mcp", enabled: true };
    const tokens = { access_token: "oauth-access-1234", token_type: "bearer" };
    await service.save([remote, signedIn]);
    await oauth.set("signed", signedIn.url, "tokens", tokens);
    await service.save([
      { ...remote, description: "changed" },
      { ...signedIn, description: "kept" },
    ]);
    expect(await service.signedIn()).toEqual(["signed"]);
    expect(await service.exportConfig().then(({ blob }) => blob.text())).not.toContain("oauth-access-1234");

    await service.save([remote, { ...signedIn, url: "https://moved.example/mcp" }]);
    expect(await oauth.get("signed", signedIn.url, "tokens")).toBeUndefined();
    await oauth.set("signed", "https://moved.example/mcp", "tokens", tokens);
    await service.signOut("signed");
    expect(await service.signedIn()).toEqual([]);
    await oauth.set("remote", remote.url, "tokens", tokens);
    await service.save([]);
    expect(await oauth.get("remote", remote.url, "tokens")).toBeUndefined();
  });

  it("keeps a pre-registered client's secret with the keys, out of the record and every export", async () => {
    const { db, service } = await open(async () => []);
    const oauth = new McpOAuthRepository(db);
    const preRegistered = { ...remote, oauthClientId: "fawn-client-id", oauthClientSecret: "client-secret-8383" };
    await service.save([preRegistered]);
    expect(await service.list()).toEqual([preRegistered]);
    expect(JSON.stringify(await db.getAll("mcp_servers"))).not.toContain("client-secret-8383");
    expect(await new SettingsRepository(db).secretValues()).toContain("client-secret-8383");
    expect(await service.exportConfig().then(({ blob }) => blob.text())).not.toContain("client-secret-8383");
    // Another client ID signs in afresh: the tokens of the old one are forgotten.
    await oauth.set("remote", remote.url, "tokens", { access_token: "old-client-token", token_type: "bearer" });
    await service.save([{ ...preRegistered, oauthClientId: "another-client" }]);
    expect(await oauth.get("remote", remote.url, "tokens")).toBeUndefined();
    await expect(service.save([{ ...remote, oauthClientId: "two words" }])).rejects.toThrow(
      /A client ID has no spaces/,
    );
  });

  it("offers Sign in again while a server waits for more access than its sign-in gave", async () => {
    const { db, service } = await open(async () => [{ name: "echo", inputSchema: { type: "object" } }]);
    const oauth = new McpOAuthRepository(db);
    const server = { name: "scoped", url: "https://scoped.example/mcp", enabled: true };
    await service.save([server]);
    await oauth.set("scoped", server.url, "tokens", { access_token: "a", token_type: "bearer" });
    await oauth.set("scoped", server.url, "scope", { granted: "read" });
    expect(await service.signedIn()).toEqual(["scoped"]);
    expect(await service.test(server)).not.toHaveProperty("signIn");
    await oauth.set("scoped", server.url, "scope", { granted: "read", next: "read write", stepUps: 1 });
    expect(await service.signedIn()).toEqual([]);
    expect(await service.test(server)).toMatchObject({ ok: true, signIn: true });
  });

  it("finishes only a sign-in it began, matching its state", async () => {
    const { service } = await open(async () => []);
    const signed = { name: "signed", url: "https://signed.example/mcp", enabled: true };
    await expect(service.finishSignIn({ state: "s1", code: "c" })).rejects.toThrow(/not started here/);
    expect(await service.beginSignIn(signed)).toEqual({
      signedIn: false,
      authorizationUrl: "https://auth.example/authorize?state=s1",
    });
    await expect(service.finishSignIn({ state: "other", code: "c" })).rejects.toThrow(/not started here/);
    expect(await service.finishSignIn({ state: "s1", code: "c" })).toEqual({ server: "signed" });
    await expect(service.finishSignIn({ state: "s1", code: "c" })).rejects.toThrow(/already finished/);
  });
});
