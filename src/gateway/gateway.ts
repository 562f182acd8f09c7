// DeerFlow's Gateway as an in-worker service (docs/architecture.md#d5-gateway): the typed methods the page calls over
// comlink, each handed to the service that owns it. Services throw UserError for what the user should read; nothing
// is translated here. createGateway (create-gateway.ts) builds the services.
import {
  PROTOCOL_VERSION,
  type DataExport,
  type DataImportAnswer,
  type GatewayApi,
  type ListedModel,
  type McpConfigImport,
  type McpConnectionTest,
  type McpServerEntry,
  type McpSignInAnswer,
  type McpSignInStart,
  type MemoryDocument,
  type MemoryFactInput,
  type MemorySettings,
  type ModelEndpoint,
  type ModelSettings,
  type ProxySettings,
  type PythonHostHandle,
  type ApprovalDecision,
  type RunEventBatchListener,
  type RunEventListener,
  type RunRequest,
  type SandboxCommandRequest,
  type SandboxCommandResult,
  type SandboxHostHandle,
  type SandboxInfo,
  type SandboxSettings,
  type SharedThreadReading,
  type SkillInfo,
  type SubagentSettings,
  type ThreadCompaction,
  type ThreadContextUsage,
  type ThreadModelChoice,
  type ThreadDetail,
  type ThreadExport,
  type ThreadExportFormat,
  type ThreadFileContent,
  type ThreadReplay,
  type ThreadSearchResult,
  type ThreadShareLink,
  type ThreadSummary,
  type UploadResult,
  type WebToolSettings,
} from "../protocol/index.ts";
import { createRunEventCoalescer } from "./run-event-coalescer.ts";
import type { RunRecord } from "../storage/index.ts";
import type { ApprovalService } from "./approval-service.ts";
import type { BranchService } from "./branch-service.ts";
import type { ContextService } from "./context-service.ts";
import type { DataService } from "./data-service.ts";
import type { MemoryService } from "./memory-service.ts";
import type { McpService } from "./mcp-service.ts";
import type { RunService } from "./run-service.ts";
import type { SettingsService } from "./settings-service.ts";
import type { SkillsService } from "./skills-service.ts";
import type { SuggestionsService } from "./suggestions-service.ts";
import type { ThreadBundles } from "./thread-bundles.ts";
import type { ThreadSandboxes } from "./thread-sandboxes.ts";
import type { ThreadSharing } from "./thread-sharing.ts";
import type { ThreadsService } from "./threads-service.ts";

export interface GatewayServices {
  approvals: ApprovalService;
  threads: ThreadsService;
  bundles: ThreadBundles;
  sharing: ThreadSharing;
  runs: RunService;
  settings: SettingsService;
  sandboxes: ThreadSandboxes;
  memory: MemoryService;
  skills: SkillsService;
  data: DataService;
  mcp: McpService;
  branches: BranchService;
  suggestions: SuggestionsService;
  context: ContextService;
}

export class Gateway implements GatewayApi {
  constructor(private readonly services: GatewayServices) {}

  async protocolVersion(): Promise<number> {
    return PROTOCOL_VERSION;
  }

  // ---- Threads ----

  listThreads(): Promise<ThreadSummary[]> {
    return this.services.threads.list();
  }

  createThread(options: { thread_id?: string } = {}): Promise<ThreadSummary> {
    return this.services.threads.create(options);
  }

  getThread(threadId: string): Promise<ThreadDetail | undefined> {
    return this.services.threads.get(threadId);
  }

  importDeerFlowThread(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary> {
    return this.services.threads.importDeerFlow(input);
  }

  async readThreadFile(threadId: string, path: string): Promise<ThreadFileContent> {
    // A shared thread being read before it is imported has its files in memory, under its reading id.
    return this.services.sharing.readFile(threadId, path) ?? this.services.threads.readFile(threadId, path);
  }

  uploadFiles(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult> {
    return this.services.threads.upload(threadId, files);
  }

  exportThread(threadId: string, format: ThreadExportFormat): Promise<ThreadExport> {
    return this.services.bundles.export(threadId, format);
  }

  importThreadBundle(archive: Blob | Uint8Array): Promise<ThreadSummary> {
    return this.services.bundles.import(archive);
  }

  continueThread(threadId: string): Promise<ThreadSummary> {
    return this.services.bundles.continueThread(threadId);
  }

  threadReplay(threadId: string): Promise<ThreadReplay> {
    return this.services.threads.replay(threadId);
  }

  showVersion(threadId: string, runId: string): Promise<void> {
    return this.services.branches.showVersion(threadId, runId);
  }

  // ---- MCP servers (Settings → Tools) ----

  getMcpServers(): Promise<McpServerEntry[]> {
    return this.services.mcp.list();
  }

  saveMcpServers(servers: McpServerEntry[]): Promise<McpServerEntry[]> {
    return this.services.mcp.save(servers);
  }

  testMcpServer(server: McpServerEntry): Promise<McpConnectionTest> {
    return this.services.mcp.test(server);
  }

  getMcpSignIns(): Promise<string[]> {
    return this.services.mcp.signedIn();
  }

  beginMcpSignIn(server: McpServerEntry): Promise<McpSignInStart> {
    return this.services.mcp.beginSignIn(server);
  }

  finishMcpSignIn(answer: McpSignInAnswer): Promise<{ server: string }> {
    return this.services.mcp.finishSignIn(answer);
  }

  signOutMcpServer(name: string): Promise<void> {
    return this.services.mcp.signOut(name);
  }

  async importMcpConfig(text: string): Promise<McpConfigImport> {
    return this.services.mcp.importConfig(text);
  }

  exportMcpConfig(): Promise<{ file_name: string; blob: Blob }> {
    return this.services.mcp.exportConfig();
  }

  renameThread(threadId: string, title: string): Promise<ThreadSummary> {
    return this.services.threads.rename(threadId, title);
  }

  pinThread(threadId: string, pinned: boolean): Promise<ThreadSummary> {
    return this.services.threads.pin(threadId, pinned);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.services.threads.delete(threadId);
  }

  searchThreads(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    return this.services.threads.find(query, options);
  }

  // ---- Sharing ----

  shareThreadLink(threadId: string): Promise<ThreadShareLink> {
    return this.services.sharing.link(threadId);
  }

  readShareLink(data: string): Promise<SharedThreadReading> {
    return this.services.sharing.readLink(data);
  }

  openThreadBundle(archive: Blob | Uint8Array): Promise<SharedThreadReading> {
    return this.services.sharing.openBundle(archive);
  }

  async closeSharedThread(threadId: string): Promise<void> {
    this.services.sharing.close(threadId);
  }

  // ---- Runs ----

  runStream(request: RunRequest, onEvent: RunEventListener): Promise<void> {
    return this.services.runs.stream(request, onEvent);
  }

  async runStreamBatched(request: RunRequest, onEvents: RunEventBatchListener): Promise<void> {
    const batches = createRunEventCoalescer(onEvents);
    try {
      await this.services.runs.stream(request, (event) => batches.push(event));
    } finally {
      batches.flush();
    }
  }

  async cancelRun(runId: string): Promise<void> {
    this.services.runs.cancel(runId);
  }

  answerApproval(approvalId: string, decision: ApprovalDecision, threadId?: string): Promise<void> {
    return this.services.approvals.answer(approvalId, decision, threadId);
  }

  setThreadMemory(threadId: string, enabled: boolean): Promise<ThreadSummary> {
    return this.services.threads.setMemory(threadId, enabled);
  }

  /** The thread's runs, oldest first, with their status and error. */
  listRuns(threadId: string): Promise<RunRecord[]> {
    return this.services.runs.list(threadId);
  }

  // ---- Sandboxes ----

  sandboxInfo(threadId: string): Promise<SandboxInfo> {
    return this.services.sandboxes.info(threadId);
  }

  sandboxExec(request: SandboxCommandRequest): Promise<SandboxCommandResult> {
    return this.services.sandboxes.exec(request);
  }

  async cancelSandboxCommand(commandId: string): Promise<void> {
    this.services.sandboxes.cancel(commandId);
  }

  async attachSandboxHost(host: SandboxHostHandle | null, notice?: string): Promise<void> {
    this.services.sandboxes.attachSandboxHost(host, notice);
  }

  async attachPythonHost(host: PythonHostHandle): Promise<void> {
    this.services.sandboxes.attachPythonHost(host);
  }

  // ---- Settings ----

  getModelSettings(): Promise<ModelSettings> {
    return this.services.settings.getModels();
  }

  saveModelSettings(settings: ModelSettings): Promise<ModelSettings> {
    return this.services.settings.saveModels(settings);
  }

  listModels(endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">): Promise<string[]> {
    return this.services.settings.listModels(endpoint);
  }

  describeModels(
    endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">,
  ): Promise<ListedModel[]> {
    return this.services.settings.describeModels(endpoint);
  }

  getProxySettings(): Promise<ProxySettings> {
    return this.services.settings.getProxy();
  }

  saveProxySettings(settings: ProxySettings): Promise<ProxySettings> {
    return this.services.settings.saveProxy(settings);
  }

  getWebToolSettings(): Promise<WebToolSettings> {
    return this.services.settings.getWebTools();
  }

  saveWebToolSettings(settings: WebToolSettings): Promise<WebToolSettings> {
    return this.services.settings.saveWebTools(settings);
  }

  getSandboxSettings(): Promise<SandboxSettings> {
    return this.services.settings.getSandbox();
  }

  saveSandboxSettings(settings: SandboxSettings): Promise<SandboxSettings> {
    return this.services.settings.saveSandbox(settings);
  }

  getSubagentSettings(): Promise<SubagentSettings> {
    return this.services.settings.getSubagents();
  }

  saveSubagentSettings(settings: SubagentSettings): Promise<SubagentSettings> {
    return this.services.settings.saveSubagents(settings);
  }

  // ---- Memory ----

  getMemory(): Promise<MemoryDocument> {
    return this.services.memory.get();
  }

  addMemoryFact(fact: MemoryFactInput & { content: string }): Promise<MemoryDocument> {
    return this.services.memory.addFact(fact);
  }

  updateMemoryFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument> {
    return this.services.memory.updateFact(id, patch);
  }

  deleteMemoryFact(id: string): Promise<MemoryDocument> {
    return this.services.memory.deleteFact(id);
  }

  clearMemory(): Promise<MemoryDocument> {
    return this.services.memory.clear();
  }

  importMemory(document: unknown): Promise<MemoryDocument> {
    return this.services.memory.import(document);
  }

  getMemorySettings(): Promise<MemorySettings> {
    return this.services.memory.getSettings();
  }

  saveMemorySettings(settings: MemorySettings): Promise<MemorySettings> {
    return this.services.memory.saveSettings(settings);
  }

  /** Applies memory updates still waiting for their delay (tests; a page about to close). */
  flushMemory(): Promise<void> {
    return this.services.memory.flush();
  }

  // ---- Skills ----

  listSkills(): Promise<SkillInfo[]> {
    return this.services.skills.list();
  }

  setSkillEnabled(name: string, enabled: boolean): Promise<SkillInfo> {
    return this.services.skills.setEnabled(name, enabled);
  }

  installSkill(archive: { name: string; bytes: Uint8Array }): Promise<SkillInfo> {
    return this.services.skills.install(archive?.name, archive?.bytes);
  }

  async installSkillFromThread(threadId: string, path: string): Promise<SkillInfo> {
    const file = await this.readThreadFile(threadId, path);
    return this.services.skills.install(path.split("/").at(-1) ?? path, file.bytes);
  }

  deleteSkill(name: string): Promise<void> {
    return this.services.skills.delete(name);
  }

  // ---- Settings → Data: export, import and deletion of everything ----

  exportData(): Promise<DataExport> {
    return this.services.data.export();
  }

  importData(archive: Blob | Uint8Array, options: { acceptAdditions?: boolean } = {}): Promise<DataImportAnswer> {
    return this.services.data.importAndAnnounce(archive, options);
  }

  deleteAllData(): Promise<void> {
    return this.services.data.deleteAll();
  }

  // ---- Composer extras ----

  threadSuggestions(threadId: string, model?: ThreadModelChoice): Promise<string[]> {
    return this.services.suggestions.suggest(threadId, model);
  }

  threadContext(threadId: string, model?: ThreadModelChoice): Promise<ThreadContextUsage> {
    return this.services.context.usage(threadId, model);
  }

  compactThread(threadId: string, model?: ThreadModelChoice): Promise<ThreadCompaction> {
    return this.services.context.compact(threadId, model);
  }
}
