// The MCP layer's facade: one connection per enabled server, made on first use and kept while its settings stay the
// same; the agent tools of every enabled server (a server that cannot be reached is reported and skipped, never
// breaking the run); "Test connection" for Settings → Tools.
import type { DynamicStructuredTool } from "@langchain/core/tools";
import type { McpServerConfig, McpServerSecrets, McpSignInStart, McpToolInfo } from "../protocol/index.ts";
import {
  McpConnection,
  proxiedFetch,
  tokenFetch,
  type FetchLike,
  type McpConnectionOptions,
  type McpTransportKind,
} from "./connection.ts";
import { describeMcpError, McpClientError, signInFailed, type McpFailureKind } from "./errors.ts";
import { beginMcpSignIn, finishMcpSignIn, McpOAuthProvider, type McpOAuthStore } from "./oauth-provider.ts";
import {
  createServersMcpTools,
  type McpToolCaller,
  type McpToolsOptions,
  type RenamedMcpTool,
  type SkippedMcpTool,
} from "./tools.ts";

/** A server that gave no tools this time, and the sentence why. */
export interface McpServerFailure {
  server: string;
  kind: McpFailureKind;
  message: string;
}

export interface McpRegistryTools {
  tools: DynamicStructuredTool[];
  /** Tools left out for their names (disabled ones are not listed). */
  skipped: SkippedMcpTool[];
  /** Tools whose `<server>_<tool>` is a built-in tool's or another server's tool's name, and their new names. */
  renamed: RenamedMcpTool[];
  failures: McpServerFailure[];
}

/** "Test connection": the server's tools, or the sentence why there are none. */
export type McpTestResult =
  | { ok: true; tools: McpToolInfo[]; transport: McpTransportKind | undefined }
  | { ok: false; kind: McpFailureKind; message: string };

export type McpSecretsOf = (server: string) => McpServerSecrets | undefined | Promise<McpServerSecrets | undefined>;

/** Everything a connection depends on: when it changes, the connection is remade. */
function fingerprint(
  config: McpServerConfig,
  secrets: McpServerSecrets | undefined,
  { proxyUrl, proxyToken }: Pick<McpConnectionOptions, "proxyUrl" | "proxyToken">,
) {
  return JSON.stringify([
    config.url,
    config.useProxy ? proxyUrl : null,
    proxyToken ?? "",
    config.headers ?? {},
    secrets?.bearerToken ?? "",
    config.oauthClientId ?? "",
    secrets?.oauthClientSecret ?? "",
  ]);
}

interface Entry {
  connection: McpConnection;
  fingerprint: string;
}

/** Where servers' OAuth sign-ins keep their records, and the address of Fawn's callback page. */
export interface McpOAuthOptions {
  store: (config: McpServerConfig) => McpOAuthStore;
  redirectUrl: string;
}

export interface McpRegistryOptions extends Omit<McpConnectionOptions, "oauth"> {
  /** Without it, a server that wants OAuth fails with its 401 sentence. */
  oauth?: McpOAuthOptions;
}

export class McpRegistry {
  private readonly entries = new Map<string, Entry>();
  private options: McpConnectionOptions;
  private readonly oauth: McpOAuthOptions | undefined;

  /** `proxyUrl`: Fawn's proxy, for servers with `useProxy`. */
  constructor({ oauth, ...options }: McpRegistryOptions = {}) {
    this.oauth = oauth;
    this.options = { ...options, ...(oauth && { oauth: (config, secrets) => this.provider(config, secrets) }) };
  }

  /** The server's OAuth client: the pre-registered one when Settings → Tools names a client ID, else registered. */
  private provider(config: McpServerConfig, secrets: McpServerSecrets, signingIn = false): McpOAuthProvider {
    if (!this.oauth) throw new Error("OAuth sign-in is not set up.");
    const clientId = config.oauthClientId?.trim();
    const clientSecret = secrets.oauthClientSecret?.trim();
    const preRegistered = clientId ? { clientId, ...(clientSecret && { clientSecret }) } : undefined;
    return new McpOAuthProvider(this.oauth.store(config), this.oauth.redirectUrl, signingIn, preRegistered);
  }

  /** The fetch a sign-in uses for the server: through the proxy when the server's connections go through it. */
  private fetchFor(config: McpServerConfig): FetchLike | undefined {
    const base = tokenFetch(this.options, this.options.fetch ?? ((url, init) => fetch(url, init)));
    if (!config.useProxy || !this.options.proxyUrl) return base;
    return proxiedFetch(this.options.proxyUrl, base);
  }

  /** Begins the server's OAuth sign-in: the authorization page to open, or `signedIn` when its tokens work. */
  async beginSignIn(config: McpServerConfig & McpServerSecrets): Promise<McpSignInStart> {
    try {
      return await beginMcpSignIn(this.provider(config, config, true), config.url, this.fetchFor(config));
    } catch (error) {
      throw this.signInError(config, error);
    }
  }

  /** Exchanges the code the authorization server sent back for tokens; the server's next use connects with them. */
  async finishSignIn(
    config: McpServerConfig & McpServerSecrets,
    answer: { state: string; code: string },
  ): Promise<void> {
    try {
      await finishMcpSignIn(this.provider(config, config, true), config.url, answer, this.fetchFor(config));
    } catch (error) {
      throw this.signInError(config, error);
    }
    await this.forget(config.name);
  }

  private signInError(config: McpServerConfig, error: unknown): McpClientError {
    if (error instanceof McpClientError) return error;
    const context = {
      server: config.name,
      url: config.url,
      viaProxy: Boolean(config.useProxy && this.options.proxyUrl),
    };
    if (error instanceof TypeError) return describeMcpError(error, context);
    return signInFailed(context, error instanceof Error ? error.message : String(error));
  }

  /**
   * A new proxy URL or token (Settings → Web): connections through the old proxy are closed, and with a new token
   * every connection is (the token goes to the proxy's bridge too, which servers name by its URL).
   */
  async setProxyUrl(proxyUrl: string | undefined, proxyToken?: string): Promise<void> {
    const tokenChanged = (proxyToken || undefined) !== (this.options.proxyToken || undefined);
    if (proxyUrl === this.options.proxyUrl && !tokenChanged) return;
    this.options = { ...this.options, proxyUrl, proxyToken: proxyToken || undefined };
    await Promise.all(
      [...this.entries.values()]
        .filter((entry) => tokenChanged || entry.connection.config.useProxy)
        .map((entry) => this.forget(entry.connection.name)),
    );
  }

  /** The server's connection (not yet connected when new); one whose settings changed is closed and replaced. */
  connection(config: McpServerConfig, secrets?: McpServerSecrets): McpConnection {
    const print = fingerprint(config, secrets, this.options);
    const entry = this.entries.get(config.name);
    if (entry?.fingerprint === print) {
      entry.connection.update(config);
      return entry.connection;
    }
    if (entry) void entry.connection.close();
    const connection = new McpConnection(config, secrets, {
      ...this.options,
      // The transport that worked keeps working when only a header or the token changed.
      ...(entry?.connection.transportKind &&
        entry.connection.config.url === config.url && {
          transport: entry.connection.transportKind,
        }),
    });
    this.entries.set(config.name, { connection, fingerprint: print });
    return connection;
  }

  /**
   * The agent tools of every enabled server in `configs`, listed from all of them at once and named together (a
   * built-in tool keeps its name; of two servers' tools that come out alike, the server whose name sorts first keeps
   * it).
   */
  async tools(
    configs: readonly McpServerConfig[],
    secretsOf: McpSecretsOf,
    options: McpToolsOptions = {},
  ): Promise<McpRegistryTools> {
    const enabled = configs.filter((config) => config.enabled);
    const found = await Promise.all(
      enabled.map(async (config) => {
        try {
          const connection = this.connection(config, await secretsOf(config.name));
          return { ok: true as const, caller: connection as McpToolCaller, tools: await connection.listTools() };
        } catch (error) {
          const failure = describeMcpError(error, {
            server: config.name,
            url: config.url,
            viaProxy: Boolean(config.useProxy && this.options.proxyUrl),
          });
          return { ok: false as const, failure: { server: config.name, kind: failure.kind, message: failure.message } };
        }
      }),
    );
    const made = createServersMcpTools(
      found.flatMap((item) => (item.ok ? [{ caller: item.caller, tools: item.tools }] : [])),
      options,
    );
    return { ...made, failures: found.flatMap((item) => (item.ok ? [] : [item.failure])) };
  }

  /** Connects to `config` afresh (saved or not), lists its tools and closes again. */
  async test(config: McpServerConfig, secrets?: McpServerSecrets): Promise<McpTestResult> {
    const connection = new McpConnection(config, secrets, this.options);
    try {
      const tools = await connection.listTools();
      return { ok: true, tools, transport: connection.transportKind };
    } catch (error) {
      const failure = describeMcpError(error, {
        server: config.name,
        url: config.url,
        viaProxy: Boolean(config.useProxy && this.options.proxyUrl),
      });
      return { ok: false, kind: failure.kind, message: failure.message };
    } finally {
      await connection.close();
    }
  }

  /** Closes and drops a server's connection (removed, disabled or renamed). */
  async forget(name: string): Promise<void> {
    const entry = this.entries.get(name);
    this.entries.delete(name);
    await entry?.connection.close();
  }

  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => entry.connection.close()));
  }
}
