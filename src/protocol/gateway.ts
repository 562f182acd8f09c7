// The UI ⇄ agent-worker contract: typed Gateway methods over comlink, versioned, plain data only.
import type { DataExport, DataImportAnswer } from "./data-backup.ts";
import type { MessageContent, UploadedFileRef, WireMessage } from "./messages.ts";
import type { RunError, RunEvent } from "./run-events.ts";
import type { MemoryDocument, MemoryFactInput, MemorySettings } from "./memory.ts";
import type { SkillInfo } from "./skills.ts";
import type { SubagentSettings } from "./subagents.ts";
import type { UploadResult } from "./uploads.ts";
import type { WebToolSettings } from "./web-tools.ts";

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
}

/** Another OpenAI-compatible endpoint beside the main one, with its own key and models (Settings → Models). */
export interface ModelEndpoint {
  /** Stable id (lowercase letters, digits, dashes), how runs and the composer name it. */
  id: string;
  name: string;
  baseUrl: string;
  apiKey: string;
  /** At least one. */
  models: ModelEntry[];
  /** Requests go through Fawn's CORS relay (`npm run proxy`), for providers that refuse browsers. */
  useProxy?: boolean;
}

/** The endpoints the agent talks to (Settings → Models): the main one, which holds the default model, and others. */
export interface ModelSettings {
  baseUrl: string;
  apiKey: string;
  /** The main endpoint's first model, and the default model unless `defaultModel` names another endpoint's. */
  model: string;
  /** The main endpoint's models the user can choose from, with their abilities; `model` is always among them. */
  models?: ModelEntry[];
  /**
   * The default model when it is one of another endpoint's (the id of that endpoint and of the model); without it the
   * default is `model`. New messages, and memory updates, use the default model.
   */
  defaultModel?: { endpoint: string; model: string };
  /** Name each thread with a short model-written title after its first exchange (one small extra request). */
  modelTitles?: boolean;
  /** The main endpoint's name as lists show it ("Main endpoint" when unset). */
  name?: string;
  /** The main endpoint's requests go through Fawn's CORS relay. */
  useProxy?: boolean;
  /** More endpoints; API keys are kept apart from the settings, like the main one's, and never exported. */
  endpoints?: ModelEndpoint[];
}

/** Fawn's CORS relay as `npm run proxy` starts it, used when Settings → Web names no other. */
export const DEFAULT_PROXY_URL = "http://127.0.0.1:8787/forward/";

/** `baseUrl` through the relay at `proxyUrl` (the relay takes the target URL after its prefix). */
export function proxiedUrl(baseUrl: string, proxyUrl: string | undefined): string {
  const prefix = proxyUrl?.trim() || DEFAULT_PROXY_URL;
  return `${prefix.endsWith("/") ? prefix : `${prefix}/`}${baseUrl}`;
}

/** The main endpoint's models, the default one first when the list lacks it; none without a default model. */
export function modelEntries(settings: ModelSettings | undefined): ModelEntry[] {
  if (!settings?.model) return [];
  const listed = settings.models ?? [];
  return listed.some((entry) => entry.id === settings.model) ? listed : [{ id: settings.model }, ...listed];
}

/** The model a message goes to: `id` when the main endpoint lists it, else the default model. */
export function modelEntryFor(settings: ModelSettings | undefined, id: string | undefined): ModelEntry | undefined {
  const entries = modelEntries(settings);
  return entries.find((entry) => entry.id === id) ?? entries.find((entry) => entry.id === settings?.model);
}

/** One model the composer offers, of the main endpoint (no `endpoint`) or of another. */
export interface ModelChoice {
  /** Unique across endpoints: the model id for the main endpoint's, `@endpoint-id:model-id` for others'. */
  key: string;
  /** The id of the endpoint when it is not the main one. */
  endpoint?: string;
  endpointName: string;
  entry: ModelEntry;
}

/** The main endpoint's name when the user gave none. */
export const MAIN_ENDPOINT_NAME = "Main endpoint";

/** Every model of every endpoint, the main endpoint's first; none until a default model is set. */
export function modelChoices(settings: ModelSettings | undefined): ModelChoice[] {
  const main = modelEntries(settings).map((entry) => ({
    key: entry.id,
    endpointName: settings?.name || MAIN_ENDPOINT_NAME,
    entry,
  }));
  if (main.length === 0) return [];
  const others = (settings?.endpoints ?? []).flatMap((endpoint) =>
    endpoint.models.map((entry) => ({
      key: `@${endpoint.id}:${entry.id}`,
      endpoint: endpoint.id,
      endpointName: endpoint.name,
      entry,
    })),
  );
  return [...main, ...others];
}

/** The composer's key of a model: its id for the main endpoint's, `@endpoint-id:model-id` for another's. */
export function modelChoiceKey(endpoint: string | undefined, model: string): string {
  return endpoint ? `@${endpoint}:${model}` : model;
}

/** The key of the default model (`defaultModel` when that endpoint still lists it, else the main `model`). */
export function defaultModelKey(settings: ModelSettings | undefined): string | undefined {
  if (!settings?.model) return undefined;
  const chosen = settings.defaultModel;
  const other = chosen && settings.endpoints?.find((endpoint) => endpoint.id === chosen.endpoint);
  return other && other.models.some((entry) => entry.id === chosen.model)
    ? modelChoiceKey(other.id, chosen.model)
    : settings.model;
}

/**
 * The choice with `key`, else the default model. A bare model id (what threads and requests carried before there
 * were several endpoints) is the main endpoint's model of that id, else the only other endpoint's that lists it.
 */
export function modelChoiceFor(settings: ModelSettings | undefined, key: string | undefined): ModelChoice | undefined {
  const choices = modelChoices(settings);
  const exact = choices.find((choice) => choice.key === key);
  if (exact) return exact;
  const byId = key && !key.startsWith("@") ? choices.filter((choice) => choice.entry.id === key) : [];
  if (byId.length === 1) return byId[0];
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
  /** `endpoint`: the id of one of the other endpoints `model` belongs to; none for the main endpoint. */
  context?: { mode?: AgentMode; model?: string; endpoint?: string };
}

export type RunEventListener = (event: RunEvent) => void;

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
   * Stores files in the thread's /mnt/user-data/uploads (PDF, DOCX, XLSX and PPTX also as Markdown beside them).
   * An upload over a limit, or with a bad name, is refused whole with a readable message; nothing is written.
   */
  uploadFiles(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult>;
  getModelSettings(): Promise<ModelSettings>;
  saveModelSettings(settings: ModelSettings): Promise<ModelSettings>;
  /** Model ids the endpoint offers (`GET {baseUrl}/models`); rejects with a readable message. */
  listModels(endpoint: Pick<ModelSettings, "baseUrl" | "apiKey" | "useProxy">): Promise<string[]>;
  /** The web tools' providers and keys (Settings → Web). */
  getWebToolSettings(): Promise<WebToolSettings>;
  /** Validates and stores them (keys with the other secrets); rejects with one sentence per problem. */
  saveWebToolSettings(settings: WebToolSettings): Promise<WebToolSettings>;
  /** Streams the run's events to `onEvent`, `end` always last; resolves after `end`. */
  runStream(request: RunRequest, onEvent: RunEventListener): Promise<void>;
  cancelRun(runId: string): Promise<void>;
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
   * When the restored settings would set addresses (a model endpoint's or web service's Base URL, the proxy URL) and
   * `acceptAddressChanges` is not set, nothing is written and the answer lists them (a DataImportConfirmation): a
   * backup cannot quietly point this browser's endpoints at another host.
   */
  importData(archive: Blob | Uint8Array, options?: { acceptAddressChanges?: boolean }): Promise<DataImportAnswer>;
  /** Deletes every thread, file, memory, skill, setting and API key; refused while a reply is running. */
  deleteAllData(): Promise<void>;
}
