// The OAuth client of one MCP server, for the SDK's auth(): authorization code with PKCE, the client registered
// dynamically or pre-registered (Settings → Tools' Client ID and secret), tokens refreshed by the SDK on a 401, and
// the scope the server names in WWW-Authenticate asked for by the next sign-in (a 403 insufficient_scope asks for a
// wider one: a step-up, never twice for a scope already granted; oauth-scopes.ts). Everything it keeps goes to a
// store the Gateway gives it (the `secrets` store). The worker cannot navigate, so "redirect to the authorization
// page" only keeps the URL: the page opens it when the user clicks "Sign in", and Fawn's oauth-callback.html hands
// the code back. docs/architecture.md#d7-mcp
import { auth, type OAuthClientProvider, type OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpSignInStart } from "../protocol/index.ts";
import {
  covers,
  joinScopes,
  MCP_SCOPE_STEP_UP_LIMIT,
  type McpOAuthScopes,
  type McpScopeChallenge,
} from "./oauth-scopes.ts";

/** The parts of a server's sign-in the store keeps, one record each. */
export type McpOAuthPart = "client" | "tokens" | "verifier" | "state" | "discovery" | "scope";

/** A client registered with the server's authorization server beforehand (Settings → Tools' Client ID and secret). */
export interface McpPreRegisteredClient {
  clientId: string;
  clientSecret?: string;
}

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
    private readonly preRegistered?: McpPreRegisteredClient,
  ) {}

  private async scopes(): Promise<McpOAuthScopes> {
    const stored = await this.store.get("scope");
    return stored && typeof stored === "object" ? (stored as McpOAuthScopes) : {};
  }

  private async updateScopes(change: (scopes: McpOAuthScopes) => McpOAuthScopes): Promise<void> {
    await this.store.set("scope", change(await this.scopes()));
  }

  /** The scope the next sign-in asks for, if a server named one (undefined: the SDK's choice, scopes_supported). */
  async nextScope(): Promise<string | undefined> {
    const scopes = await this.scopes();
    return scopes.next && joinScopes(scopes.granted, scopes.next);
  }

  /** A 401 naming a scope: the next sign-in asks for it (with what was granted before). */
  async scopeNamed(scope: string): Promise<void> {
    await this.updateScopes((scopes) => ({ ...scopes, next: joinScopes(scopes.next, scope) }));
  }

  /**
   * A 403 insufficient_scope naming `scope`: a step-up (the next sign-in asks for it with what was granted), or a
   * refusal when the tokens were granted that scope already or after MCP_SCOPE_STEP_UP_LIMIT step-ups in a row.
   */
  async scopeChallenge(scope: string): Promise<McpScopeChallenge> {
    const scopes = await this.scopes();
    const wider = joinScopes(scopes.granted, scopes.next, scope) ?? "";
    if (scopes.granted !== undefined && covers(scopes.granted, scope))
      return { signIn: false, scope, reason: "granted" };
    if ((scopes.stepUps ?? 0) >= MCP_SCOPE_STEP_UP_LIMIT) return { signIn: false, scope: wider, reason: "limit" };
    await this.store.set("scope", { ...scopes, next: wider, stepUps: (scopes.stepUps ?? 0) + 1 });
    return { signIn: true, scope: wider };
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Fawn",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.preRegistered?.clientSecret ? "client_secret_basic" : "none",
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

  /** The pre-registered client when Settings → Tools has one for the server, else the one registered dynamically. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.preRegistered) {
      const { clientId, clientSecret } = this.preRegistered;
      return { client_id: clientId, ...(clientSecret && { client_secret: clientSecret }) };
    }
    return (await this.store.get("client")) as OAuthClientInformationMixed | undefined;
  }

  /** Keeps a dynamic registration; a pre-registered client is the user's, from Settings → Tools, and stays there. */
  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (!this.preRegistered) await this.store.set("client", information);
  }

  /** The stored tokens; a sign-in that must ask for a wider scope (a step-up) does not refresh them. */
  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.store.get("tokens")) as OAuthTokens | undefined;
    if (this.signingIn && tokens) {
      const scopes = await this.scopes();
      if (scopes.next && !covers(scopes.granted, scopes.next)) return undefined;
    }
    return tokens;
  }

  /** Saves tokens with the scope they were granted: the token response's, else what their sign-in asked for. */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.set("tokens", tokens);
    if (!this.signingIn) {
      if (tokens.scope) await this.updateScopes((scopes) => ({ ...scopes, granted: tokens.scope }));
      return;
    }
    await this.updateScopes(({ asking, stepUps }) => {
      const granted = tokens.scope ?? asking;
      return { ...(granted && { granted }), ...(stepUps && { stepUps }) };
    });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  /** Remembers what the sign-in under way asks for, which its tokens are then taken to be granted. */
  async rememberAsking(authorizationUrl: URL): Promise<void> {
    const asking = authorizationUrl.searchParams.get("scope") ?? undefined;
    await this.updateScopes(({ asking: _asking, ...scopes }) => ({ ...scopes, ...(asking && { asking }) }));
  }

  /** A sign-in that is not a step-up (nothing granted yet, or nothing more to ask for) counts step-ups afresh. */
  async startStepUpCount(): Promise<void> {
    const scopes = await this.scopes();
    if (scopes.stepUps && (!scopes.granted || !scopes.next || covers(scopes.granted, scopes.next))) {
      await this.updateScopes(({ stepUps: _stepUps, ...rest }) => rest);
    }
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
    const parts: McpOAuthPart[] =
      scope === "all" ? ["client", "tokens", "verifier", "state", "discovery", "scope"] : [scope];
    await this.store.delete(parts);
  }
}

/**
 * Starts a server's sign-in: discovery, registration (unless pre-registered) and PKCE through the SDK's auth(),
 * asking for the scope the server named (in a 401's or 403's WWW-Authenticate), else the SDK's choice. Resolves with
 * the authorization URL to open, or `signedIn` when stored tokens did (after a refresh, say).
 */
export async function beginMcpSignIn(
  provider: McpOAuthProvider,
  serverUrl: string,
  fetchFn?: FetchLike,
): Promise<McpSignInStart> {
  await provider.startStepUpCount();
  const scope = await provider.nextScope();
  const result = await auth(provider, { serverUrl, ...(scope && { scope }), ...(fetchFn && { fetchFn }) });
  if (result === "AUTHORIZED" || !provider.authorizationUrl) return { signedIn: true };
  await provider.rememberAsking(provider.authorizationUrl);
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
