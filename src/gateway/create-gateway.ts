// The Gateway's composition root: builds every service over one storage (storage/contracts.ts: IndexedDB in the
// browser, or any other implementation) and wires who tells whom. The agent worker
// calls openGateway; tests pass their own model factory, fetch, notices and sandboxes.
import type { ModelErrorOptions } from "../agent/index.ts";
import { createChatModel, type ChatModelFactory } from "../models/index.ts";
import {
  CHANGES_CHANNEL,
  PROTOCOL_VERSION,
  type ChangeNotice,
  type GatewayApi,
  type PythonHostHandle,
  servesBackgroundWork,
} from "../protocol/index.ts";
import {
  indexedDbStorage,
  openFawnDb,
  type CheckpointStorage,
  type DeviceModelFiles,
  type FawnStorage,
} from "../storage/index.ts";
import { AgentsService } from "./agents-service.ts";
import { BranchService } from "./branch-service.ts";
import { CheckpointViewCache } from "./checkpoint-view-cache.ts";
import { ContextService } from "./context-service.ts";
import { DataService } from "./data-service.ts";
import { FeedbackService } from "./feedback-service.ts";
import { McpService, type McpConnections } from "./mcp-service.ts";
import { MemoryService } from "./memory-service.ts";
import { RunService } from "./run-service.ts";
import { SchedulesService } from "./schedules/schedules-service.ts";
import { ServersService } from "./servers-service.ts";
import { SettingsService } from "./settings-service.ts";
import { SkillsService } from "./skills-service.ts";
import { SuggestionsService } from "./suggestions-service.ts";
import { ApprovalService } from "./approval-service.ts";
import { ThreadBundles } from "./thread-bundles.ts";
import { ThreadSharing } from "./thread-sharing.ts";
import { ThreadSandboxes, type OpenBrowserSandbox } from "./thread-sandboxes.ts";
import { ThreadsService } from "./threads-service.ts";

export interface GatewayOptions {
  createModel?: ChatModelFactory;
  /** Retry policy for model errors; tests shorten the waits. */
  retry?: ModelErrorOptions;
  /** How long converting an uploaded document to Markdown may take (60 s); tests shorten it. */
  conversionTimeoutMs?: number;
  /** How long a model endpoint may send nothing before its request fails (MODEL_STALL_MS); tests shorten it. */
  modelStallMs?: number;
  fetch?: typeof fetch;
  /** Tells other tabs what changed; defaults to posting on the `fawn-changes` BroadcastChannel. */
  notify?: (notice: ChangeNotice) => void;
  /**
   * Opens a thread's browser sandbox. The agent worker passes sandboxes that live in their own worker (so the agent's
   * bundle does not carry just-bash); tests pass BrowserSandbox in-process. Without it, the agent has no sandbox tools.
   */
  openSandbox?: OpenBrowserSandbox;
  /** The MCP servers' connections (tests may pass their own registry); by default the MCP layer, loaded on use. */
  mcpConnections?: McpConnections;
  /** Fawn's oauth-callback.html; by default at this origin and the app's base path. */
  oauthRedirectUrl?: string;
  /** The model files of "On this device" (the browser's own storage); without it, none can be kept or run. */
  deviceModels?: () => Promise<DeviceModelFiles>;
  /** Receives the page's Python frames (see attachPythonHost); the agent worker passes them to its sandboxes. */
  attachPythonHost?: (host: PythonHostHandle) => void;
}

/**
 * The Gateway as the worker exposes it (GatewayApi): one member per domain, each the domain's service itself, which
 * implements the domain's contract. Typed with the services, so tests reach their methods beyond the contract.
 */
export interface Gateway extends GatewayApi {
  threads: ThreadsService;
  bundles: ThreadBundles;
  sharing: ThreadSharing;
  branches: BranchService;
  runs: RunService;
  approvals: ApprovalService;
  sandbox: ThreadSandboxes;
  settings: SettingsService;
  memory: MemoryService;
  skills: SkillsService;
  mcp: McpService;
  data: DataService;
  suggestions: SuggestionsService;
  context: ContextService;
  feedback: FeedbackService;
  schedules: SchedulesService;
  agents: AgentsService;
  servers: ServersService;
  /** The threads' checkpoints, read as they are by LangGraph's API on the server (state, history). */
  checkpointer: CheckpointStorage;
}

/** Posts change notices to every tab of this origin (the UI of this tab included). */
function broadcastNotices(): (notice: ChangeNotice) => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(CHANGES_CHANNEL);
  // In Node (tests) an open channel would keep the process alive.
  (channel as { unref?: () => void }).unref?.();
  return (notice) => channel.postMessage(notice);
}

/** oauth-callback.html beside the app: in the worker, its origin and Vite's base path. */
function defaultOAuthRedirectUrl(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin ?? "http://localhost";
  return new URL(`${import.meta.env.BASE_URL}oauth-callback.html`, origin).href;
}

export function createGateway(storage: FawnStorage, options: GatewayOptions = {}): Gateway {
  const outboundFetch = options.fetch;
  // Every outbound request honours `options.fetch` (the server's guarded fetch): model clients, web tools, MCP.
  const createModel: ChatModelFactory =
    options.createModel ??
    ((target, modelOptions) =>
      createChatModel(target, {
        ...modelOptions,
        ...(outboundFetch && { fetch: outboundFetch }),
        ...(options.modelStallMs !== undefined && { stallMs: options.modelStallMs }),
      }));
  const broadcast = options.notify ?? broadcastNotices();
  const { threads: threadRepository, files, checkpointer, fileVersions } = storage;
  // Services are built in order of need; the few that refer back to a later one do so through these closures.
  const notify = (notice: ChangeNotice) => threads.announce(notice);
  const isRunning = (threadId?: string) => runs.isRunning(threadId);
  // One decode of a checkpoint for all its readers: the conversation, the context gauge, suggestions, branches, runs.
  const views = new CheckpointViewCache(checkpointer);

  const settings: SettingsService = new SettingsService(storage.settings, {
    notify,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    onSandboxChanged: (saved) => sandboxes.providerChanged(saved.provider),
    ...(options.deviceModels && { deviceModels: options.deviceModels }),
  });
  const branches = new BranchService({
    threads: threadRepository,
    checkpointer,
    views,
    fileVersions,
    closeSandbox: (threadId) => sandboxes.close(threadId),
    isRunning,
    onChanged: (threadId) => {
      // Search finds what the thread shows: the version the user moved to.
      void threads.searchIndex.index(threadId).catch(() => undefined);
      notify({ type: "thread-changed", thread_id: threadId });
    },
  });
  const threads: ThreadsService = new ThreadsService(storage, {
    threads: threadRepository,
    files,
    checkpointer,
    views,
    branches,
    notify: broadcast,
    isRunning,
    closeSandbox: (threadId) => sandboxes.close(threadId),
    ...(options.conversionTimeoutMs !== undefined && { conversionTimeoutMs: options.conversionTimeoutMs }),
    // A shared thread being read before it is imported has its files in memory, under its reading id.
    sharedFile: (threadId, path) => sharing.readFile(threadId, path),
  });
  const skills = new SkillsService(storage.skills, {
    readThreadFile: (threadId, path) => threads.readFile(threadId, path),
    onChange: async () => {
      await sandboxes.closeIdle();
      notify({ type: "settings-changed" });
    },
  });
  const sandboxes: ThreadSandboxes = new ThreadSandboxes({
    files,
    skills: () => skills.mountFiles(),
    settings: () => settings.getSandbox(),
    ...(options.openSandbox && { openSandbox: options.openSandbox }),
    ...(options.attachPythonHost && { attachPythonHost: options.attachPythonHost }),
    threadExists: (threadId) => threads.exists(threadId),
    isRunning,
    notify,
    // The sandbox log: a note per command the agent ran, kept with the thread (exported with it).
    audit: async (threadId, entry) => {
      await threadRepository.append(threadId, [{ kind: "sandbox-command", ...entry }]);
    },
  });
  const memory = new MemoryService(storage, {
    createModel: async () => {
      const target = await settings.defaultTarget();
      return servesBackgroundWork(target) ? createModel(target) : undefined;
    },
    onChange: () => notify({ type: "memory-changed" }),
    flushOthers: (): Promise<void> => agents.flushMemory(),
  });
  const mcp = new McpService(storage, {
    notify,
    ...(options.mcpConnections && { connections: options.mcpConnections }),
    proxyUrl: async () => (await settings.getProxy()).url,
    proxyToken: async () => (await settings.getProxy()).token,
    oauthRedirectUrl: options.oauthRedirectUrl ?? defaultOAuthRedirectUrl(),
    ...(outboundFetch && { fetch: outboundFetch }),
  });
  const approvals = new ApprovalService({ threads: threadRepository, notify });
  const agents: AgentsService = new AgentsService(storage.settings, {
    notify,
    memorySettings: () => memory.getSettings(),
    createModel: async () => {
      const target = await settings.defaultTarget();
      return servesBackgroundWork(target) ? createModel(target) : undefined;
    },
  });
  const runs: RunService = new RunService({
    threads: threadRepository,
    checkpointer,
    views,
    settings,
    memory,
    approvals,
    agents,
    skills,
    search: threads.searchIndex,
    branches,
    fileVersions,
    createModel,
    ...(options.retry && { retry: options.retry }),
    ...(outboundFetch && { fetch: outboundFetch }),
    sandbox: (threadId) => sandboxes.openForAgent(threadId),
    mcpTools: (onProgress) => mcp.runTools(onProgress),
    onRunEnded: (threadId) => sandboxes.runEnded(threadId),
    notify,
  });
  const data = new DataService(storage, {
    notify,
    closeIdleSandboxes: () => sandboxes.closeIdle(),
    closeSandboxes: () => sandboxes.closeAll(),
    forgetServers: () => servers.forgetAll(),
    running: () => runs.isRunning(),
    dropMemoryUpdates: () => {
      memory.dropPendingUpdates();
      agents.dropMemoryUpdates();
    },
  });
  const bundles = new ThreadBundles(storage, { notify, files, detail: (threadId) => threads.get(threadId) });
  const sharing: ThreadSharing = new ThreadSharing(bundles);
  const feedback = new FeedbackService({
    threads: threadRepository,
    detail: (threadId) => threads.get(threadId),
    notify,
  });
  const shownVersion = (threadId: string) => branches.shownVersion(threadId);
  const suggestions = new SuggestionsService({ views, settings, createModel, shownVersion });
  const context = new ContextService({
    checkpointer,
    views,
    settings,
    createModel,
    shownVersion,
    onCompacted: (threadId, from) => branches.moved(threadId, from),
    isRunning: (threadId) => runs.isRunning(threadId),
    threadExists: (threadId) => threads.exists(threadId),
    foreignOf: async (threadId) => {
      const foreign = (await threadRepository.get(threadId))?.foreign;
      return foreign && new Set(foreign.message_ids);
    },
  });
  const servers: ServersService = new ServersService({
    settings: storage.settings,
    local: () => gateway,
    notify,
    ...(outboundFetch && { fetch: outboundFetch }),
  });
  const schedules = new SchedulesService({ settings: storage.settings, threads, notify });
  const gateway: Gateway = {
    protocolVersion: async () => PROTOCOL_VERSION,
    openWorkspace: (serverId) => servers.open(serverId),
    servers,
    approvals,
    threads,
    bundles,
    sharing,
    runs,
    settings,
    sandbox: sandboxes,
    memory,
    skills,
    data,
    mcp,
    branches,
    suggestions,
    context,
    feedback,
    schedules,
    agents,
    checkpointer,
  };
  return gateway;
}

/** Opens the database and the Gateway over it; threads a closed tab left running are marked interrupted. */
export async function openGateway(dbName: string, options: GatewayOptions = {}): Promise<Gateway> {
  return openGatewayOver(indexedDbStorage(await openFawnDb(dbName)), options);
}

/** The Gateway over `storage` (any implementation); threads a host that stopped mid-run left busy are marked idle. */
export async function openGatewayOver(storage: FawnStorage, options: GatewayOptions = {}): Promise<Gateway> {
  const gateway = createGateway(storage, options);
  await storage.threads.settleInterrupted();
  return gateway;
}
