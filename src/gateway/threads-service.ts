// DeerFlow's thread routes as a service: the list, one thread's history, creating, renaming, pinning, deleting,
// importing a DeerFlow thread, its files and uploads, and search. Every change is announced to every tab.
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { fallbackTitle, fromWireMessage } from "../agent/index.ts";
import { planDeerFlowImport, type DeerFlowImportPlan } from "../bundles/index.ts";
import {
  contentText,
  type ChangeNotice,
  type FileEdit,
  type ThreadDetail,
  type ThreadFileContent,
  type SavedFileEdit,
  type ThreadReplay,
  type ThreadSearchResult,
  type ThreadSummary,
  type SandboxLogEntry,
  type UploadListEntry,
  type UploadResult,
  type WireMessage,
  type ThreadsApi,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UserError } from "../shared/user-error.ts";
import type {
  FawnStorage,
  RunRecordStorage,
  ThreadFileStorage,
  ThreadImportStorage,
  ThreadStorage,
} from "../storage/index.ts";
import { ThreadIdTakenError } from "../storage/index.ts";
import type { BranchService } from "./branch-service.ts";
import type { CheckpointViewCache } from "./checkpoint-view-cache.ts";
import { saveFileEdit } from "./file-edits.ts";
import { checkpointView } from "./checkpoint-views.ts";
import { feedbackOf } from "./feedback-service.ts";
import { composeHistory } from "./thread-history.ts";
import { threadReplay } from "./thread-replay.ts";
import { tryLockThread } from "./thread-locks.ts";
import { listenForThreadChanges, searchableText, ThreadSearchService } from "./thread-search-service.ts";
import { UploadsService } from "./uploads/uploads-service.ts";
import { writing } from "./writes.ts";

/** DeerFlow's thread-id rule. */
export const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Why a thread another tab is running cannot be deleted. */
export const THREAD_RUNNING_ELSEWHERE = "This thread is running in another tab; stop it there before deleting it.";

export interface ThreadsServiceOptions {
  threads: ThreadStorage & RunRecordStorage;
  files: ThreadFileStorage;
  checkpointer: BaseCheckpointSaver;
  /** The decoded checkpoints every reader of a thread's state shares (the Gateway's one). */
  views: CheckpointViewCache;
  /** The versions of the thread's turns, and which one it shows. */
  branches: BranchService;
  notify: (notice: ChangeNotice) => void;
  /** Whether this worker runs a reply on the thread. */
  isRunning: (threadId: string) => boolean;
  /** Closes the thread's open sandbox: it holds the files it loaded, or the thread is gone. */
  closeSandbox: (threadId: string) => Promise<void>;
  /** How long converting an uploaded document may take (UploadsService's default unless given). */
  conversionTimeoutMs?: number;
  /**
   * A file of a shared thread being read before it is imported (ThreadSharing.readFile): kept in memory under its
   * reading id; undefined for a stored thread's id.
   */
  sharedFile?: (threadId: string, path: string) => ThreadFileContent | undefined;
}

export class ThreadsService implements ThreadsApi {
  private readonly threads: ThreadStorage & RunRecordStorage;
  private readonly importer: ThreadImportStorage;
  private readonly uploads: UploadsService;
  private readonly views: CheckpointViewCache;
  readonly searchIndex: ThreadSearchService;

  constructor(
    storage: Pick<FawnStorage, "threadImport" | "search">,
    private readonly options: ThreadsServiceOptions,
  ) {
    this.threads = options.threads;
    this.importer = storage.threadImport;
    this.uploads = new UploadsService(options.files, {
      ...(options.conversionTimeoutMs !== undefined && { conversionTimeoutMs: options.conversionTimeoutMs }),
    });
    this.views = options.views;
    this.searchIndex = new ThreadSearchService({
      threads: this.threads,
      index: storage.search,
      messages: (threadId) => this.visibleMessages(threadId),
      messagesOf: (threadIds) => this.visibleMessagesOf(threadIds),
    });
    // Thread search keeps the thread list between searches: other tabs' changes renew it too.
    listenForThreadChanges(() => this.searchIndex.threadsChanged());
  }

  /** Announces a change, renewing the search's copy of the list first when threads changed. */
  announce(notice: ChangeNotice): void {
    if (notice.type === "thread-changed" || notice.type === "thread-deleted" || notice.type === "threads-replaced") {
      this.searchIndex.threadsChanged();
    }
    // A restored backup may bring threads of the same ids; a deleted thread is read no more.
    if (notice.type === "threads-replaced") this.views.clear();
    if (notice.type === "thread-deleted") this.views.forget(notice.thread_id);
    this.options.notify(notice);
  }

  list(): Promise<ThreadSummary[]> {
    return this.threads.list();
  }

  async exists(threadId: string): Promise<boolean> {
    return (await this.threads.get(threadId)) !== undefined;
  }

  async create(options: { thread_id?: string } = {}): Promise<ThreadSummary> {
    const threadId = options?.thread_id;
    if (threadId !== undefined && !THREAD_ID.test(threadId)) {
      throw new UserError("A thread id is 1 to 64 letters, digits, '-' or '_'.");
    }
    if (threadId !== undefined && (await this.threads.get(threadId))) {
      throw new UserError(`A thread with id ${threadId} already exists.`, "conflict");
    }
    const thread = await writing(() => this.threads.create(threadId === undefined ? {} : { threadId }));
    this.announce({ type: "thread-changed", thread_id: thread.thread_id });
    return thread;
  }

  /** The thread as it shows: the version it is on (its latest unless the user moved to another), with its versions. */
  async get(threadId: string): Promise<ThreadDetail | undefined> {
    const detail = await this.threads.detail(threadId);
    if (!detail) return undefined;
    const view = await this.views.view(threadId, detail.head);
    const { versions, resumable } = await this.options.branches.describe(detail, view?.messages ?? []);
    const feedback = feedbackOf(detail.entries);
    return {
      ...detail,
      entries: composeHistory(detail.entries, view?.messages),
      artifacts: view?.artifacts ?? [],
      todos: view?.todos ?? [],
      ...(Object.keys(versions).length > 0 && { versions }),
      ...(resumable && { resumable }),
      ...(feedback.size > 0 && { feedback: Object.fromEntries(feedback) }),
    };
  }

  /** The thread's saved steps, oldest first, to play it back. */
  async replay(threadId: string): Promise<ThreadReplay> {
    const detail = await this.get(threadId);
    if (!detail) throw new UserError(`There is no thread with id ${threadId}.`);
    return threadReplay(
      this.options.checkpointer,
      threadId,
      {
        messages: detail.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])),
        todos: detail.todos ?? [],
        artifacts: detail.artifacts ?? [],
      },
      detail.head,
    );
  }

  async rename(threadId: string, title: string): Promise<ThreadSummary> {
    const clean = typeof title === "string" ? title.replace(/\s+/g, " ").trim() : "";
    if (clean.length === 0 || clean.length > 200) throw new UserError("A thread title is 1 to 200 characters.");
    return this.update(threadId, { title: clean });
  }

  pin(threadId: string, pinned: boolean): Promise<ThreadSummary> {
    return this.update(threadId, { pinned });
  }

  async delete(threadId: string): Promise<void> {
    if (this.options.isRunning(threadId)) {
      throw new UserError("Stop the running reply before deleting the thread.", "conflict");
    }
    // Another tab's run holds the thread's lock. Holding it while deleting also keeps a run from starting meanwhile.
    const release = await tryLockThread(threadId);
    if (!release) throw new UserError(THREAD_RUNNING_ELSEWHERE, "conflict");
    try {
      await this.threads.delete(threadId);
      this.views.forget(threadId);
    } finally {
      release();
    }
    await this.options.closeSandbox(threadId);
    this.announce({ type: "thread-deleted", thread_id: threadId });
  }

  async readFile(threadId: string, path: string): Promise<ThreadFileContent> {
    const shared = this.options.sharedFile?.(threadId, path);
    if (shared) return shared;
    const file = typeof path === "string" ? await this.options.files.read(threadId, path) : undefined;
    if (!file) throw new UserError(`This thread has no file ${JSON.stringify(path)}.`);
    return { path, bytes: file.bytes, mime_type: file.meta.mimeType };
  }

  async upload(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult> {
    if (
      !Array.isArray(files) ||
      files.some((file) => typeof file?.name !== "string" || !(file.bytes instanceof Uint8Array))
    ) {
      throw new UserError("An upload is a list of files, each with a name and its bytes.");
    }
    if (!(await this.threads.get(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    // The service refuses a file (or a full storage) itself, with an UploadError (user-facing).
    const result: UploadResult = await this.uploads.upload(threadId, files);
    // An open sandbox holds the files it loaded: the next command loads them again, uploads included.
    await this.options.closeSandbox(threadId);
    this.announce({ type: "thread-changed", thread_id: threadId });
    return result;
  }

  async listUploads(threadId: string): Promise<UploadListEntry[]> {
    if (!(await this.threads.get(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    return this.uploads.list(threadId);
  }

  async deleteUpload(threadId: string, filename: string): Promise<void> {
    if (!(await this.threads.get(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    await this.uploads.delete(threadId, filename);
    // As after an upload: an open sandbox holds the files it loaded.
    await this.options.closeSandbox(threadId);
    this.announce({ type: "thread-changed", thread_id: threadId });
  }

  async sandboxLog(threadId: string): Promise<SandboxLogEntry[]> {
    if (!(await this.threads.get(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    return (await this.threads.entries(threadId)).flatMap((entry) => {
      if (entry.kind !== "sandbox-command") return [];
      const { kind: _kind, ...logged } = entry;
      return [logged];
    });
  }

  async editFile(threadId: string, edit: FileEdit): Promise<SavedFileEdit> {
    if (this.options.isRunning(threadId)) {
      throw new UserError("The thread is running a reply; save the edit after it finishes.", "conflict");
    }
    // A run elsewhere (another tab) holds the thread's lock; holding it keeps a run from starting meanwhile.
    const release = await tryLockThread(threadId);
    if (!release)
      throw new UserError("The thread is running a reply elsewhere; save the edit after it finishes.", "conflict");
    let saved: SavedFileEdit;
    try {
      saved = await saveFileEdit(this.options.files, threadId, edit);
    } finally {
      release();
    }
    await this.options.closeSandbox(threadId);
    this.announce({ type: "thread-changed", thread_id: threadId });
    return saved;
  }

  async importDeerFlow(input: {
    thread: unknown;
    files: { path: string; bytes: Uint8Array }[];
  }): Promise<ThreadSummary> {
    // A thread DeerFlow's format does not allow is refused with a DeerFlowImportError (user-facing).
    const plan: DeerFlowImportPlan = planDeerFlowImport(input);
    const firstUserMessage = plan.messages.find((message) => message.type === "human");
    const title = plan.title ?? fallbackTitle(firstUserMessage ? contentText(firstUserMessage.content) : "");
    const values = {
      messages: plan.messages.map(fromWireMessage),
      ...(plan.artifacts.length > 0 && { artifacts: plan.artifacts }),
      ...(plan.todos.length > 0 && { todos: plan.todos }),
    };
    const now = Date.now();
    const store = async (threadId: string): Promise<ThreadSummary> => {
      // Another person's thread: its messages are quoted to the model, never the user's own (foreign-content.ts).
      const thread: ThreadSummary = {
        thread_id: threadId,
        title,
        created_at: plan.createdAt ?? now,
        updated_at: now,
        status: "idle",
        foreign: { message_ids: plan.messages.map((message) => message.id) },
      };
      const checkpointId = await writing(() =>
        this.importer.write({ thread, values, files: plan.files, searchText: searchableText(plan.messages) }),
      );
      // The checkpoint as the values just written: the first open decodes nothing.
      this.views.put(threadId, checkpointId, values);
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
    this.announce({ type: "thread-changed", thread_id: thread.thread_id });
    return thread;
  }

  /** Turns memory on or off for a thread holding another person's messages; other threads follow Settings → Memory. */
  async setMemory(threadId: string, enabled: boolean): Promise<ThreadSummary> {
    if (typeof enabled !== "boolean") throw new UserError("Memory for a thread is turned on (true) or off (false).");
    const thread = await this.threads.get(threadId);
    if (!thread) throw new UserError(`There is no thread with id ${threadId}.`);
    if (!thread.foreign) {
      throw new UserError("This thread holds no one else's messages: it uses memory as Settings → Memory says.");
    }
    const updated = await writing(() =>
      this.threads.update(threadId, (stored) => {
        const { memory: _memory, ...rest } = stored.foreign ?? { message_ids: [] };
        return { foreign: enabled ? { ...rest, memory: true } : rest };
      }),
    );
    if (!updated) throw new UserError(`There is no thread with id ${threadId}.`);
    this.announce({ type: "thread-changed", thread_id: threadId });
    return updated;
  }

  search(query: string, options: { limit?: number } = {}): Promise<ThreadSearchResult> {
    if (typeof query !== "string") return Promise.reject(new UserError("A search query is a string."));
    return this.searchIndex.search(query, options ?? {});
  }

  private async update(threadId: string, patch: { title?: string; pinned?: boolean }): Promise<ThreadSummary> {
    const updated = await writing(() => this.threads.update(threadId, patch));
    if (!updated) throw new UserError(`There is no thread with id ${threadId}.`);
    this.announce({ type: "thread-changed", thread_id: threadId });
    return updated;
  }

  /** The thread's messages as the user sees them (checkpointed, or stored before checkpoints); undefined if gone. */
  private async visibleMessages(threadId: string): Promise<WireMessage[] | undefined> {
    const thread = await this.get(threadId);
    return thread?.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
  }

  /** visibleMessages for many threads: one read for all threads from before checkpoints, one each for the others. */
  private async visibleMessagesOf(threadIds: readonly string[]): Promise<Map<string, WireMessage[]>> {
    const histories = await this.threads.histories(threadIds);
    const messages = new Map<string, WireMessage[]>();
    await Promise.all(
      [...histories].map(async ([threadId, { entries, checkpointed, head }]) => {
        const view = checkpointed ? await checkpointView(this.options.checkpointer, threadId, head) : undefined;
        const history = composeHistory(entries, view?.messages);
        messages.set(
          threadId,
          history.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])),
        );
      }),
    );
    return messages;
  }
}
