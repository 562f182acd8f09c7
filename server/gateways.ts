// Each user's Gateway on the server: the same Gateway the browser's agent worker builds (src/gateway), over that
// user's storage in the server's database, with a sandbox per thread that lives in the server process and never
// touches the host's shell or files. Opened on a user's first request, then kept for the life of the process; the
// configuration's models, web tools and MCP servers are written into the user's settings when it opens, through the
// Gateway's own settings services (so they are checked as Settings checks them). Every request a Gateway sends out
// goes through one guarded fetch (server/outbound.ts): public hosts, the configured models and `outbound.allow` only.
import { createGateway, createGatewayFetch, type Gateway, type GatewayOptions } from "../src/gateway/index.ts";
import { createChatModel, type ChatModelFactory } from "../src/models/index.ts";
import { providerOf } from "../src/protocol/index.ts";
import { memoryStorage } from "../src/storage/index.ts";
import { ConfigError, type ServerConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import { userStorage } from "./db/user-storage.ts";
import { allowEntryOf, outboundFetch, OutboundPolicy, type OutboundFetch } from "./outbound.ts";
import { ServerSandboxes, type ServerSandboxProvider } from "./sandbox/index.ts";

export interface UserGatewaysOptions {
  db: Database;
  /** The models, web tools and MCP servers every user gets. */
  config: Pick<ServerConfig, "models" | "webTools" | "mcpServers"> & Partial<Pick<ServerConfig, "outboundAllow">>;
  /** Where sign-in pages send MCP OAuth answers back; the server's own URL. */
  publicUrl?: string;
  /** Where threads' sandboxes come from; by default the built-in one (server/sandbox), closed with the Gateways. */
  sandboxes?: ServerSandboxProvider;
  /** Overrides for tests (a model factory, shorter retries). */
  gatewayOptions?: GatewayOptions;
}

interface UserEntry {
  gateway: Gateway;
  /** The in-browser routes (DeerFlow's REST and LangGraph's API as the service worker answers them) over it. */
  fetch: (request: Request) => Promise<Response>;
}

/** Opens and keeps every user's Gateway in this process. */
export class UserGateways {
  readonly #entries = new Map<string, Promise<UserEntry>>();
  readonly #sandboxes: ServerSandboxProvider;
  /** Every Gateway's outbound requests: the configured models' host:port and `outbound.allow` may be private. */
  readonly #fetch: OutboundFetch;
  readonly #createModel: ChatModelFactory;
  #closed = false;

  constructor(private readonly options: UserGatewaysOptions) {
    this.#sandboxes = options.sandboxes ?? new ServerSandboxes();
    const models = options.config.models?.endpoints.map((endpoint) => allowEntryOf(endpoint.baseUrl)) ?? [];
    const policy = new OutboundPolicy({
      allow: [...models.filter((entry) => entry !== undefined), ...(options.config.outboundAllow ?? [])],
    });
    this.#fetch = outboundFetch(policy);
    const fetch = this.#fetch;
    this.#createModel = async (target, modelOptions) => {
      // Gemini's SDK takes no fetch: its base URL is checked here, before it is used (at DNS time, not connect time).
      if (providerOf(target) === "gemini") {
        const url = new URL(target.baseUrl || "https://generativelanguage.googleapis.com");
        await policy.connectAddress(
          url.hostname,
          url.port === "" ? (url.protocol === "http:" ? 80 : 443) : Number(url.port),
        );
      }
      return createChatModel(target, { ...modelOptions, fetch });
    };
  }

  /** The Gateway of the user who owns `owner`'s data (opened and configured on first use). */
  async forUser(owner: string): Promise<Gateway> {
    return (await this.#entry(owner)).gateway;
  }

  /** The in-browser routes over that user's Gateway, taking `/api/…` paths. */
  async fetchFor(owner: string): Promise<(request: Request) => Promise<Response>> {
    return (await this.#entry(owner)).fetch;
  }

  /**
   * Writes the configuration into a throwaway Gateway's settings, so a model, web tool or MCP server its services
   * refuse stops the server at start (a ConfigError with their sentence) rather than failing every user's requests.
   */
  async checkConfig(): Promise<void> {
    const gateway = createGateway(memoryStorage(), {
      notify: () => undefined,
      oauthRedirectUrl: "http://127.0.0.1/",
      fetch: this.#fetch,
    });
    try {
      await this.#configure(gateway);
    } catch (error) {
      throw new ConfigError(`The configuration's settings were refused: ${(error as Error).message}`);
    }
  }

  /** Closes every open sandbox and the provider's interpreters; the Gateways are then dropped. */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(entries.map(async (entry) => (await entry).gateway.sandbox.closeAll()));
    if (!this.options.sandboxes) await this.#sandboxes.close();
    await this.#fetch.close();
  }

  #entry(owner: string): Promise<UserEntry> {
    if (this.#closed) return Promise.reject(new Error("The server is shutting down."));
    let entry = this.#entries.get(owner);
    if (!entry) {
      entry = this.#open(owner);
      this.#entries.set(owner, entry);
      // A failed open (the database was down) is tried again on the next request rather than kept.
      entry.catch(() => this.#entries.delete(owner));
    }
    return entry;
  }

  async #open(owner: string): Promise<UserEntry> {
    const gateway = createGateway(userStorage(this.options.db, owner), {
      openSandbox: this.#sandboxes.open,
      // No tabs to tell: change notices are for the browser's other tabs.
      notify: () => undefined,
      oauthRedirectUrl: new URL("/oauth-callback.html", this.options.publicUrl ?? "http://127.0.0.1/").href,
      fetch: this.#fetch,
      createModel: this.#createModel,
      ...this.options.gatewayOptions,
    });
    await this.#configure(gateway);
    return { gateway, fetch: createGatewayFetch(gateway) };
  }

  /** The configuration's settings, written through the Gateway's own services (each validates what it saves). */
  async #configure(gateway: Gateway): Promise<void> {
    const { models, webTools, mcpServers } = this.options.config;
    if (models) await gateway.settings.saveModels(models);
    if (webTools) await gateway.settings.saveWebTools(webTools);
    if (mcpServers) await gateway.mcp.save(mcpServers);
  }
}
