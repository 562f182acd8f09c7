// Entry point of oauth-callback.html, where an MCP server's authorization server sends the user back after "Sign in":
// posts `{state, code}` (or `{state, error}`) on the `fawn-oauth` BroadcastChannel, where the tab that began the
// sign-in finishes it through the Gateway, then closes this window (a popup) or leaves a link back to Fawn.
import { MCP_OAUTH_CHANNEL, type McpSignInAnswer } from "../protocol/mcp.ts";

const params = new URLSearchParams(location.search);
const state = params.get("state") ?? "";
const code = params.get("code");
const error = params.get("error");
const description = params.get("error_description");
const answer: McpSignInAnswer = code
  ? { state, code }
  : { state, error: [error ?? "no code came back", description].filter(Boolean).join(": ") };

const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL);
channel.postMessage(answer);
channel.close();
// The code is used once, by the tab that asked: it need not stay in this window's address or history.
history.replaceState(null, "", location.pathname);

const status = document.getElementById("status");
if (status) {
  status.textContent = code
    ? "Signed in: Fawn is finishing. You can close this window."
    : `The sign-in did not complete (${answer.error ?? ""}). You can close this window.`;
}
document.getElementById("back")?.setAttribute("href", import.meta.env.BASE_URL);
window.close();
