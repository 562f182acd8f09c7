// A server's workspace (docs/architecture.md#d13-workspaces): the Gateway's domains answered by a Fawn server, a
// LangGraph server running Fawn's graph, or a DeerFlow deployment, built in the agent worker by
// `gateway.openWorkspace(id)` and handed to the page as a comlink proxy. Threads and runs go through LangGraph's API
// (`@langchain/langgraph-sdk`), files, memory, skills and models through the Gateway's REST routes, and on a Fawn
// server the rest through Fawn's own routes (`/api/fawn/…`). Per domain:
// - threads, runs, branches, approvals, bundles, memory, skills, context, suggestions: the server's (a feature it
//   lacks rejects with one sentence naming it and the server);
// - settings: the composer's models are the server's (read-only); the other settings are this browser's;
// - sharing: a server thread's link from the server; a shared thread opened to be read is this browser's;
// - sandbox: the server runs the thread's commands (no Terminal); data, mcp, servers, openWorkspace: this browser's.
import {
  PROTOCOL_VERSION,
  type GatewayApi,
  type WorkspaceApi,
  type WorkspaceConnection,
  type WorkspaceGatewayApi,
} from "../../protocol/index.ts";
import { RemoteAgents } from "./remote-agents.ts";
import { RemoteContext, type RemoteContextOptions } from "./remote-context.ts";
import {
  localDomains,
  remoteApprovals,
  remoteBranches,
  remoteBundles,
  remoteContextApi,
  remoteSandbox,
  remoteSettings,
  remoteSharing,
  RemoteMemory,
  RemoteSkills,
  remoteSuggestions,
} from "./remote-domains.ts";
import { RemoteFeedback } from "./remote-feedback.ts";
import { RemoteRuns } from "./remote-runs.ts";
import { RemoteSchedules } from "./remote-schedules.ts";
import { RemoteThreads } from "./remote-threads.ts";
import { RemoteWatch, WATCH_INTERVAL_MS } from "./remote-watch.ts";

export interface RemoteWorkspaceOptions extends RemoteContextOptions {
  /** This browser's Gateway: what a remote workspace answers as this browser's (settings writes, data, MCP). */
  local: GatewayApi;
  /** How often the watch lists the server's threads (ms); 0: no watch (tests). */
  watchIntervalMs?: number;
}

export function createRemoteWorkspace(options: RemoteWorkspaceOptions): WorkspaceGatewayApi {
  const remote = new RemoteContext(options);
  const { local } = options;
  const runs = new RemoteRuns(remote);
  const threads = new RemoteThreads(remote, local.threads);
  const interval = options.watchIntervalMs ?? WATCH_INTERVAL_MS;
  const watch = interval > 0 ? new RemoteWatch(remote, interval) : undefined;
  watch?.start();
  const workspace: WorkspaceApi = {
    server: async () => ({ ...options.server, features: { ...options.server.features } }),
    connection: async (): Promise<WorkspaceConnection> => remote.connection.current(),
    close: async () => watch?.stop(),
  };
  return {
    protocolVersion: async () => PROTOCOL_VERSION,
    threads,
    runs,
    bundles: remoteBundles(remote),
    sharing: remoteSharing(remote, local.sharing),
    branches: remoteBranches(remote),
    approvals: remoteApprovals(remote, runs),
    sandbox: remoteSandbox(remote),
    settings: remoteSettings(remote, local.settings),
    memory: new RemoteMemory(remote),
    skills: new RemoteSkills(remote),
    suggestions: remoteSuggestions(remote),
    context: remoteContextApi(remote),
    schedules: new RemoteSchedules(remote),
    feedback: new RemoteFeedback(remote),
    agents: new RemoteAgents(remote),
    ...localDomains(local),
    openWorkspace: (serverId) => local.openWorkspace(serverId),
    workspace,
  };
}
