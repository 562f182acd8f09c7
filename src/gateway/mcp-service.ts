// Settings → Tools as a service: the MCP servers the user lists (checked, then stored with their secrets apart),
// "Test connection", OAuth sign-in and sign-out, and DeerFlow's `mcpServers` file in and out. Runs read the enabled
// servers from here.
import {
  type ChangeNotice,
  type McpConfigImport,
  type McpConnectionTest,
  type McpServerEntry,
  type McpServerSecrets,
  type McpSignInAnswer,
  type McpSignInStart,
  usesMcpOAuth,
  type McpApi,
} from "../protocol/index.ts";
import type { McpRunTools } from "../agent/index.ts";
import type { McpProgress, McpRegistry } from "../mcp/index.ts";
import { stepUpPending, type McpOAuthScopes } from "../mcp/oauth-scopes.ts";
import { shouldDeferTools, toolCatalog } from "../mcp/tool-search.ts";
import { UserError } from "../shared/user-error.ts";
import type { FawnStorage, McpOAuthStorage, McpServerStorage } from "../storage/index.ts";
import { parseMcpServers, readDeerFlowMcpConfig, toDeerFlowMcpConfig, withoutMcpSecrets } from "./mcp-config.ts";
import { writing } from "./writes.ts";

/** DeerFlow's file name for the configuration that holds `mcpServers`. */
export const MCP_CONFIG_FILE_NAME = "extensions_config.json";

/** The MCP layer as this service uses it (McpRegistry; tests may pass their own). */
export type McpConnections = Pick<
  McpRegistry,
  "test" | "tools" | "forget" | "setProxyUrl" | "beginSignIn" | "finishSignIn"
>;

export interface McpServiceOptions {
  notify: (notice: ChangeNotice) => void;
  /** The connections to the servers. */
  connections?: McpConnections;
  /** Fawn's proxy URL as Settings → Web has it, for servers with "Use the proxy". */
  proxyUrl: () => Promise<string | undefined>;
  /** The proxy's token (Settings → Web), sent only to the proxy's origin. */
  proxyToken?: () => Promise<string | undefined>;
  /** Fawn's oauth-callback.html, where authorization servers send the user back. */
  oauthRedirectUrl: string;
  /** The fetch under every connection and sign-in (the server's guarded one); default the global fetch. */
  fetch?: typeof fetch;
}

/** A server's secrets the connection sends (its header values travel with its settings). */
function secretsOf(server: McpServerEntry): McpServerSecrets {
  return {
    ...(server.bearerToken && { bearerToken: server.bearerToken }),
    ...(server.oauthClientSecret && { oauthClientSecret: server.oauthClientSecret }),
  };
}

export class McpService implements McpApi {
  private readonly store: McpServerStorage;
  private readonly oauth: McpOAuthStorage;
  private connectionsLoaded: Promise<McpConnections> | undefined;
  /** Sign-ins this tab began, by their state: the server they are for. */
  private readonly pendingSignIns = new Map<string, McpServerEntry>();

  constructor(
    storage: Pick<FawnStorage, "mcpServers" | "mcpOAuth">,
    private readonly options: McpServiceOptions,
  ) {
    this.store = storage.mcpServers;
    this.oauth = storage.mcpOAuth;
    if (options.connections) this.connectionsLoaded = Promise.resolve(options.connections);
  }

  /** The MCP client (the SDK) loads the first time a server is used: a user without one never downloads it. */
  private connections(): Promise<McpConnections> {
    this.connectionsLoaded ??= import("../mcp/registry.ts").then(
      ({ McpRegistry }) =>
        new McpRegistry({
          ...(this.options.fetch && { fetch: this.options.fetch }),
          oauth: {
            redirectUrl: this.options.oauthRedirectUrl,
            store: ({ name, url }) => ({
              get: (part) => this.oauth.get(name, url, part),
              set: (part, value) => this.oauth.set(name, url, part, value),
              delete: (parts) => this.oauth.delete(name, parts),
            }),
          },
        }),
    );
    return this.connectionsLoaded;
  }

  list(): Promise<McpServerEntry[]> {
    return this.store.list();
  }

  /** The servers a run may use. */
  async enabled(): Promise<McpServerEntry[]> {
    return (await this.store.list()).filter((server) => server.enabled);
  }

  /** Stores the list in place of the one there was; a bad entry is refused with a sentence and nothing changes. */
  async save(servers: unknown): Promise<McpServerEntry[]> {
    const parsed = parseMcpServers(servers);
    if (!parsed.ok) throw new UserError(parsed.message);
    const before = await this.store.list();
    await writing(() => this.store.replaceAll(parsed.value));
    const saved = await this.store.list();
    // Connections to servers that left are closed; the others are remade when their settings changed. A server that
    // left or moved to another URL forgets its sign-in.
    for (const server of before) {
      const kept = saved.find((entry) => entry.name === server.name);
      if (!kept) await this.connectionsLoaded?.then((all) => all.forget(server.name));
      // Tokens and a registration belong to the client that got them: another client ID signs in afresh.
      if (kept?.url !== server.url || kept.oauthClientId !== server.oauthClientId) await this.oauth.forget(server.name);
    }
    this.options.notify({ type: "settings-changed" });
    return saved;
  }

  /** "Test connection": the server's tools, or the sentence saying why it could not be reached. */
  async test(server: unknown): Promise<McpConnectionTest> {
    const parsed = parseMcpServers([server]);
    if (!parsed.ok) return { ok: false, error: parsed.message };
    const [entry] = parsed.value as [McpServerEntry];
    const connections = await this.connections();
    await connections.setProxyUrl(await this.options.proxyUrl(), await this.options.proxyToken?.());
    const answer = await connections.test(entry, secretsOf(entry));
    if (answer.ok) return { ok: true, tools: answer.tools, ...((await this.stepUpPending(entry)) && { signIn: true }) };
    return {
      ok: false,
      error: answer.message,
      ...(answer.kind === "sign-in" && usesMcpOAuth(entry, entry) && { signIn: true }),
    };
  }

  /** True when the server asked for more access than its sign-in was granted (a step-up sign-in is needed). */
  private async stepUpPending(server: McpServerEntry): Promise<boolean> {
    return stepUpPending((await this.oauth.get(server.name, server.url, "scope")) as McpOAuthScopes | undefined);
  }

  /**
   * The stored servers that are signed in with OAuth (tokens kept for their URL), but those that asked for more
   * access since: Settings → Tools offers them "Sign in" again once tested.
   */
  async signedIn(): Promise<string[]> {
    const servers = await this.store.list();
    const signedIn = await this.oauth.signedIn(servers);
    const pending = await Promise.all(
      servers.map(async (server) => signedIn.includes(server.name) && (await this.stepUpPending(server))),
    );
    return signedIn.filter((name) => !pending[servers.findIndex((server) => server.name === name)]);
  }

  /**
   * "Sign in": the server's authorization page to open (the callback comes back through finishSignIn), or
   * `signedIn` when its stored tokens still work.
   */
  async beginSignIn(server: unknown): Promise<McpSignInStart> {
    const parsed = parseMcpServers([server]);
    if (!parsed.ok) throw new UserError(parsed.message);
    const [entry] = parsed.value as [McpServerEntry];
    const connections = await this.connections();
    await connections.setProxyUrl(await this.options.proxyUrl(), await this.options.proxyToken?.());
    const start = await connections.beginSignIn(entry);
    if (!start.signedIn) {
      const state = new URL(start.authorizationUrl).searchParams.get("state");
      if (state) this.pendingSignIns.set(state, entry);
    }
    return start;
  }

  /** The callback page's answer: the code is exchanged for tokens of the server whose sign-in sent that state. */
  async finishSignIn(answer: McpSignInAnswer): Promise<{ server: string }> {
    const entry = this.pendingSignIns.get(answer.state);
    if (!entry) throw new UserError("This sign-in was not started here, or it already finished: press Sign in again.");
    this.pendingSignIns.delete(answer.state);
    if (answer.error || !answer.code) {
      throw new UserError(
        `The MCP server "${entry.name}" did not sign you in: ${answer.error ?? "no code came back"}.`,
      );
    }
    const connections = await this.connections();
    await connections.finishSignIn(entry, { state: answer.state, code: answer.code });
    this.options.notify({ type: "settings-changed" });
    return { server: entry.name };
  }

  /** "Sign out": the server's tokens and registration are forgotten, and its connection closed. */
  async signOut(name: string): Promise<void> {
    await this.oauth.forget(name);
    await this.connectionsLoaded?.then((all) => all.forget(name));
    this.options.notify({ type: "settings-changed" });
  }

  /**
   * What a run has of the enabled servers: their tools (progress of a call goes to `onProgress`), the servers named
   * in the prompt, those that could not be reached with their sentence, and tool_search's catalog when the tools are
   * many. Undefined when no server is enabled.
   */
  async runTools(onProgress: (toolCallId: string, progress: McpProgress) => void): Promise<McpRunTools | undefined> {
    const servers = await this.enabled();
    if (servers.length === 0) return undefined;
    const connections = await this.connections();
    await connections.setProxyUrl(await this.options.proxyUrl(), await this.options.proxyToken?.());
    const byName = new Map(servers.map((server) => [server.name, server]));
    const found = await connections.tools(
      servers,
      (name) => {
        const server = byName.get(name);
        return server && secretsOf(server);
      },
      { onProgress },
    );
    const down = new Set(found.failures.map((failure) => failure.server));
    return {
      tools: found.tools,
      servers: servers
        .filter((server) => !down.has(server.name))
        .map((server) => ({ name: server.name, description: server.description })),
      unavailable: found.failures.map((failure) => failure.message),
      ...(shouldDeferTools(found.tools.length) && { catalog: await toolCatalog(found.tools) }),
    };
  }

  /** Reads a DeerFlow `extensions_config.json` (or its `mcpServers`) for the form; nothing is stored. */
  async importConfig(text: string): Promise<McpConfigImport> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UserError("This file is not JSON: choose DeerFlow's extensions_config.json or an mcpServers file.");
    }
    try {
      return readDeerFlowMcpConfig(json);
    } catch (error) {
      throw new UserError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The servers as DeerFlow's `mcpServers` file, without a secret. */
  async exportConfig(): Promise<{ file_name: string; blob: Blob }> {
    const servers = (await this.store.list()).map(withoutMcpSecrets);
    const json = `${JSON.stringify(toDeerFlowMcpConfig(servers), null, 2)}\n`;
    return { file_name: MCP_CONFIG_FILE_NAME, blob: new Blob([json], { type: "application/json" }) };
  }
}
