// An MCP server's OAuth client beyond the SDK's flow: the scope a server names is what the next sign-in asks for, a
// 403 insufficient_scope asks for a wider one (a step-up) but never twice for a scope already granted nor more than
// MCP_SCOPE_STEP_UP_LIMIT times, and a pre-registered client is used as Settings → Tools gives it. The whole flow runs
// against the MCP project's conformance scenarios (npm run test:mcp-conformance); these pin each rule.
import { describe, expect, it } from "vitest";
import { scopeFetch } from "./connection.ts";
import { describeMcpError, McpScopeRefused } from "./errors.ts";
import { McpOAuthProvider, type McpOAuthPart, type McpOAuthStore } from "./oauth-provider.ts";
import { joinScopes, MCP_SCOPE_STEP_UP_LIMIT, stepUpPending, type McpOAuthScopes } from "./oauth-scopes.ts";

function memoryStore(): McpOAuthStore & { parts: Map<McpOAuthPart, unknown> } {
  const parts = new Map<McpOAuthPart, unknown>();
  return {
    parts,
    get: async (part) => parts.get(part),
    set: async (part, value) => void parts.set(part, structuredClone(value)),
    delete: async (names) => names.forEach((name) => parts.delete(name)),
  };
}

const REDIRECT = "http://localhost/oauth-callback.html";
const SERVER = "https://tools.example/mcp";

/** A fetch that answers every request with `status` and `wwwAuthenticate`. */
function answering(status: number, wwwAuthenticate: string) {
  return async () =>
    new Response(JSON.stringify({ error: "x" }), { status, headers: { "WWW-Authenticate": wwwAuthenticate } });
}

/** Signs in as Settings → Tools does, up to the tokens: what the sign-in asked for, and the tokens it got. */
async function signIn(store: McpOAuthStore, tokenScope?: string): Promise<string | undefined> {
  const provider = new McpOAuthProvider(store, REDIRECT, true);
  const scope = await provider.nextScope();
  await provider.rememberAsking(new URL(`https://auth.example/authorize${scope ? `?scope=${scope}` : ""}`));
  await provider.saveTokens({ access_token: "a", token_type: "bearer", ...(tokenScope && { scope: tokenScope }) });
  return scope;
}

describe("McpOAuthProvider's scopes", () => {
  it("asks the next sign-in for the scope a 401's WWW-Authenticate names", async () => {
    const store = memoryStore();
    const provider = new McpOAuthProvider(store, REDIRECT);
    const fetch = scopeFetch(answering(401, 'Bearer scope="mcp:basic", resource_metadata="x"'), provider, SERVER);
    expect((await fetch(SERVER, {})).status).toBe(401);
    expect(await signIn(store)).toBe("mcp:basic");
    expect((store.parts.get("scope") as McpOAuthScopes).granted).toBe("mcp:basic");
  });

  it("leaves the scope to the SDK (scopes_supported) when the server names none", async () => {
    const store = memoryStore();
    const provider = new McpOAuthProvider(store, REDIRECT);
    await scopeFetch(answering(401, 'Bearer resource_metadata="x"'), provider, SERVER)(SERVER, {});
    expect(await provider.nextScope()).toBeUndefined();
  });

  it("asks for the wider scope on a 403 insufficient_scope, with what was granted, and hides the old tokens", async () => {
    const store = memoryStore();
    await signIn(store, "mcp:basic");
    const provider = new McpOAuthProvider(store, REDIRECT);
    const challenge = 'Bearer error="insufficient_scope", scope="mcp:write"';
    const refused = await scopeFetch(answering(403, challenge), provider, SERVER)(SERVER, {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpScopeRefused);
    expect(describeMcpError(refused, { server: "tools" })).toMatchObject({
      kind: "sign-in",
      message:
        'The MCP server "tools" needs more access for this (mcp:basic mcp:write): in Settings → Tools, press "Test connection" and then "Sign in" for it.',
    });
    expect(stepUpPending(store.parts.get("scope") as McpOAuthScopes)).toBe(true);
    // The step-up sign-in does not refresh the narrower tokens: it asks anew. A run's connection still uses them.
    expect(await new McpOAuthProvider(store, REDIRECT, true).tokens()).toBeUndefined();
    expect(await provider.tokens()).toMatchObject({ access_token: "a" });
    expect(await signIn(store)).toBe("mcp:basic mcp:write");
    expect(stepUpPending(store.parts.get("scope") as McpOAuthScopes)).toBe(false);
  });

  it("does not ask again for a scope already granted: the server's refusal ends with a sentence", async () => {
    const store = memoryStore();
    await signIn(store, "mcp:admin");
    const provider = new McpOAuthProvider(store, REDIRECT);
    const fetch = scopeFetch(answering(403, 'Bearer error="insufficient_scope", scope="mcp:admin"'), provider, SERVER);
    const refused = await fetch(SERVER, {}).catch((error: unknown) => error);
    expect(describeMcpError(refused, { server: "tools" })).toMatchObject({
      kind: "refused",
      message:
        'The MCP server "tools" refused this: you signed in with the access it asked for (mcp:admin) and it still says that is not enough.',
    });
    expect(stepUpPending(store.parts.get("scope") as McpOAuthScopes)).toBe(false);
  });

  it(`stops after ${String(MCP_SCOPE_STEP_UP_LIMIT)} step-ups in a row, however new the scope asked for`, async () => {
    const store = memoryStore();
    await signIn(store, "s0");
    const provider = new McpOAuthProvider(store, REDIRECT);
    const outcomes: boolean[] = [];
    for (let round = 1; round <= MCP_SCOPE_STEP_UP_LIMIT + 2; round++) {
      const challenge = await provider.scopeChallenge(`s${String(round)}`);
      outcomes.push(challenge.signIn);
      if (challenge.signIn) await signIn(store);
    }
    expect(outcomes).toEqual([true, true, true, false, false]);
    expect(describeMcpError(new McpScopeRefused("s0 s1", false, "limit"), { server: "tools" }).message).toBe(
      'The MCP server "tools" refused this: it asked for more access again after 3 sign-ins (s0 s1); sign out of it in Settings → Tools and sign in again.',
    );
  });

  it("reads only the MCP server's own answers", async () => {
    const store = memoryStore();
    const provider = new McpOAuthProvider(store, REDIRECT);
    const fetch = scopeFetch(answering(403, 'Bearer error="insufficient_scope", scope="x"'), provider, SERVER);
    expect((await fetch("https://auth.example/token", {})).status).toBe(403);
    expect(store.parts.size).toBe(0);
  });

  it("joins scopes as sets of words", () => {
    expect(joinScopes("a b", undefined, "b c")).toBe("a b c");
    expect(joinScopes(undefined, " ")).toBeUndefined();
  });
});

describe("McpOAuthProvider with a pre-registered client", () => {
  it("uses the client ID and secret from Settings → Tools, and never stores a registration over them", async () => {
    const store = memoryStore();
    const provider = new McpOAuthProvider(store, REDIRECT, true, { clientId: "fawn-app", clientSecret: "s3cret" });
    expect(await provider.clientInformation()).toEqual({ client_id: "fawn-app", client_secret: "s3cret" });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe("client_secret_basic");
    await provider.saveClientInformation({ client_id: "fawn-app", client_secret: "s3cret", issuer: "x" } as never);
    expect(store.parts.has("client")).toBe(false);
  });

  it("is a public client without a secret, and registers dynamically without a client ID", async () => {
    const store = memoryStore();
    const publicClient = new McpOAuthProvider(store, REDIRECT, true, { clientId: "fawn-public" });
    expect(await publicClient.clientInformation()).toEqual({ client_id: "fawn-public" });
    expect(publicClient.clientMetadata.token_endpoint_auth_method).toBe("none");
    const dynamic = new McpOAuthProvider(store, REDIRECT, true);
    await dynamic.saveClientInformation({ client_id: "registered" });
    expect(await dynamic.clientInformation()).toEqual({ client_id: "registered" });
  });
});
