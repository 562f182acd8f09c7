// The servers domain's contract (`gateway.servers`): Settings → Servers (a Fawn server, a LangGraph server running
// Fawn's graph, or a DeerFlow deployment, reached by URL and access token) and the workspace each one opens. A
// server's token lives with the other secrets (never in a backup or an export); its record, in the settings.

/** What answers at a server's URL. */
export type ServerKind = "fawn" | "langgraph" | "deerflow";

/**
 * What a server offers beyond LangGraph's threads and runs, found when it is connected (and again when its
 * workspace opens). A feature it lacks is said so in the UI instead of failing.
 */
export interface ServerFeatures {
  /** Fawn's own routes (`/api/fawn/…`): a thread's versions and notes, search, replay, `.fawn` export and import. */
  fawn: boolean;
  /** DeerFlow's REST routes beside LangGraph's (`/api/threads/{id}/uploads`, `…/artifacts/…`). */
  uploads: boolean;
  artifacts: boolean;
  /** `/api/memory` and `/api/skills`. */
  memory: boolean;
  skills: boolean;
  /** `/api/models`: the models the server runs. */
  models: boolean;
}

export interface ServerSummary {
  id: string;
  /** The name the user gave it, or its host (and path) as the check found it. */
  name: string;
  /** The base URL as entered, normalized (no trailing slash). */
  url: string;
  kind: ServerKind;
  features: ServerFeatures;
  added_at: number;
}

export interface ServerConnectInput {
  url: string;
  /** The access token (Bearer); some servers need none. */
  token?: string;
  name?: string;
}

/** What checking a server found, in one sentence the UI shows as it is. */
export interface ServerCheck {
  reachable: boolean;
  /** The token was accepted (or none was needed). */
  authorized: boolean;
  kind?: ServerKind;
  features?: ServerFeatures;
  sentence: string;
}

/** How a server workspace's last call to its server went. */
export type WorkspaceConnection =
  | { state: "online" }
  | {
      state: "offline" | "unauthorized" | "malformed";
      /** One sentence for the workspace's note ("… is unreachable: showing what this browser kept."). */
      sentence: string;
    };

export interface ServersApi {
  list(): Promise<ServerSummary[]>;
  /** Checks a server without storing anything: reachable, token accepted, which routes it offers. */
  check(input: ServerConnectInput): Promise<ServerCheck>;
  /**
   * Checks the server, then stores it (its token among the secrets) in one write. A server that cannot be reached,
   * refuses the token or is not a LangGraph server is refused with the check's sentence; nothing is stored.
   */
  connect(input: ServerConnectInput): Promise<{ server: ServerSummary; sentence: string }>;
  /** Forgets the server and its token; its threads stay on the server. */
  disconnect(serverId: string): Promise<void>;
}

/**
 * A server workspace's extra domain (`workspace.workspace`): which server, how the connection is, and the end of its
 * watch. A workspace posts its change notices on `workspaceChannel(server.id)`, found by polling the server while it
 * is open (another device's threads and runs), as the local Gateway does on `CHANGES_CHANNEL`.
 */
export interface WorkspaceApi {
  server(): Promise<ServerSummary>;
  connection(): Promise<WorkspaceConnection>;
  /** Stops watching the server (the page switched to another workspace). */
  close(): Promise<void>;
}

/** The BroadcastChannel a server workspace posts its change notices on. */
export function workspaceChannel(serverId: string): string {
  return `fawn-changes:server:${serverId}`;
}
