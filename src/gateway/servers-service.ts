// Settings → Servers and the server workspaces they open (docs/architecture.md#d13-workspaces). The servers' records
// are the setting `servers`; each one's access token is a secret beside it (SettingsStorage's keys of parts,
// `servers.apiKey.<id>`), written in the same transaction, so a backup or an export never carries one and every
// error text that could quote one is redacted like an API key. Checking a server and its workspace are chunks of
// their own (remote/server-connect.ts, remote/server-workspace.ts), loaded when a server is first used.
import { z } from "zod";
import type {
  ChangeNotice,
  GatewayApi,
  ServerCheck,
  ServerConnectInput,
  ServersApi,
  ServerSummary,
  WorkspaceGatewayApi,
} from "../protocol/index.ts";
import type { SettingsStorage } from "../storage/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { ProbeResult } from "./remote/server-probe.ts";
import type { ServerWorkspaceOptions } from "./remote/server-workspace.ts";
import { writing } from "./writes.ts";

/** The setting the servers' records are kept under; their tokens are its parts' keys among the secrets. */
export const SERVERS_SETTINGS_KEY = "servers";

/** How long a successful check stands in for connect's own (the page checks, then connects at once). */
const CHECK_REUSE_MS = 30_000;

const featuresSchema = z.object({
  fawn: z.boolean(),
  uploads: z.boolean(),
  artifacts: z.boolean(),
  memory: z.boolean(),
  skills: z.boolean(),
  models: z.boolean(),
});
const serverSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1),
  url: z.url({ protocol: /^https?$/ }),
  kind: z.enum(["fawn", "langgraph", "deerflow"]),
  features: featuresSchema,
  added_at: z.number(),
});

export interface ServersServiceOptions {
  settings: SettingsStorage;
  /** This browser's Gateway: what a server workspace answers as this browser's (settings writes, data, MCP). */
  local: () => GatewayApi;
  /** The fetch servers are called with (tests pass their own). */
  fetch?: typeof fetch;
  /** Tells every tab the list of servers changed (`settings-changed`). */
  notify?: (notice: ChangeNotice) => void;
  /** Checks a server (tests pass a fake); by default remote/server-probe.ts, loaded on first use. */
  probe?: (input: ServerConnectInput, fetcher: typeof fetch) => Promise<ProbeResult>;
  /** Builds a server's workspace (tests pass a fake); by default remote/server-workspace.ts, loaded on first use. */
  openWorkspace?: (options: ServerWorkspaceOptions) => Promise<WorkspaceGatewayApi>;
}

interface Stored {
  servers: ServerSummary[];
  tokens: Map<string, string>;
}

export class ServersService implements ServersApi {
  /** Each open workspace by server id, one per server, until it closes or its server is disconnected. */
  private readonly workspaces = new Map<string, Promise<WorkspaceGatewayApi>>();
  /** The last successful check, which connect may reuse for the same URL and token. */
  private lastCheck: { url: string; token: string; at: number; result: ProbeResult } | undefined;
  /** Connect and disconnect, one at a time: each reads the list and writes it whole. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ServersServiceOptions) {}

  async list(): Promise<ServerSummary[]> {
    return (await this.read()).servers;
  }

  async check(input: ServerConnectInput): Promise<ServerCheck> {
    const connecting = await import("./remote/server-connect.ts");
    const checked = connecting.checkedInput(input);
    const result = await connecting.probe(checked, this.fetcher(), this.options.probe);
    if (result.authorized) {
      this.lastCheck = { url: checked.url, token: checked.token ?? "", at: Date.now(), result };
    }
    return connecting.publicCheck(result);
  }

  async connect(input: ServerConnectInput): Promise<{ server: ServerSummary; sentence: string }> {
    const connecting = await import("./remote/server-connect.ts");
    const checked = connecting.checkedInput(input);
    const recent = this.lastCheck;
    this.lastCheck = undefined;
    const result =
      recent?.url === checked.url && recent.token === (checked.token ?? "") && Date.now() - recent.at < CHECK_REUSE_MS
        ? recent.result
        : await connecting.probe(checked, this.fetcher(), this.options.probe);
    const server = await this.serially(async () => {
      const next = connecting.withServer(await this.read(), checked, result, {
        now: Date.now(),
        newId: () => crypto.randomUUID(),
      });
      await writing(() => this.options.settings.putWithApiKeys(SERVERS_SETTINGS_KEY, next.servers, next.tokens));
      return next.server;
    });
    // A workspace open with the old token or routes is closed; the page opens it again.
    await this.closeWorkspace(server.id);
    this.options.notify?.({ type: "settings-changed" });
    return { server, sentence: connecting.connectedSentence(result) };
  }

  async disconnect(serverId: string): Promise<void> {
    await this.closeWorkspace(serverId);
    const removed = await this.serially(async () => {
      const { servers, tokens } = await this.read();
      if (!servers.some((server) => server.id === serverId) && !tokens.has(serverId)) return false;
      const nextTokens = new Map(tokens);
      nextTokens.delete(serverId);
      const next = servers.filter((server) => server.id !== serverId);
      await writing(() => this.options.settings.putWithApiKeys(SERVERS_SETTINGS_KEY, next, nextTokens));
      return true;
    });
    // What the workspace kept for offline reads goes with the server.
    await import("./remote/remote-connection.ts").then(({ forgetWorkspaceCache }) => forgetWorkspaceCache(serverId));
    if (removed) this.options.notify?.({ type: "settings-changed" });
  }

  /**
   * The server's workspace: built on first use (its code loaded then), one per server until closed. The server is
   * looked up each time, so one disconnected meanwhile (or deleted with all data) is refused, its workspace closed.
   */
  async open(serverId: string): Promise<WorkspaceGatewayApi> {
    const { servers, tokens } = await this.read();
    const server = servers.find((each) => each.id === serverId);
    if (!server) {
      await this.closeWorkspace(serverId);
      throw new UserError("That server is not connected any more: connect it again in Settings → Servers.");
    }
    const open = this.workspaces.get(serverId);
    if (open) return open;
    const opening = this.build({
      server,
      local: this.options.local(),
      onClose: () => {
        if (this.workspaces.get(serverId) === opening) this.workspaces.delete(serverId);
      },
      ...(tokens.get(serverId) && { token: tokens.get(serverId) }),
      ...(this.options.fetch && { fetch: this.options.fetch }),
    });
    this.workspaces.set(serverId, opening);
    opening.catch(() => {
      if (this.workspaces.get(serverId) === opening) this.workspaces.delete(serverId);
    });
    return opening;
  }

  /** All data was deleted: every open workspace closes, and what any kept for offline reads is forgotten. */
  async forgetAll(): Promise<void> {
    await Promise.all([...this.workspaces.keys()].map((serverId) => this.closeWorkspace(serverId)));
    await import("./remote/remote-connection.ts").then(({ forgetAllWorkspaceCaches }) => forgetAllWorkspaceCaches());
  }

  private async build(options: ServerWorkspaceOptions): Promise<WorkspaceGatewayApi> {
    if (this.options.openWorkspace) return this.options.openWorkspace(options);
    const { openServerWorkspace } = await import("./remote/server-workspace.ts");
    return openServerWorkspace(options);
  }

  private async closeWorkspace(serverId: string): Promise<void> {
    const open = this.workspaces.get(serverId);
    if (!open) return;
    this.workspaces.delete(serverId);
    await open.then((workspace) => workspace.workspace.close()).catch(() => undefined);
  }

  /** The stored servers (a record that is not one is left out) and their tokens. */
  private async read(): Promise<Stored> {
    const { value, apiKeys } = await this.options.settings.getWithApiKeys(SERVERS_SETTINGS_KEY);
    const records = Array.isArray(value) ? value : [];
    const servers = records.flatMap((record) => {
      const parsed = serverSchema.safeParse(record);
      return parsed.success ? [parsed.data] : [];
    });
    return { servers, tokens: apiKeys };
  }

  private fetcher(): typeof fetch {
    return this.options.fetch ?? ((target, init) => fetch(target, init));
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
