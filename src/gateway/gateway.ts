// DeerFlow's Gateway as an in-worker service: the typed methods the UI calls over comlink (DESIGN.md D5).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  createChatModel,
  describeModelError,
  EMPTY_MODEL_SETTINGS,
  fetchModelIds,
  parseModelSettings,
  settingsForRun,
  type ChatModelOptions,
} from "../models/index.ts";
import {
  fallbackTitle,
  fromWireMessage,
  parseSubagentSettings,
  parseWebToolSettings,
  readWebToolSettings,
  type ModelErrorOptions,
} from "../agent/index.ts";
import { DeerFlowImportError, planDeerFlowImport, type DeerFlowImportPlan } from "../bundles/index.ts";
import {
  CHANGES_CHANNEL,
  contentText,
  DEFAULT_SUBAGENT_SETTINGS,
  needsConfirmation,
  PROTOCOL_VERSION,
  type ChangeNotice,
  type DataExport,
  type DataImportAnswer,
  type GatewayApi,
  type MemoryDocument,
  type MemoryFactInput,
  type MemorySettings,
  type ModelSettings,
  type RunError,
  type RunEvent,
  type RunEventListener,
  type RunRequest,
  type SandboxCommandRequest,
  type SandboxCommandResult,
  type PythonHostHandle,
  type SandboxHostHandle,
  type SandboxInfo,
  type SandboxSettings,
  type SkillInfo,
  type SubagentSettings,
  type ThreadDetail,
  type ThreadFileContent,
  type ThreadSearchResult,
  type ThreadSummary,
  type UploadResult,
  type WebToolSettings,
  type WireMessage,
} from "../protocol/index.ts";
import {
  IndexedDbCheckpointSaver,
  MODEL_ENDPOINT_KEY,
  openFawnDb,
  SettingsRepository,
  ThreadFiles,
  ThreadRepository,
  ThreadSearchIndex,
  WEB_FETCH_KEY,
  WEB_SEARCH_KEY,
  type FawnDb,
  type RunRecord,
} from "../storage/index.ts";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../storage/storage-errors.ts";
import { ThreadIdTakenError, ThreadImporter } from "../storage/thread-import.ts";
import { newId } from "../shared/ids.ts";
import { redactSecrets } from "../shared/redact.ts";
import { MemoryRequestError, MemoryService } from "./memory-service.ts";
import { DataRequestError, DataService } from "./data-service.ts";
import { checkpointView, executeRun } from "./run-executor.ts";
import { SkillRequestError, SkillsService } from "./skills-service.ts";
import { UploadError } from "./uploads/upload-rules.ts";
import { UploadsService } from "./uploads/uploads-service.ts";
import { composeHistory } from "./thread-history.ts";
import { listenForThreadChanges, searchableText, ThreadSearchService } from "./thread-search.ts";
import { anyThreadRunning, tryLockThread } from "./thread-locks.ts";
import { ThreadSandboxes, type OpenBrowserSandbox } from "./thread-sandboxes.ts";

const SANDBOX_SETTINGS_KEY = "sandbox.settings";
const SUBAGENT_SETTINGS_KEY = "subagents.settings";

/** Why a thread another tab is running cannot be deleted. */
export const THREAD_RUNNING_ELSEWHERE = "This thread is running in another tab; stop it there before deleting it.";
/** Why all data cannot be deleted while another tab runs a thread. */
export const DATA_IN_USE_ELSEWHERE = "A thread is running in another tab; stop it there before deleting all data.";

/** DeerFlow's thread-id rule. */
export const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An error whose message is meant for the user; comlink carries `message` across to the UI. */
export class GatewayError extends Error {
  override name = "GatewayError";

  /** The HTTP status the route handler answers with: 422 for invalid input, 409 for a conflict with state. */
  constructor(
    message: string,
    readonly status: 409 | 422 = 422,
  ) {
    super(message);
  }
}

export interface GatewayOptions {
  createModel?: (settings: ModelSettings, options?: ChatModelOptions) => BaseChatModel;
  /** Retry policy for model errors; tests shorten the waits. */
  retry?: ModelErrorOptions;
  fetch?: typeof fetch;
  /** Tells other tabs what changed; defaults to posting on the `fawn-changes` BroadcastChannel. */
  notify?: (notice: ChangeNotice) => void;
  /**
   * Opens a thread's sandbox. The agent worker passes sandboxes that live in their own worker (so the agent's bundle
   * does not carry just-bash); tests pass BrowserSandbox in-process. Without it, the agent has no sandbox tools.
   */
  openSandbox?: OpenBrowserSandbox;
  /** Receives the page's Python frames (see attachPythonHost); the agent worker passes them to its sandboxes. */
  attachPythonHost?: (host: PythonHostHandle) => void;
}

/** Posts change notices to every tab of this origin (the UI of this tab included). */
function broadcastNotices(): (notice: ChangeNotice) => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(CHANGES_CHANNEL);
  // In Node (tests) an open channel would keep the process alive.
  (channel as { unref?: () => void }).unref?.();
  return (notice) => channel.postMessage(notice);
}

export class Gateway implements GatewayApi {
  private readonly threads: ThreadRepository;
  private readonly checkpointer: IndexedDbCheckpointSaver;
  private readonly settings: SettingsRepository;
  private readonly runs = new Map<string, AbortController>();
  private readonly runningThreads = new Set<string>();
  private readonly createModel: (settings: ModelSettings, options?: ChatModelOptions) => BaseChatModel;
  private readonly retry: ModelErrorOptions | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly notify: (notice: ChangeNotice) => void;
  private readonly files: ThreadFiles;
  private readonly importer: ThreadImporter;
  private readonly uploads: UploadsService;
  private readonly memory: MemoryService;
  private readonly skills: SkillsService;
  private readonly sandboxes: ThreadSandboxes;
  private readonly threadSearch: ThreadSearchService;
  private readonly data: DataService;

  constructor(db: FawnDb, options: GatewayOptions = {}) {
    this.threads = new ThreadRepository(db);
    this.checkpointer = new IndexedDbCheckpointSaver({ db });
    this.settings = new SettingsRepository(db);
    this.createModel = options.createModel ?? createChatModel;
    this.retry = options.retry;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    const notify = options.notify ?? broadcastNotices();
    // Thread search keeps the thread list between searches: every change this Gateway announces renews it.
    this.notify = (notice) => {
      if (notice.type === "thread-changed" || notice.type === "thread-deleted" || notice.type === "threads-replaced") {
        this.threadSearch.threadsChanged();
      }
      notify(notice);
    };
    this.files = new ThreadFiles(db);
    this.data = new DataService(db);
    this.importer = new ThreadImporter(db, this.checkpointer);
    this.uploads = new UploadsService(this.files);
    this.skills = new SkillsService(db);
    this.sandboxes = new ThreadSandboxes({
      settings: () => this.getSandboxSettings(),
      files: this.files,
      skills: () => this.skills.mountFiles(),
      openSandbox: options.openSandbox,
      attachPythonHost: options.attachPythonHost,
      threadExists: async (threadId) => (await this.threads.get(threadId)) !== undefined,
      notify: (notice) => this.notify(notice),
      isRunning: (threadId) => this.runningThreads.has(threadId),
    });
    this.memory = new MemoryService(db, {
      createModel: async () => {
        const [settings, webTools] = await Promise.all([this.getModelSettings(), this.getWebToolSettings()]);
        if (!settings.baseUrl || !settings.model) return undefined;
        return this.createModel(settingsForRun(settings, undefined, webTools.proxyUrl));
      },
      onChange: () => this.notify({ type: "memory-changed" }),
    });
    this.threadSearch = new ThreadSearchService({
      threads: this.threads,
      index: new ThreadSearchIndex(db),
      messages: (threadId) => this.visibleMessages(threadId),
      messagesOf: (threadIds) => this.visibleMessagesOf(threadIds),
    });
    // Other tabs' changes too.
    listenForThreadChanges(() => this.threadSearch.threadsChanged());
  }

  static async open(dbName: string, options: GatewayOptions = {}): Promise<Gateway> {
    const gateway = new Gateway(await openFawnDb(dbName), options);
    await gateway.threads.settleInterrupted();
    return gateway;
  }

  async protocolVersion(): Promise<number> {
    return PROTOCOL_VERSION;
  }

  listThreads(): Promise<ThreadSummary[]> {
    return this.threads.list();
  }

  async createThread(options: { thread_id?: string } = {}): Promise<ThreadSummary> {
    const threadId = options.thread_id;
    if (threadId !== undefined && !THREAD_ID.test(threadId)) {
      throw new GatewayError("A thread id is 1 to 64 letters, digits, '-' or '_'.");
    }
    if (threadId !== undefined && (await this.threads.get(threadId))) {
      throw new GatewayError(`A thread with id ${threadId} already exists.`, 409);
    }
    const thread = await this.writing(() => this.threads.create(threadId === undefined ? {} : { threadId }));
    this.notify({ type: "thread-changed", thread_id: thread.thread_id });
    return thread;
  }

  async getThread(threadId: string): Promise<ThreadDetail | undefined> {
    const [detail, view] = await Promise.all([
      this.threads.detail(threadId),
      checkpointView(this.checkpointer, threadId),
    ]);
    if (!detail) return undefined;
    return {
      ...detail,
      entries: composeHistory(detail.entries, view?.messages),
      artifacts: view?.artifacts ?? [],
      todos: view?.todos ?? [],
    };
  }

  async importDeerFlowThread(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary> {
    let plan: DeerFlowImportPlan;
    try {
      plan = planDeerFlowImport(input);
    } catch (error) {
      if (error instanceof DeerFlowImportError) throw new GatewayError(error.message);
      throw error;
    }
    const firstUserMessage = plan.messages.find((message) => message.type === "human");
    const title = plan.title ?? fallbackTitle(firstUserMessage ? contentText(firstUserMessage.content) : "");
    const values = {
      messages: plan.messages.map(fromWireMessage),
      ...(plan.artifacts.length > 0 && { artifacts: plan.artifacts }),
      ...(plan.todos.length > 0 && { todos: plan.todos }),
    };
    const now = Date.now();
    const store = async (threadId: string): Promise<ThreadSummary> => {
      const thread: ThreadSummary = {
        thread_id: threadId,
        title,
        created_at: plan.createdAt ?? now,
        updated_at: now,
        status: "idle",
      };
      await this.writing(() =>
        this.importer.write({ thread, values, files: plan.files, searchText: searchableText(plan.messages) }),
      );
      return thread;
    };
    // DeerFlow's id is kept when it is valid and free; another tab may take it meanwhile, then a new one is used.
    const source = plan.sourceThreadId;
    const keep = source !== undefined && THREAD_ID.test(source) && !(await this.threads.get(source));
    let thread: ThreadSummary;
    try {
      thread = await store(keep ? source : newId());
    } catch (error) {
      if (!(error instanceof ThreadIdTakenError)) throw error;
      thread = await store(newId());
    }
    this.notify({ type: "thread-changed", thread_id: thread.thread_id });
    return thread;
  }

  async readThreadFile(threadId: string, path: string): Promise<ThreadFileContent> {
    const file = typeof path === "string" ? await this.files.read(threadId, path) : undefined;
    if (!file) throw new GatewayError(`This thread has no file ${JSON.stringify(path)}.`);
    return { path, bytes: file.bytes, mime_type: file.meta.mimeType };
  }

  async uploadFiles(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult> {
    if (
      !Array.isArray(files) ||
      files.some((file) => typeof file?.name !== "string" || !(file.bytes instanceof Uint8Array))
    ) {
      throw new GatewayError("An upload is a list of files, each with a name and its bytes.");
    }
    if (!(await this.threads.get(threadId))) throw new GatewayError(`There is no thread with id ${threadId}.`);
    let result: UploadResult;
    try {
      // The service reports a full storage itself, as an UploadError.
      result = await this.uploads.upload(threadId, files);
    } catch (error) {
      if (error instanceof UploadError) throw new GatewayError(error.message);
      throw error;
    }
    // An open sandbox holds the files it loaded: the next command loads them again, uploads included.
    await this.sandboxes.close(threadId);
    this.notify({ type: "thread-changed", thread_id: threadId });
    return result;
  }

  async renameThread(threadId: string, title: string): Promise<ThreadSummary> {
    const clean = title.replace(/\s+/g, " ").trim();
    if (clean.length === 0 || clean.length > 200) throw new GatewayError("A thread title is 1 to 200 characters.");
    const updated = await this.writing(() => this.threads.update(threadId, { title: clean }));
    if (!updated) throw new GatewayError(`There is no thread with id ${threadId}.`);
    this.notify({ type: "thread-changed", thread_id: threadId });
    return updated;
  }

  async pinThread(threadId: string, pinned: boolean): Promise<ThreadSummary> {
    const updated = await this.writing(() => this.threads.update(threadId, { pinned }));
    if (!updated) throw new GatewayError(`There is no thread with id ${threadId}.`);
    this.notify({ type: "thread-changed", thread_id: threadId });
    return updated;
  }

  async deleteThread(threadId: string): Promise<void> {
    if (this.runningThreads.has(threadId))
      throw new GatewayError("Stop the running reply before deleting the thread.", 409);
    // Another tab's run holds the thread's lock. Holding it while deleting also keeps a run from starting meanwhile.
    const release = await tryLockThread(threadId);
    if (!release) throw new GatewayError(THREAD_RUNNING_ELSEWHERE, 409);
    try {
      await this.threads.delete(threadId);
    } finally {
      release();
    }
    await this.sandboxes.close(threadId);
    this.notify({ type: "thread-deleted", thread_id: threadId });
  }

  sandboxInfo(threadId: string): Promise<SandboxInfo> {
    return this.sandboxes.info(threadId);
  }

  async getSandboxSettings(): Promise<SandboxSettings> {
    const stored = (await this.settings.get(SANDBOX_SETTINGS_KEY)) as Partial<SandboxSettings> | undefined;
    return { provider: stored?.provider === "webcontainer" ? "webcontainer" : "browser" };
  }

  async saveSandboxSettings(settings: SandboxSettings): Promise<SandboxSettings> {
    if (settings?.provider !== "browser" && settings?.provider !== "webcontainer") {
      throw new GatewayError('The sandbox is "browser" or "webcontainer".');
    }
    const saved: SandboxSettings = { provider: settings.provider };
    await this.writing(() => this.settings.put(SANDBOX_SETTINGS_KEY, saved));
    this.sandboxes.providerChanged(saved.provider);
    this.notify({ type: "settings-changed" });
    return saved;
  }

  async attachPythonHost(host: PythonHostHandle): Promise<void> {
    this.sandboxes.attachPythonHost(host);
  }

  async attachSandboxHost(host: SandboxHostHandle | null, notice?: string): Promise<void> {
    this.sandboxes.attachSandboxHost(host, notice);
  }

  sandboxExec(request: SandboxCommandRequest): Promise<SandboxCommandResult> {
    return this.sandboxes.exec(request);
  }

  async cancelSandboxCommand(commandId: string): Promise<void> {
    this.sandboxes.cancel(commandId);
  }

  async getModelSettings(): Promise<ModelSettings> {
    const { value, apiKeys } = await this.settings.getWithApiKeys(MODEL_ENDPOINT_KEY);
    const stored = (value ?? {}) as { endpoints?: unknown };
    const endpoints = Array.isArray(stored.endpoints)
      ? stored.endpoints.map((endpoint: unknown) => {
          const id = (endpoint as { id?: unknown } | null)?.id;
          return { ...(endpoint as object), apiKey: (typeof id === "string" && apiKeys.get(id)) || "" };
        })
      : undefined;
    const parsed = parseModelSettings({ ...stored, apiKey: apiKeys.get("") ?? "", ...(endpoints && { endpoints }) });
    return parsed.ok ? parsed.value : { ...EMPTY_MODEL_SETTINGS };
  }

  async saveModelSettings(settings: ModelSettings): Promise<ModelSettings> {
    const parsed = parseModelSettings(settings);
    if (!parsed.ok) throw new GatewayError(parsed.message);
    // Keys apart from the settings (they never reach a backup): the main one's and each other endpoint's.
    const { apiKey, endpoints, ...main } = parsed.value;
    const apiKeys = new Map([["", apiKey]]);
    for (const endpoint of endpoints ?? []) apiKeys.set(endpoint.id, endpoint.apiKey);
    const value = {
      ...main,
      ...(endpoints && { endpoints: endpoints.map(({ apiKey: _key, ...endpoint }) => endpoint) }),
    };
    await this.writing(() => this.settings.putWithApiKeys(MODEL_ENDPOINT_KEY, value, apiKeys));
    this.notify({ type: "settings-changed" });
    return parsed.value;
  }

  async getWebToolSettings(): Promise<WebToolSettings> {
    const [search, fetch] = await Promise.all([
      this.settings.getWithApiKey(WEB_SEARCH_KEY),
      this.settings.getWithApiKey(WEB_FETCH_KEY),
    ]);
    const { proxyUrl, ...searchValue } = (search.value ?? {}) as Record<string, unknown>;
    return readWebToolSettings({
      search: { ...searchValue, apiKey: search.apiKey ?? "" },
      fetch: { ...(fetch.value as object | undefined), apiKey: fetch.apiKey ?? "" },
      ...(proxyUrl !== undefined && { proxyUrl }),
    });
  }

  async saveWebToolSettings(settings: WebToolSettings): Promise<WebToolSettings> {
    const parsed = parseWebToolSettings(settings);
    if (!parsed.ok) throw new GatewayError(parsed.message);
    const { search, fetch, proxyUrl } = parsed.value;
    const { apiKey: searchKey, ...searchValue } = search;
    const { apiKey: fetchKey, ...fetchValue } = fetch;
    await this.writing(() =>
      this.settings.putAllWithApiKeys([
        { key: WEB_SEARCH_KEY, value: { ...searchValue, ...(proxyUrl && { proxyUrl }) }, apiKey: searchKey },
        { key: WEB_FETCH_KEY, value: fetchValue, apiKey: fetchKey },
      ]),
    );
    this.notify({ type: "settings-changed" });
    return parsed.value;
  }

  async listModels(endpoint: Pick<ModelSettings, "baseUrl" | "apiKey" | "useProxy">): Promise<string[]> {
    const parsed = parseModelSettings({ ...endpoint, model: "any" });
    if (!parsed.ok) throw new GatewayError(parsed.message);
    const { proxyUrl } = await this.getWebToolSettings();
    try {
      return await fetchModelIds(settingsForRun(parsed.value, undefined, proxyUrl), this.fetchImpl);
    } catch (error) {
      // The key being tried may not be stored yet: it is kept out of the message as well as the stored ones.
      const secrets = [parsed.value.apiKey, ...(await this.settings.secretValues())];
      const described = describeModelError(error, parsed.value.baseUrl, { proxied: parsed.value.useProxy === true });
      throw new GatewayError(redactSecrets(described.message, secrets));
    }
  }

  async runStream(request: RunRequest, onEvent: RunEventListener): Promise<void> {
    const controller = new AbortController();
    this.runs.set(request.run_id, controller);
    // Listener failures (a closed page) must not break the run: its history is still saved.
    const emit = (event: RunEvent): void => {
      try {
        void Promise.resolve(onEvent(event)).catch(() => undefined);
      } catch {
        // ignored, see above
      }
    };
    const refuse = (message: string): void => {
      emit({ event: "metadata", data: { run_id: request.run_id, thread_id: request.thread_id } });
      emit({ event: "error", data: { error: "busy", message } });
      emit({ event: "end", data: { status: "error" } });
    };
    try {
      if (this.runningThreads.has(request.thread_id)) return refuse("This thread is already running a reply.");
      const release = await tryLockThread(request.thread_id);
      if (!release) {
        return refuse("This thread is running a reply in another tab. Wait for it to finish, or stop it there.");
      }
      this.runningThreads.add(request.thread_id);
      const startedAt = Date.now();
      let secrets: readonly string[] = [];
      let known = false;
      let model = "";
      let status: RunRecord["status"] = "error";
      let failure: RunError | undefined;
      const track = (event: RunEvent): void => {
        if (event.event === "end") status = event.data.status;
        if (event.event === "error") failure = event.data;
        emit(event);
      };
      const record = (): RunRecord => ({
        thread_id: request.thread_id,
        run_id: request.run_id,
        status,
        created_at: startedAt,
        updated_at: Date.now(),
        ...(model ? { model } : {}),
        ...(failure ? { error: failure } : {}),
      });
      try {
        const [allSettings, webTools, thread, memory, skills, subagents, storedSecrets] = await Promise.all([
          this.getModelSettings(),
          this.getWebToolSettings(),
          this.threads.get(request.thread_id),
          this.memory.promptSection(),
          this.skills.list(),
          this.getSubagentSettings(),
          this.settings.secretValues(),
        ]);
        secrets = storedSecrets;
        // The endpoint and model the user chose for this message, through the proxy when the endpoint needs it.
        const settings = settingsForRun(allSettings, request.context, webTools.proxyUrl);
        model = settings.model;
        known = thread !== undefined;
        if (known) await this.threads.recordRun({ ...record(), status: "running" });
        if (known) await this.threadSearch.invalidate(request.thread_id);
        await executeRun(
          {
            threads: this.threads,
            checkpointer: this.checkpointer,
            settings,
            createModel: this.createModel,
            webTools,
            memory,
            skills,
            subagents,
            secrets,
            activateSkill: (text: string) => this.skills.activation(text),
            onRunSaved: (threadId, messages) => this.memory.learnFrom(threadId, messages),
            ...(this.retry && { retry: this.retry }),
            sandbox: (threadId: string) => this.sandboxes.open(threadId),
            onThreadChanged: (threadId) => this.notify({ type: "thread-changed", thread_id: threadId }),
          },
          request,
          track,
          controller.signal,
        );
      } catch (error) {
        // executeRun emits `end` as its very last step, so a throw means it has not been sent yet.
        const data = isQuotaError(error)
          ? { error: "storage_full" as const, message: STORAGE_FULL_MESSAGE }
          : {
              error: "unknown" as const,
              message: redactSecrets(
                `The run failed: ${error instanceof Error ? error.message : String(error)}`,
                secrets,
              ),
            };
        track({ event: "error", data });
        track({ event: "end", data: { status: "error" } });
      } finally {
        if (known) await this.threads.recordRun(record()).catch(() => undefined);
        if (known) await this.threadSearch.index(request.thread_id).catch(() => undefined);
        this.runningThreads.delete(request.thread_id);
        await this.sandboxes.runEnded(request.thread_id);
        release();
      }
    } finally {
      this.runs.delete(request.run_id);
    }
  }

  getMemory(): Promise<MemoryDocument> {
    return this.memory.get();
  }

  addMemoryFact(fact: MemoryFactInput & { content: string }): Promise<MemoryDocument> {
    return this.memoryChange(() => this.memory.addFact(fact));
  }

  updateMemoryFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument> {
    return this.memoryChange(() => this.memory.updateFact(id, patch));
  }

  deleteMemoryFact(id: string): Promise<MemoryDocument> {
    return this.memoryChange(() => this.memory.deleteFact(id));
  }

  clearMemory(): Promise<MemoryDocument> {
    return this.memoryChange(() => this.memory.clear());
  }

  importMemory(document: unknown): Promise<MemoryDocument> {
    return this.memoryChange(() => this.memory.import(document));
  }

  getMemorySettings(): Promise<MemorySettings> {
    return this.memory.getSettings();
  }

  async saveMemorySettings(settings: MemorySettings): Promise<MemorySettings> {
    const saved = await this.memoryChange(() => this.memory.saveSettings(settings));
    return saved;
  }

  /** Applies memory updates still waiting for their delay (tests; a page about to close). */
  flushMemory(): Promise<void> {
    return this.memory.flush();
  }

  listSkills(): Promise<SkillInfo[]> {
    return this.skills.list();
  }

  setSkillEnabled(name: string, enabled: boolean): Promise<SkillInfo> {
    return this.skillChange(() => this.skills.setEnabled(name, enabled));
  }

  installSkill(archive: { name: string; bytes: Uint8Array }): Promise<SkillInfo> {
    if (typeof archive?.name !== "string" || !(archive.bytes instanceof Uint8Array)) {
      throw new GatewayError("A skill archive is a file name and its bytes.");
    }
    return this.skillChange(() => this.skills.install(archive.name, archive.bytes));
  }

  async installSkillFromThread(threadId: string, path: string): Promise<SkillInfo> {
    const file = await this.readThreadFile(threadId, path);
    const name = path.split("/").at(-1) ?? path;
    return this.skillChange(() => this.skills.install(name, file.bytes));
  }

  deleteSkill(name: string): Promise<void> {
    return this.skillChange(() => this.skills.delete(name));
  }

  async getSubagentSettings(): Promise<SubagentSettings> {
    const parsed = parseSubagentSettings((await this.settings.get(SUBAGENT_SETTINGS_KEY)) ?? {});
    return parsed.ok ? parsed.value : { ...DEFAULT_SUBAGENT_SETTINGS, custom: [] };
  }

  async saveSubagentSettings(settings: SubagentSettings): Promise<SubagentSettings> {
    const parsed = parseSubagentSettings(settings);
    if (!parsed.ok) throw new GatewayError(parsed.message);
    await this.writing(() => this.settings.put(SUBAGENT_SETTINGS_KEY, parsed.value));
    this.notify({ type: "settings-changed" });
    return parsed.value;
  }

  /** A memory change, its request errors made readable, other tabs told. */
  private async memoryChange<T>(change: () => Promise<T>): Promise<T> {
    try {
      const result = await this.writing(change);
      this.notify({ type: "memory-changed" });
      return result;
    } catch (error) {
      if (error instanceof MemoryRequestError) throw new GatewayError(error.message);
      throw error;
    }
  }

  /** A skills change: open sandboxes are closed so their next command mounts the skills as they are now. */
  private async skillChange<T>(change: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await this.writing(change);
    } catch (error) {
      if (error instanceof SkillRequestError) throw new GatewayError(error.message, error.status);
      throw error;
    }
    // A running thread keeps its sandbox until the run ends (see runStream).
    await this.sandboxes.closeIdle();
    this.notify({ type: "settings-changed" });
    return result;
  }

  /** Runs a write, turning a full-storage failure into a message for the user. */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isQuotaError(error)) throw new GatewayError(STORAGE_FULL_MESSAGE, 409);
      throw error;
    }
  }

  /** The thread's runs, oldest first, with their status and error. */
  listRuns(threadId: string): Promise<RunRecord[]> {
    return this.threads.runs(threadId);
  }

  async cancelRun(runId: string): Promise<void> {
    this.runs.get(runId)?.abort();
  }

  // ---- Thread search (issue 7): titles and message text, over the search index ----

  async searchThreads(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    if (typeof query !== "string") throw new GatewayError("A search query is a string.");
    return this.threadSearch.search(query, options ?? {});
  }

  /** The thread's messages as the user sees them (checkpointed, or stored before checkpoints); undefined if gone. */
  private async visibleMessages(threadId: string): Promise<WireMessage[] | undefined> {
    const thread = await this.getThread(threadId);
    return thread?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
  }

  /** visibleMessages for many threads: one read for all threads from before checkpoints, one each for the others. */
  private async visibleMessagesOf(threadIds: readonly string[]): Promise<Map<string, WireMessage[]>> {
    const histories = await this.threads.histories(threadIds);
    const messages = new Map<string, WireMessage[]>();
    await Promise.all(
      [...histories].map(async ([threadId, { entries, checkpointed }]) => {
        const view = checkpointed ? await checkpointView(this.checkpointer, threadId) : undefined;
        const history = composeHistory(entries, view?.messages);
        messages.set(
          threadId,
          history.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])),
        );
      }),
    );
    return messages;
  }

  // ---- Settings → Data (issue 7): export, import and deletion of everything ----

  exportData(): Promise<DataExport> {
    return this.data.export();
  }

  async importData(
    archive: Blob | Uint8Array,
    options: { acceptAddressChanges?: boolean } = {},
  ): Promise<DataImportAnswer> {
    let outcome;
    try {
      const accept = options?.acceptAddressChanges === true;
      outcome = await this.writing(() => this.data.import(archive, { acceptAddressChanges: accept }));
    } catch (error) {
      if (error instanceof DataRequestError) throw new GatewayError(error.message);
      throw error;
    }
    // Nothing was written: the UI asks the user about the addresses, then imports again.
    if (needsConfirmation(outcome)) return outcome;
    // One notice for all of them: each makes every tab read the whole list again.
    if (outcome.threadIds.length > 0) this.notify({ type: "threads-replaced" });
    if (outcome.memoryChanged) this.notify({ type: "memory-changed" });
    if (outcome.settingsChanged || outcome.skillsChanged) {
      // Open sandboxes mount the skills and follow the sandbox setting as they were: their next command reopens.
      await this.sandboxes.closeIdle();
      this.notify({ type: "settings-changed" });
    }
    return outcome.result;
  }

  async deleteAllData(): Promise<void> {
    if (this.runningThreads.size > 0) {
      throw new GatewayError("Stop the running reply before deleting all data.", 409);
    }
    if (await anyThreadRunning()) throw new GatewayError(DATA_IN_USE_ELSEWHERE, 409);
    // Memory updates still waiting would write facts back after the deletion.
    await this.memory.clear();
    const threadIds = await this.writing(() => this.data.deleteAll());
    await this.sandboxes.closeAll();
    if (threadIds.length > 0) this.notify({ type: "threads-replaced" });
    this.notify({ type: "memory-changed" });
    this.notify({ type: "settings-changed" });
  }
}
