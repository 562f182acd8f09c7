// "Sign in" for an MCP server that wants OAuth, on the page's side: the window opens in the click (a pop-up opened
// later, after the Gateway answered, would be blocked), shows the authorization page once the Gateway gave it, and
// oauth-callback.html brings the answer back on the `fawn-oauth` BroadcastChannel (Fawn's COOP cuts window.opener).
import {
  MCP_OAUTH_CHANNEL,
  type GatewayApi,
  type McpServerEntry,
  type McpSignInAnswer,
} from "../../../protocol/index.ts";

export type SignInClient = { mcp: Pick<GatewayApi["mcp"], "beginSignIn" | "finishSignIn"> };

/** How a sign-in ended: signed in, or the sentence why not. */
export type SignInOutcome = { ok: true } | { ok: false; error: string; popupBlocked?: boolean };

/** The callback page's answer for `state`, whenever it comes (a later sign-in of the same server replaces it). */
function answerFor(state: string, signal: AbortSignal): Promise<McpSignInAnswer | undefined> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL);
    const done = (answer: McpSignInAnswer | undefined) => {
      channel.close();
      resolve(answer);
    };
    signal.addEventListener("abort", () => done(undefined), { once: true });
    channel.onmessage = (event: MessageEvent<McpSignInAnswer>) => {
      if (event.data.state === state) done(event.data);
    };
  });
}

/**
 * Signs in to `server`: call it in the click. Resolves once the Gateway exchanged the code (or found the stored
 * tokens still good), or with the sentence why not; resolves undefined when `signal` aborted it first.
 */
export async function signInToMcpServer(
  client: SignInClient,
  server: McpServerEntry,
  signal: AbortSignal,
): Promise<SignInOutcome | undefined> {
  const popup = window.open("about:blank", "fawn-oauth", "popup,width=520,height=720");
  try {
    const start = await client.mcp.beginSignIn(server);
    if (start.signedIn) {
      popup?.close();
      return { ok: true };
    }
    if (!popup) return { ok: false, error: "", popupBlocked: true };
    // The pop-up is still Fawn's own about:blank: only an http(s) page may replace it (a javascript: URL from a
    // hostile server's metadata would run in Fawn's origin).
    const authorization = new URL(start.authorizationUrl);
    if (authorization.protocol !== "https:" && authorization.protocol !== "http:") {
      popup.close();
      return { ok: false, error: `The sign-in page's address is not a web page (${authorization.protocol}).` };
    }
    const state = authorization.searchParams.get("state") ?? "";
    const answer = answerFor(state, signal);
    popup.location.href = start.authorizationUrl;
    const got = await answer;
    if (!got) return undefined;
    await client.mcp.finishSignIn(got);
    return { ok: true };
  } catch (error) {
    popup?.close();
    throw error;
  }
}
