// The UI ⇄ agent-worker contract: typed Gateway methods over comlink, versioned, plain data only.
import type { DataExport, DataImportAnswer } from "./data-backup.ts";
import type { MessageContent, UploadedFileRef, WireMessage } from "./messages.ts";
import type { RunError, RunEvent } from "./run-events.ts";
import type { MemoryDocument, MemoryFactInput, MemorySettings } from "./memory.ts";
import type { SkillInfo } from "./skills.ts";
import type { McpConfigImport, McpConnectionTest, McpServerEntry, McpSignInAnswer, McpSignInStart } from "./mcp.ts";
import type { SharedThreadBundle, ThreadShareLink } from "./thread-share.ts";
import type { SubagentSettings } from "./subagents.ts";
import type { UploadResult } from "./uploads.ts";
import type { WebToolSettings } from "./web-tools.ts";
import type { ApprovalDecision, ForeignContent } from "./foreign-content.ts";
import type { ListedModel, ModelProvider, ReasoningStyle } from "./model-providers.ts";

/** Bump when a method or a data shape changes incompatibly. */
export const PROTOCOL_VERSION = 1;

export type ThreadStatus = "idle" | "busy" | "error";

export interface ThreadSummary {
  thread_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  status: ThreadStatus;
  /** Pinned threads are listed first. */
  pinned?: boolean;
  /**
   * A thread imported from a bundle or a link: it is read and replayed, not replied to; "Continue this thread"
   * copies it into a thread of the user's own, which runs on the user's model.
   */
  read_only?: boolean;
  /**
   * The checkpoint the thread shows and continues from, when the user moved to a version that is not the latest
   * (Previous/Next version); absent: the latest. Kept across reloads: the thread opens on the branch last shown.
   */
  head?: string;
  /**
   * The thread holds another person's messages ("Continue this thread", a DeerFlow import): they reach the model as a
   * quoted transcript, memory is off here unless turned on, and tools that send data out ask first.
   */
  foreign?: ForeignContent;
  /** Tools the user answered "Allow for this thread" for: they no longer ask in this thread. */
  approved_tools?: string[];
}

/** Why an imported thread takes no new message. */
export const READ_ONLY_THREAD =
  "This thread was imported to be read: choose Continue this thread to reply in a copy of your own.";

/**
 * A shared thread opened to be read before it is imported (a share link, a `.fawn` opened with or shared to the app):
 * its bundle and what it holds, and the thread as an import would show it, read-only. Its `thread_id` is a reading id
 * of its own (`shared-…`), never a stored thread's: `readThreadFile` reads the bundle's files under it until
 * `closeSharedThread`. Nothing of it is stored.
 */
export interface SharedThreadReading extends SharedThreadBundle {
  thread: ThreadDetail;
}

/** One item of a thread's history as the user sees it. */
export type ThreadEntry =
  | { kind: "message"; message: WireMessage; stopped?: boolean }
  | { kind: "error"; id: string; error: RunError; at: number };

export interface ThreadDetail extends ThreadSummary {
  entries: ThreadEntry[];
  /** Files the agent presented (`present_files`), by virtual path under /mnt/user-data/outputs, in order. */
  artifacts?: string[];
  /** The agent's latest plan (plan mode), as of the last checkpoint. */
  todos?: TodoItem[];
  /** The versions of user messages (edits) and of replies (regenerations), by the id of the turn's user message. */
  versions?: Record<string, TurnVersions>;
  /** The last run was cut off (page closed, crash, network) before it finished: "Continue" resumes it. */
  resumable?: boolean;
}

/** Where one version stands among its siblings, and the runs "Previous version" and "Next version" show. */
export interface VersionChoice {
  /** 1-based. */
  index: number;
  count: number;
  previous?: string;
  next?: string;
}

/** A turn's versions: of its user message (edits) and of its reply (regenerations of the same message). */
export interface TurnVersions {
  prompt?: VersionChoice;
  reply?: VersionChoice;
}

/** A thread's saved steps, oldest first, for replaying it; each step names its messages by id. */
export interface ThreadReplay {
  /** Every message some step shows, as last saved. */
  messages: WireMessage[];
  steps: ReplayStep[];
}

/** What the thread showed after one saved step: its messages, plan and presented files. */
export interface ReplayStep {
  message_ids: string[];
  todos: TodoItem[];
  artifacts: string[];
}

// Thread search: what the Gateway answers for a query over thread titles and message text.

/** `[start, end)` character ranges of a text that match the query, for marking them. */
export type TextHighlights = [number, number][];

export interface ThreadSearchHit {
  thread: ThreadSummary;
  /** Where the query's words are in the title. */
  title_highlights: TextHighlights;
  /** A short passage of the thread's messages around the first match, when its messages match. */
  snippet?: { text: string; highlights: TextHighlights };
}

export interface ThreadSearchResult {
  query: string;
  /** Matching threads in the list's order (pinned first, then by recent activity), at most the limit asked for. */
  hits: ThreadSearchHit[];
  /** How many threads match in all. */
  total: number;
  /** Older threads are still being indexed: their messages may match once that is done. */
  indexing: boolean;
}

/** What Thread actions → Export writes: a Fawn bundle (.fawn), a Markdown transcript, or DeerFlow's thread.json. */
export type ThreadExportFormat = "fawn" | "markdown" | "deerflow";

/** An exported thread, ready to download. */
export interface ThreadExport {
  file_name: string;
  blob: Blob;
}

/** The most hits one search returns. */
export const MAX_THREAD_SEARCH_LIMIT = 200;

/** One of a thread's files, for download or preview. */
export interface ThreadFileContent {
  path: string;
  bytes: Uint8Array;
  mime_type: string;
}

/** What a model of the endpoint can do, as the user declared it in Settings → Models. */
export interface ModelEntry {
  id: string;
  /** It can reason before answering (reasoning_effort is sent in the Thinking, Pro and Ultra modes). */
  thinking?: boolean;
  /** It reads images (the agent gets `view_image`). */
  vision?: boolean;
  /** How it is asked to reason; absent: detected from the provider and the id (`reasoningStyleOf`). */
  reasoning?: ReasoningStyle;
  /** Input tokens it takes, from the provider's model list or typed in Settings; absent: unknown. */
  contextWindow?: number;
  /** `false` when it cannot call tools (from the provider's model list or Settings); absent: it can. */
  tools?: boolean;
}

/** A model endpoint with its own provider, key and models (Settings → Models). */
export interface ModelEndpoint {
  /** Stable id (lowercase letters, digits, dashes), how runs and the composer name it. */
  id: string;
  name: string;
  /** The API it speaks; absent means OpenAI-compatible (settings saved before providers), parsed settings have it. */
  provider?: ModelProvider;
  baseUrl: string;
  apiKey: string;
  /** At least one. */
  models: ModelEntry[];
  /** Requests go through Fawn's CORS relay (Settings → Proxy), for providers that refuse browsers. */
  useProxy?: boolean;
}

/** The endpoints the agent talks to (Settings → Models), all alike, and which of their models is the default. */
export interface ModelSettings {
  /** In the order Settings and the composer list them; API keys are kept apart from the settings, never exported. */
  endpoints: ModelEndpoint[];
  /** The model new messages and memory updates use: one of an endpoint's. Set whenever there is an endpoint. */
  defaultModel?: { endpoint: string; model: string };
  /** Name each thread with a short model-written title after its first exchange (one small extra request). */
  modelTitles?: boolean;
}

/** Fawn's CORS relay (Settings → Proxy), for model endpoints and web services that refuse browsers. */
export interface ProxySettings {
  /** The relay's prefix, e.g. `http://127.0.0.1:8787/forward/`; absent: endpoints use the default relay, web none. */
  url?: string;
  /**
   * The secret `npm run proxy` keeps in its token file, sent (X-Fawn-Proxy-Token) on every request to the proxy's
   * origin and nowhere else. Kept with the API keys: never in a backup or a bundle.
   */
  token?: string;
}

/** One endpoint's model as a run talks to it: the endpoint's address and key, the model, and its abilities. */
export interface ModelTarget {
  /** The endpoint's name. */
  name: string;
  /** The API the endpoint speaks; absent means OpenAI-compatible. */
  provider?: ModelProvider;
  /** Already through the proxy when the endpoint uses it. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The endpoint's models (the run's abilities come from its entry). */
  models: ModelEntry[];
  useProxy?: boolean;
  /** The proxy's token, when `useProxy` and one is set: sent only to the proxy (src/shared/proxy-token.ts). */
  proxyToken?: string;
  modelTitles?: boolean;
  /** The model's context window in tokens when known (the model list or Settings); readers default it (128,000). */
  contextWindow?: number;
}

/** Fawn's CORS relay as `npm run proxy` starts it, used when Settings → Proxy names no other. */
export const DEFAULT_PROXY_URL = "http://127.0.0.1:8787/forward/";

/** `baseUrl` through the relay at `proxyUrl` (the relay takes the target URL after its prefix). */
export function proxiedUrl(baseUrl: string, proxyUrl: string | undefined): string {
  const prefix = proxyUrl?.trim() || DEFAULT_PROXY_URL;
  return `${prefix.endsWith("/") ? prefix : `${prefix}/`}${baseUrl}`;
}

/** One model the composer offers. */
export interface ModelChoice {
  /** Unique across endpoints: `@endpoint-id:model-id`. */
  key: string;
  endpoint: string;
  endpointName: string;
  entry: ModelEntry;
}

/** The composer's key of an endpoint's model. */
export function modelChoiceKey(endpoint: string, model: string): string {
  return `@${endpoint}:${model}`;
}

/** Every model of every endpoint, in order; none until a default model is set. */
export function modelChoices(settings: ModelSettings | undefined): ModelChoice[] {
  if (!settings?.defaultModel) return [];
  return settings.endpoints.flatMap((endpoint) =>
    endpoint.models.map((entry) => ({
      key: modelChoiceKey(endpoint.id, entry.id),
      endpoint: endpoint.id,
      endpointName: endpoint.name,
      entry,
    })),
  );
}

/** The key of the default model, when its endpoint still lists it. */
export function defaultModelKey(settings: ModelSettings | undefined): string | undefined {
  const chosen = settings?.defaultModel;
  if (!chosen) return undefined;
  const holder = settings.endpoints.find((endpoint) => endpoint.id === chosen.endpoint);
  return holder?.models.some((entry) => entry.id === chosen.model)
    ? modelChoiceKey(holder.id, chosen.model)
    : undefined;
}

/**
 * The choice with `key`, else the default model. A bare model id (what threads and requests carried before every
 * endpoint had a key) is the first endpoint's model of that id, in Settings' order.
 */
export function modelChoiceFor(settings: ModelSettings | undefined, key: string | undefined): ModelChoice | undefined {
  const choices = modelChoices(settings);
  const exact = choices.find((choice) => choice.key === key);
  if (exact) return exact;
  const byId = key && !key.startsWith("@") ? choices.find((choice) => choice.entry.id === key) : undefined;
  if (byId) return byId;
  const fallback = defaultModelKey(settings);
  return choices.find((choice) => choice.key === fallback);
}

/**
 * DeerFlow's modes: Flash answers fast; Thinking adds reasoning; Pro adds a plan (`write_todos`); Ultra adds
 * subagents. Reasoning applies only to models marked `thinking`.
 */
export type AgentMode = "flash" | "thinking" | "pro" | "ultra";

export const AGENT_MODES: readonly AgentMode[] = ["flash", "thinking", "pro", "ultra"];

/** The mode a new thread starts in: Pro for a model that reasons, else Flash (DeerFlow's default). */
export function defaultMode(entry: ModelEntry | undefined): AgentMode {
  return entry?.thinking ? "pro" : "flash";
}

/** One item of the agent's plan (plan mode's `write_todos`). */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** True for a well-formed plan item (checkpoints and run events are read as untrusted data). */
export function isTodoItem(value: unknown): value is TodoItem {
  if (typeof value !== "object" || value === null) return false;
  const { content, status } = value as Record<string, unknown>;
  return typeof content === "string" && (status === "pending" || status === "in_progress" || status === "completed");
}

export interface RunRequest {
  /** Chosen by the caller so it can cancel before the first event arrives. */
  run_id: string;
  thread_id: string;
  input: { messages: { type: "human"; content: MessageContent; files?: UploadedFileRef[] }[] };
  /** How to run: the mode and the model (one of Settings → Models); defaults to Flash and the default model. */
  /** `endpoint`: the id of the endpoint `model` belongs to; without it, `model` is looked up as modelChoiceFor does. */
  context?: { mode?: AgentMode; model?: string; endpoint?: string };
  /**
   * What the run does to the history (absent: adds the message at the end). `edit`: the thread forks before the
   * user message `message_id` and runs `input` instead of it; `regenerate`: forks there and runs the same message
   * again (`input` is ignored); `resume`: continues a run that was cut off from its last saved step (no input).
   */
  branch?: { kind: "edit" | "regenerate"; message_id: string } | { kind: "resume" };
}

export type RunEventListener = (event: RunEvent) => void;

/**
 * Receives a run's events a batch at a time, in order. A listener that returns a promise is sent its next batch only
 * once it settles (the page, once it has drawn the last batch); events wait, joined, meanwhile.
 */
export type RunEventBatchListener = (events: RunEvent[]) => void | Promise<void>;

/** One command line typed into a thread's Terminal. */
export interface SandboxCommandRequest {
  /** Chosen by the caller so it can cancel the command (Ctrl+C). */
  command_id: string;
  thread_id: string;
  command: string;
  /** The terminal's working directory and exported variables, carried from the previous command. */
  cwd?: string;
  env?: Record<string, string>;
}

export interface SandboxCommandResult {
  stdout: string;
  stderr: string;
  exit_code: number;
  /** The working directory and environment after the command, for the next one. */
  cwd: string;
  env: Record<string, string>;
  /** Set when the sandbox ended the command (time limit, execution limits, Ctrl+C). */
  stopped?: "timeout" | "cancelled" | "limit";
}

/** Which sandbox runs the threads' commands (Settings → Sandbox). */
export interface SandboxSettings {
  /** `browser`: just-bash and Pyodide, offline. `webcontainer`: StackBlitz's WebContainer, Node.js and npm, online. */
  provider: "browser" | "webcontainer";
}

/**
 * The page's WebContainer host (src/sandbox/webcontainer/page-sandbox-server.ts `PageSandboxServer`) as a comlink proxy.
 * Opaque here: the protocol carries it, only the worker's sandbox layer uses it.
 */
export type SandboxHostHandle = object;

/**
 * The page's Python frames (src/sandbox/python/page/python-frame-host.ts `PythonFrameHost`) as a comlink proxy: only a
 * page can start the walled-off worker python3 runs in. Opaque here, like SandboxHostHandle.
 */
export type PythonHostHandle = object;

export interface SandboxInfo {
  /** Which provider runs this thread's commands. */
  kind: "browser" | "webcontainer";
  /** Where a new terminal starts. */
  cwd: string;
  /** Shown when the requested provider could not be used (e.g. WebContainer failed to boot). */
  notice?: string;
}

export interface GatewayApi {
  protocolVersion(): Promise<number>;
  listThreads(): Promise<ThreadSummary[]>;
  /** Creates a thread, with the given id when there is one (DeerFlow's rule: 1–64 of `A-Za-z0-9_-`). */
  createThread(options?: { thread_id?: string }): Promise<ThreadSummary>;
  getThread(threadId: string): Promise<ThreadDetail | undefined>;
  /**
   * Imports a DeerFlow thread: its thread.json (parsed) and the files of its folder, by their path in it
   * (`user-data/outputs/report.md`; only workspace, uploads and outputs). All of it is checked first (schema, paths,
   * at most 2,000 files and 200 MB); a bad import is refused with one sentence naming the problem and nothing is
   * written. The thread keeps DeerFlow's id when that is free, its title, messages, presented files and plan.
   */
  importDeerFlowThread(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary>;
  /** A file of the thread (workspace, uploads or outputs); rejects with a readable message when there is none. */
  readThreadFile(threadId: string, path: string): Promise<ThreadFileContent>;
  /** The thread as a file: a `.fawn` bundle (messages, state, checkpoint history and files; no keys or settings). */
  exportThread(threadId: string, format: ThreadExportFormat): Promise<ThreadExport>;
  /**
   * Imports a `.fawn` bundle as a thread of this browser's, checked whole first and written in one transaction; an id
   * already here gets a new one. Rejects with one sentence and writes nothing when the bundle is not valid.
   */
  importThreadBundle(archive: Blob | Uint8Array): Promise<ThreadSummary>;
  /**
   * "Continue this thread": copies a thread (an imported, read-only one) into a new thread of the user's own, with its
   * messages, history and files; its next message runs on the model the user picks.
   */
  continueThread(threadId: string): Promise<ThreadSummary>;
  /** The thread's saved steps, oldest first, to play it back step by step. */
  threadReplay(threadId: string): Promise<ThreadReplay>;
  /** Shows the version a run made (VersionChoice's previous/next), with its latest continuation, files included. */
  showVersion(threadId: string, runId: string): Promise<void>;
  /** Settings → Tools: the MCP servers, each with its secrets (a bearer token, header values). */
  getMcpServers(): Promise<McpServerEntry[]>;
  /**
   * Stores the MCP servers in place of the ones there were; a bad entry is refused with one sentence naming the server
   * and nothing changes. Secrets are kept apart and never exported.
   */
  saveMcpServers(servers: McpServerEntry[]): Promise<McpServerEntry[]>;
  /** "Test connection": the server's tools, or the sentence saying why it could not be reached. */
  testMcpServer(server: McpServerEntry): Promise<McpConnectionTest>;
  /** The names of the stored MCP servers signed in with OAuth (their tokens are kept as secrets, never exported). */
  getMcpSignIns(): Promise<string[]>;
  /**
   * "Sign in" for a server that wants OAuth: the authorization page to open (oauth-callback.html brings the answer
   * back), or `signedIn` when its stored tokens still work. Rejects with one sentence when the server's sign-in
   * cannot begin.
   */
  beginMcpSignIn(server: McpServerEntry): Promise<McpSignInStart>;
  /** Finishes the sign-in whose state the answer carries (code → tokens, saved as secrets); names the server. */
  finishMcpSignIn(answer: McpSignInAnswer): Promise<{ server: string }>;
  /** "Sign out": forgets the server's OAuth tokens and registration. */
  signOutMcpServer(name: string): Promise<void>;
  /** Reads DeerFlow's `extensions_config.json` (or an `mcpServers` object) for the form; nothing is stored. */
  importMcpConfig(text: string): Promise<McpConfigImport>;
  /** The MCP servers as DeerFlow's `extensions_config.json`, without a secret. */
  exportMcpConfig(): Promise<{ file_name: string; blob: Blob }>;
  /** Renames a thread; the title is trimmed, 1 to 200 characters. */
  renameThread(threadId: string, title: string): Promise<ThreadSummary>;
  /** Pins or unpins a thread; pinned threads come first in the list. */
  pinThread(threadId: string, pinned: boolean): Promise<ThreadSummary>;
  deleteThread(threadId: string): Promise<void>;
  /**
   * Threads whose title or messages hold every word of `query` (case-insensitive; a word matches the start of a word
   * in the messages, anywhere in the title), in the list's order, with a passage around the match (limit: 50, at
   * most 200).
   */
  searchThreads(query: string, options?: { limit?: number }): Promise<ThreadSearchResult>;
  /**
   * Thread actions → Share link: the thread's `.fawn` bundle as a link's fragment data (`#share=<data>`), or, when a
   * link cannot hold it, its size and the limit (the page then offers the `.fawn` file).
   */
  shareThreadLink(threadId: string): Promise<ThreadShareLink>;
  /**
   * A share link's bundle, decoded and checked as an import checks it, what it holds, and the thread to read before
   * importing it (SharedThreadReading); nothing is written. Rejects with one sentence for a damaged link.
   * `importThreadBundle(bundle)` imports it.
   */
  readShareLink(data: string): Promise<SharedThreadReading>;
  /** A `.fawn` opened to be read before it is imported, as `readShareLink` opens a link's; nothing is written. */
  openThreadBundle(archive: Blob | Uint8Array): Promise<SharedThreadReading>;
  /** Forgets a shared thread opened to be read (its reading id): its files are no longer kept. */
  closeSharedThread(threadId: string): Promise<void>;
  /**
   * Stores files in the thread's /mnt/user-data/uploads (PDF, DOCX, XLSX and PPTX also as Markdown beside them).
   * An upload over a limit, or with a bad name, is refused whole with a readable message; nothing is written.
   */
  uploadFiles(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult>;
  getModelSettings(): Promise<ModelSettings>;
  saveModelSettings(settings: ModelSettings): Promise<ModelSettings>;
  /** Model ids the endpoint offers (its provider's model list); rejects with a readable message. */
  listModels(endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">): Promise<string[]>;
  /** The endpoint's models with what its list reports of each (context window, vision, tools, reasoning). */
  describeModels(endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">): Promise<ListedModel[]>;
  /** Fawn's CORS relay (Settings → Proxy). */
  getProxySettings(): Promise<ProxySettings>;
  saveProxySettings(settings: ProxySettings): Promise<ProxySettings>;
  /** The web tools' providers and keys (Settings → Web). */
  getWebToolSettings(): Promise<WebToolSettings>;
  /** Validates and stores them (keys with the other secrets); rejects with one sentence per problem. */
  saveWebToolSettings(settings: WebToolSettings): Promise<WebToolSettings>;
  /** Streams the run's events to `onEvent`, `end` always last; resolves after `end`. */
  runStream(request: RunRequest, onEvent: RunEventListener): Promise<void>;
  /**
   * `runStream` for a listener across a thread boundary: events come in batches, at most one a frame (16 ms) and
   * none while the listener's promise for the last one is pending, with consecutive pieces of a reply joined;
   * `error` and `end` come at once. Resolves after `end` was sent.
   */
  runStreamBatched(request: RunRequest, onEvents: RunEventBatchListener): Promise<void>;
  cancelRun(runId: string): Promise<void>;
  /**
   * Answers a tool call waiting in group "Approval" (a run's `approval_requested` event): `allow` runs it, `deny`
   * answers the model with a refusal and the run goes on, `allow_thread` runs it and every later call of that tool in
   * the thread. Rejects with one sentence when no such call waits (answered already, or its run has ended), or when
   * `threadId` is given and the call waits in another thread.
   */
  answerApproval(approvalId: string, decision: ApprovalDecision, threadId?: string): Promise<void>;
  /** Turns memory on or off for a thread holding another person's messages (off when it came). */
  setThreadMemory(threadId: string, enabled: boolean): Promise<ThreadSummary>;
  /** Describes the sandbox a thread's commands run in. */
  sandboxInfo(threadId: string): Promise<SandboxInfo>;
  /** Runs one command line in the thread's sandbox; files it writes are kept. Rejects only for a bad request. */
  sandboxExec(request: SandboxCommandRequest): Promise<SandboxCommandResult>;
  cancelSandboxCommand(commandId: string): Promise<void>;
  getSandboxSettings(): Promise<SandboxSettings>;
  /** Saves the choice; threads switch provider at their next command. */
  saveSandboxSettings(settings: SandboxSettings): Promise<SandboxSettings>;
  /**
   * The page reports how starting WebContainer went: its host (a comlink proxy), or null and the reason it could not
   * start, which threads then show as a notice while they use the browser sandbox.
   */
  attachSandboxHost(host: SandboxHostHandle | null, notice?: string): Promise<void>;
  /** The page hands over its Python frames once, at start; python3 waits for them. */
  attachPythonHost(host: PythonHostHandle): Promise<void>;
  /** The long-term memory (Settings → Memory); also what "Export" saves. */
  getMemory(): Promise<MemoryDocument>;
  /** Adds a fact; rejects an empty or duplicate content (case and surrounding spaces ignored) or a bad confidence. */
  addMemoryFact(fact: MemoryFactInput & { content: string }): Promise<MemoryDocument>;
  /** Changes a fact; omitted fields stay. Rejects an unknown id. */
  updateMemoryFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument>;
  deleteMemoryFact(id: string): Promise<MemoryDocument>;
  /** Forgets everything, and drops updates not yet applied. */
  clearMemory(): Promise<MemoryDocument>;
  /** Replaces the memory with an exported document, validated whole first; a bad one changes nothing. */
  importMemory(document: unknown): Promise<MemoryDocument>;
  getMemorySettings(): Promise<MemorySettings>;
  /** Applies the memory updates still waiting for their delay (the page is being hidden or closed). */
  flushMemory(): Promise<void>;
  saveMemorySettings(settings: MemorySettings): Promise<MemorySettings>;
  /** Shipped and installed skills, shipped first, each sorted by name. */
  listSkills(): Promise<SkillInfo[]>;
  /** Turns a skill on or off; threads see the change at their next command and run. */
  setSkillEnabled(name: string, enabled: boolean): Promise<SkillInfo>;
  /**
   * Installs a skill from a `.skill` or `.zip` archive (enabled). The archive is checked whole first (paths, sizes,
   * SKILL.md frontmatter, name not taken); a bad one is refused with a readable message and nothing is written.
   */
  installSkill(archive: { name: string; bytes: Uint8Array }): Promise<SkillInfo>;
  /** Installs a `.skill` archive from one of the thread's files (e.g. one the agent made in outputs). */
  installSkillFromThread(threadId: string, path: string): Promise<SkillInfo>;
  /** Deletes an installed skill (shipped skills can only be disabled). */
  deleteSkill(name: string): Promise<void>;
  /** Subagent limits and the user's own subagent types (Settings → Subagents). */
  getSubagentSettings(): Promise<SubagentSettings>;
  saveSubagentSettings(settings: SubagentSettings): Promise<SubagentSettings>;

  // ---- Settings → Data: backup of everything (issue 7) ----

  /**
   * Every thread (with its checkpoints, uploads and outputs), the memory, installed skills and settings as one zip,
   * `fawn-backup-YYYY-MM-DD.zip`. API keys are never in it.
   */
  exportData(): Promise<DataExport>;
  /**
   * Imports a backup made by `exportData`. It is checked whole first (zip sizes before inflating, paths, manifest,
   * every record); a bad one is refused with one sentence and nothing changes. Threads and skills already here are
   * kept (the backup's are skipped), memory facts are merged without duplicates, settings are restored only where
   * this browser has none. All of it is written in one transaction.
   * MCP servers arrive switched off. When the import would add what can act or send data (a model endpoint's, web
   * service's or the proxy's address, an MCP server, a skill with scripts) and `acceptAdditions` is not set, nothing
   * is written and the answer lists them (a DataImportConfirmation): a backup cannot quietly point this browser's
   * endpoints at another host or give the agent new tools.
   */
  importData(archive: Blob | Uint8Array, options?: { acceptAdditions?: boolean }): Promise<DataImportAnswer>;
  /** Deletes every thread, file, memory, skill, setting and API key; refused while a reply is running. */
  deleteAllData(): Promise<void>;

  // ---- Composer extras: follow-up suggestions, context usage, /compact ----

  /**
   * Up to three short questions the user might ask next, from one small model call over the thread's latest visible
   * messages (the model of `model`, as a run would pick it). Never a run, never saved; [] on any failure.
   */
  threadSuggestions(threadId: string, model?: ThreadModelChoice): Promise<string[]>;
  /**
   * How much of the model's context window the thread uses: its last model call's reported tokens (the input and the
   * answer, which the next request carries), less what a `/compact` took off since; estimated from the messages when
   * the provider reports no usage.
   */
  threadContext(threadId: string, model?: ThreadModelChoice): Promise<ThreadContextUsage>;
  /**
   * `/compact`: folds the thread's older messages into its summary now, as summarization does past its trigger, so
   * the next request sends less; the conversation still shows every message. Refused while the thread runs.
   */
  compactThread(threadId: string, model?: ThreadModelChoice): Promise<ThreadCompaction>;
}

/** The model a composer call is about (as in a run's context); none: the default model. */
export interface ThreadModelChoice {
  model?: string;
  endpoint?: string;
}

/** A thread's use of its model's context window. */
export interface ThreadContextUsage {
  /** Tokens of the thread's next request, as the last model call counted them (see `threadContext`). */
  tokens: number;
  /** The model's context window in tokens. */
  window: number;
}

/** What `/compact` did. */
export interface ThreadCompaction {
  /** False when there was too little to fold (the latest messages always stay as they are). */
  compacted: boolean;
  /** Messages now sent as the summary instead (0 when nothing was folded). */
  folded: number;
  /** The thread's context use afterwards. */
  usage: ThreadContextUsage;
}
