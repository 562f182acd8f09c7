// A server that wants OAuth, through the Gateway, against server-everything behind a local authorization server:
// Test connection asks for a sign-in, "Sign in" gives the authorization page (which approves at once and sends back
// a code and the state), finishing exchanges the code (PKCE) for tokens kept as secrets, then the server's tools work
// in a run; an expired token is refreshed without a new sign-in, no token is in a backup, and Sign out forgets it.
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpServerEntry } from "../../src/protocol/index.ts";
import { startOAuthEverything, type OAuthEverything } from "../mcp/oauth-everything-server.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("mcp-oauth-test");
let oauth: OAuthEverything;

beforeAll(async () => {
  oauth = await startOAuthEverything();
});
afterAll(async () => {
  await oauth.stop();
});

const server = (): McpServerEntry => ({ name: "guarded", url: oauth.url, enabled: true });

/** What the authorization page does: approves and redirects to Fawn's callback with the code and the state. */
async function approve(authorizationUrl: string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location") ?? "");
}

interface MockRequest {
  messages: { role: string; content: unknown }[];
}
const lastToolResult = () =>
  (harness.mock.requests.at(-1)?.body as MockRequest).messages.filter((m) => m.role === "tool").at(-1)?.content;

describe("an MCP server that needs OAuth", () => {
  it("asks for a sign-in, signs in with PKCE, works in a run, refreshes its token and signs out", async () => {
    const { gateway } = harness;
    expect(await gateway.mcp.test(server())).toEqual({
      ok: false,
      signIn: true,
      error: 'The MCP server "guarded" needs you to sign in: press "Sign in" for it in Settings → Tools.',
    });

    const start = await gateway.mcp.beginSignIn(server());
    if (start.signedIn) throw new Error("expected an authorization page");
    const page = new URL(start.authorizationUrl);
    expect(page.searchParams.get("code_challenge_method")).toBe("S256");
    expect(page.searchParams.get("redirect_uri")).toBe("http://localhost/oauth-callback.html");
    const back = await approve(start.authorizationUrl);
    expect(back.origin + back.pathname).toBe("http://localhost/oauth-callback.html");
    const state = back.searchParams.get("state") ?? "";
    const code = back.searchParams.get("code") ?? "";

    // A Test connection while the sign-in is under way does not replace its state or verifier.
    expect(await gateway.mcp.test(server())).toMatchObject({ ok: false, signIn: true });
    // An answer with another state is refused, and does not use up the sign-in.
    await expect(gateway.mcp.finishSignIn({ state: `${state}x`, code })).rejects.toThrow(/not started here/);
    expect(await gateway.mcp.finishSignIn({ state, code })).toEqual({ server: "guarded" });

    const test = await gateway.mcp.test(server());
    expect(test.ok && test.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo"]));
    await gateway.mcp.save([server()]);
    expect(await gateway.mcp.signedIn()).toEqual(["guarded"]);

    const { thread_id: threadId } = await gateway.threads.create();
    await runThread(gateway, threadId, 'call tool guarded_echo {"message":"signed in"}');
    expect(lastToolResult()).toBe("Echo: signed in");

    // An hour later: the access token is refused, the SDK refreshes it with the stored refresh token.
    const issuedBefore = oauth.issued.length;
    oauth.expireAccessTokens();
    await gateway.mcp.save([{ ...server(), description: "reconnect" }]);
    const again = await gateway.mcp.test(server());
    expect(again.ok).toBe(true);
    expect(oauth.issued.length).toBe(issuedBefore + 2);
    await runThread(gateway, threadId, 'call tool guarded_echo {"message":"refreshed"}');
    expect(lastToolResult()).toBe("Echo: refreshed");

    // No token (access or refresh, old or new) is in a backup.
    const archive = new Uint8Array(await (await gateway.data.export()).blob.arrayBuffer());
    const texts = Object.values(unzipSync(archive)).map((data) => new TextDecoder("latin1").decode(data));
    for (const token of oauth.issued) expect(texts.some((text) => text.includes(token))).toBe(false);

    await gateway.mcp.signOut("guarded");
    expect(await gateway.mcp.signedIn()).toEqual([]);
    expect(await gateway.mcp.test(server())).toMatchObject({ ok: false, signIn: true });
  });

  it("says why when the authorization server refused", async () => {
    const { gateway } = harness;
    const start = await gateway.mcp.beginSignIn(server());
    if (start.signedIn) throw new Error("expected an authorization page");
    const state = new URL(start.authorizationUrl).searchParams.get("state") ?? "";
    await expect(gateway.mcp.finishSignIn({ state, error: "access_denied" })).rejects.toThrow(
      'The MCP server "guarded" did not sign you in: access_denied.',
    );
  });
});
