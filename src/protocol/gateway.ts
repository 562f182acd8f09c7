// The UI ⇄ agent-worker contract: one object of domains over comlink, versioned, plain data only. Each domain's
// contract is its own file (threads-api.ts, runs-api.ts, …) and its service implements it; the page calls
// `gateway.threads.list()` and comlink carries the path to the service in the worker.
import type { AgentsApi } from "./agents-api.ts";
import type { ApprovalsApi } from "./approvals-api.ts";
import type { BranchesApi } from "./branches-api.ts";
import type { BundlesApi } from "./bundles-api.ts";
import type { ContextApi } from "./context-api.ts";
import type { DataApi } from "./data-api.ts";
import type { FeedbackApi } from "./feedback-api.ts";
import type { McpApi } from "./mcp-api.ts";
import type { MemoryApi } from "./memory-api.ts";
import type { RunsApi } from "./runs-api.ts";
import type { SandboxApi } from "./sandbox-api.ts";
import type { SchedulesApi } from "./schedules-api.ts";
import type { ServersApi, WorkspaceApi } from "./servers-api.ts";
import type { SettingsApi } from "./settings-api.ts";
import type { SharingApi } from "./sharing-api.ts";
import type { SkillsApi } from "./skills-api.ts";
import type { SuggestionsApi } from "./suggestions-api.ts";
import type { ThreadsApi } from "./threads-api.ts";

/** Bump when a method or a data shape changes incompatibly. */
export const PROTOCOL_VERSION = 1;

/** The Gateway: one member per domain, each the domain's service in the worker. */
export interface GatewayApi {
  protocolVersion(): Promise<number>;
  threads: ThreadsApi;
  bundles: BundlesApi;
  sharing: SharingApi;
  branches: BranchesApi;
  runs: RunsApi;
  approvals: ApprovalsApi;
  sandbox: SandboxApi;
  settings: SettingsApi;
  memory: MemoryApi;
  skills: SkillsApi;
  mcp: McpApi;
  data: DataApi;
  suggestions: SuggestionsApi;
  context: ContextApi;
  /** "Good reply" / "Bad reply" on replies, kept with their thread (DeerFlow's run feedback). */
  feedback: FeedbackApi;
  /** Scheduled runs (Settings → Schedules): a prompt sent to a thread at set times. */
  schedules: SchedulesApi;
  /** Custom agents (Settings → Agents): chosen per thread, sent as a run's `context.agent`. */
  agents: AgentsApi;
  /** Settings → Servers: the servers this browser connects to (their tokens among the secrets). */
  servers: ServersApi;
  /**
   * A server's workspace: the same domains, answered by that server (LangGraph's API through its SDK, the Gateway's
   * REST routes, Fawn's own where the server offers them). Across the worker boundary it is a comlink proxy; the page
   * makes its stores over it. Rejects with one sentence for an unknown server.
   */
  openWorkspace(serverId: string): Promise<WorkspaceGatewayApi>;
}

/** A server workspace: the Gateway's domains on a server, and which server and how it answers. */
export interface WorkspaceGatewayApi extends GatewayApi {
  workspace: WorkspaceApi;
}

/** The Gateway's domains, by the name the page calls them under (`gateway.threads`): every member but the version. */
export const GATEWAY_DOMAINS = [
  "threads",
  "bundles",
  "sharing",
  "branches",
  "runs",
  "approvals",
  "sandbox",
  "settings",
  "memory",
  "skills",
  "mcp",
  "data",
  "suggestions",
  "context",
  "feedback",
  "schedules",
  "agents",
  "servers",
] as const satisfies readonly Exclude<keyof GatewayApi, "protocolVersion" | "openWorkspace">[];

export type GatewayDomain = (typeof GATEWAY_DOMAINS)[number];

// Every domain of GatewayApi is listed above (a missing one fails to compile here).
const listsEveryDomain: Record<
  Exclude<keyof GatewayApi, "protocolVersion" | "openWorkspace" | GatewayDomain>,
  never
> = {};
void listsEveryDomain;
