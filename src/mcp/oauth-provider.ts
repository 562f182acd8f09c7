// The OAuth client of one MCP server, for the SDK's auth(): authorization code with PKCE, the client registered
// dynamically, tokens refreshed by the SDK on a 401. Everything it keeps goes to a store the Gateway gives it (the
// `secrets` store). The worker cannot navigate, so "redirect to the authorization page" only keeps the URL: the page
// opens it when the user clicks "Sign in", and Fawn's oauth-callback.html hands the code back. docs/architecture.md#d7-mcp
import { auth, type OAuthClientProvider, type OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpSignInStart } from "../protocol/index.ts";

/** The parts of a server's sign-in the store keeps, one record each. */
export type McpOAuthPart = "client" | "tokens" | "verifier" | "state" | "discovery";

/** One server's sign-in records (the Gateway binds it to the server's name and URL). */
export interface McpOAuthStore {
  get(part: McpOAuthPart): Promise<unknown>;
  set(part: McpOAuthPart, value: unknown): Promise<void>;
  delete(parts: readonly McpOAuthPart[]): Promise<void>;
}

/** A random 128-bit value, hex. */
function randomState(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class McpOAuthProvider implements OAuthClientProvider {
  /** Where the SDK last wanted to send the user: the page's "Sign in" opens it. */
  authorizationUrl: URL | undefined;

  /**
   * @param redirectUrl Fawn's oauth-callback.html at the app's origin and base path.
   * @param signingIn True for "Sign in" itself. A connection's provider (a run, Test connection) keeps no state or
   *   verifier of its own: its authorization URL is never opened, and must not replace those of a sign-in under way.
   */
  constructor(
    private readonly store: McpOAuthStore,
    readonly redirectUrl: string,
    private readonly signingIn = false,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Fawn",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  async state(): Promise<string> {
    const state = randomState();
    if (this.signingIn) await this.store.set("state", state);
    return state;
  }

  /** The state of the sign-in under way, which the callback's must equal. */
  async expectedState(): Promise<string | undefined> {
    const state = await this.store.get("state");
    return typeof state === "string" ? state : undefined;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.store.get("client")) as OAuthClientInformationMixed | undefined;
  }

  saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    return this.store.set("client", information);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.store.get("tokens")) as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    return this.store.set("tokens", tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.signingIn) await this.store.set("verifier", codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.store.get("verifier");
    if (typeof verifier !== "string") throw new Error("No sign-in is under way for this server: press Sign in again.");
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.store.set("discovery", state);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.get("discovery")) as OAuthDiscoveryState | undefined;
  }

  /** Forgets the verifier and state of a sign-in that finished. */
  forgetPending(): Promise<void> {
    return this.store.delete(["verifier", "state"]);
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const parts: McpOAuthPart[] = scope === "all" ? ["client", "tokens", "verifier", "state", "discovery"] : [scope];
    await this.store.delete(parts);
  }
}

/**
 * Starts a server's sign-in: discovery, registration and PKCE through the SDK's auth(). Resolves with the
 * authorization URL to open, or `signedIn` when stored tokens did (after a refresh, say).
 */
export async function beginMcpSignIn(
  provider: McpOAuthProvider,
  serverUrl: string,
  fetchFn?: FetchLike,
): Promise<McpSignInStart> {
  const result = await auth(provider, { serverUrl, ...(fetchFn && { fetchFn }) });
  if (result === "AUTHORIZED" || !provider.authorizationUrl) return { signedIn: true };
  return { signedIn: false, authorizationUrl: provider.authorizationUrl.href };
}

/**
 * Finishes a sign-in with the code the authorization server sent back: `state` must be the one this sign-in sent.
 * The tokens are saved; the verifier and state are forgotten.
 */
export async function finishMcpSignIn(
  provider: McpOAuthProvider,
  serverUrl: string,
  answer: { state: string; code: string },
  fetchFn?: FetchLike,
): Promise<void> {
  const expected = await provider.expectedState();
  if (!expected || expected !== answer.state) {
    throw new Error("This sign-in answer is not the one Fawn asked for (its state does not match): sign in again.");
  }
  const result = await auth(provider, { serverUrl, authorizationCode: answer.code, ...(fetchFn && { fetchFn }) });
  if (result !== "AUTHORIZED") throw new Error("The authorization server did not sign you in: sign in again.");
  await provider.forgetPending();
}
