// Thread actions → Export and the `.fawn` import: one thread as a file to share, and a shared file as a thread of
// one's own. A bundle is checked whole before anything is written, then written in one transaction; an id already
// here gets a new one. Nothing in a bundle chooses a model, an endpoint or a key: it carries none.
import { version as packageVersion } from "../../package.json";
import {
  readThreadBundle,
  type BundledThread,
  threadFileName,
  THREAD_BUNDLE_EXTENSION,
  threadToDeerFlowJson,
  threadToMarkdown,
  withThreadId,
  writeThreadBundle,
} from "../bundles/index.ts";
import {
  BACKUP_LIMITS,
  type BackupLimits,
  type ChangeNotice,
  type ThreadDetail,
  type ThreadExport,
  type ThreadExportFormat,
  type ThreadSummary,
  type BundleImportOptions,
  type BundlesApi,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { secretRedactor } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import type { BackupStorage, SecretStorage, ThreadFileStorage } from "../storage/index.ts";
import { readArchive, restorableThread } from "./archive-restore.ts";
import { storedMessageIds } from "./foreign-messages.ts";
import { withErrorsRedacted } from "./error-redaction.ts";
import { withoutFeedback } from "./feedback-service.ts";
import { writing } from "./writes.ts";

export interface ThreadBundlesOptions {
  notify: (notice: ChangeNotice) => void;
  /** The thread as the page shows it (for the Markdown and DeerFlow exports). */
  detail: (threadId: string) => Promise<ThreadDetail | undefined>;
  files: ThreadFileStorage;
  appVersion?: string;
  now?: () => Date;
  /** Limits a bundle is held to (tests lower them); the backup's. */
  limits?: BackupLimits;
}

export class ThreadBundles implements BundlesApi {
  private readonly store: BackupStorage;
  private readonly secrets: SecretStorage;
  private readonly limits: BackupLimits;

  constructor(
    storage: { backup: BackupStorage; settings: SecretStorage },
    private readonly options: ThreadBundlesOptions,
  ) {
    this.store = storage.backup;
    this.secrets = storage.settings;
    this.limits = options.limits ?? BACKUP_LIMITS;
  }

  async export(threadId: string, format: ThreadExportFormat): Promise<ThreadExport> {
    if (format === "markdown" || format === "deerflow") return this.exportReadable(threadId, format);
    if (format !== "fawn") {
      throw new UserError(`A thread exports as "fawn", "markdown" or "deerflow", not ${JSON.stringify(format)}.`);
    }
    const stored = await this.store.readThread(threadId);
    if (!stored) throw new UserError(`There is no thread with id ${threadId}.`);
    const redact = secretRedactor(await this.secrets.secretValues());
    const thread = { ...stored, records: withoutFeedback(await withErrorsRedacted(stored.records, redact)) };
    const blob = writeThreadBundle(
      thread,
      {
        app_version: this.options.appVersion ?? packageVersion,
        created_at: (this.options.now ?? (() => new Date()))(),
      },
      this.limits,
    );
    return { file_name: threadFileName(thread.records.thread.title, THREAD_BUNDLE_EXTENSION), blob };
  }

  /** A transcript to read (Markdown), or DeerFlow's `thread.json`, which DeerFlow and Fawn's own import read. */
  private async exportReadable(threadId: string, format: "markdown" | "deerflow"): Promise<ThreadExport> {
    const [detail, files] = await Promise.all([this.options.detail(threadId), this.options.files.list(threadId)]);
    if (!detail) throw new UserError(`There is no thread with id ${threadId}.`);
    if (format === "markdown") {
      const text = threadToMarkdown(detail, files);
      return {
        file_name: threadFileName(detail.title, ".md"),
        blob: new Blob([text], { type: "text/markdown;charset=utf-8" }),
      };
    }
    const json = `${JSON.stringify(threadToDeerFlowJson(detail), null, 2)}\n`;
    return {
      file_name: threadFileName(detail.title, ".thread.json"),
      blob: new Blob([json], { type: "application/json" }),
    };
  }

  /**
   * Imports a `.fawn`: the thread keeps its id when it is free here, else gets a new one. It is read-only: it is read
   * and replayed as it came, and continued in a copy (continueThread); unless `own` (the user's own thread copied
   * from another of their workspaces), which stays writable. What a bundle says of its trust is never taken from it
   * (bundledSummary), so an own copy carries no approvals; only what lowers trust is heeded: a bundle whose thread
   * was imported or holds another person's messages is imported read-only whatever `own` says, to be continued as
   * ever (continueThread marks those messages again).
   */
  async import(archive: Blob | Uint8Array, options: BundleImportOptions = {}): Promise<ThreadSummary> {
    const bundled = await restorableThread(await this.read(archive), "bundle");
    const record = bundled.records.thread;
    const own = options.own === true && record.read_only !== true && record.foreign === undefined;
    const { read_only: _readOnly, ...summary } = bundledSummary(record);
    return this.add(withThread(bundled, own ? { ...summary, status: "idle" } : { ...summary, read_only: true }));
  }

  /** A `.fawn`'s thread, checked whole (schema, sizes, counts, paths), without writing anything. */
  read(archive: Blob | Uint8Array): Promise<BundledThread> {
    return readArchive(archive, this.limits, {
      choose: "Choose a Fawn thread bundle (.fawn) to import.",
      noun: "bundle",
      read: (bytes) => readThreadBundle(bytes, this.limits),
    });
  }

  /**
   * "Continue this thread": a copy of the thread (messages, checkpoint history and files) that is the user's own, so
   * its next message runs on the model the user picks. The copy is listed as new; the original stays as it came.
   */
  async continueThread(threadId: string): Promise<ThreadSummary> {
    const thread = await this.store.readThread(threadId);
    if (!thread) throw new UserError(`There is no thread with id ${threadId}.`);
    const now = (this.options.now ?? (() => new Date()))().getTime();
    const source = thread.records.thread;
    const { read_only: _readOnly, pinned: _pinned, ...summary } = bundledSummary(source);
    // Every message of an imported thread is another person's (approvals and the memory switch stay behind); a
    // thread of one's own copies as it is.
    const foreign =
      source.read_only || source.foreign
        ? {
            message_ids: [
              ...new Set([...(source.foreign?.message_ids ?? []), ...(await storedMessageIds(thread.records))]),
            ],
          }
        : undefined;
    const copy = withThreadId(thread, newId());
    return this.add(
      withThread(copy, {
        ...summary,
        thread_id: copy.records.thread.thread_id,
        status: "idle",
        created_at: now,
        updated_at: now,
        ...(foreign && { foreign }),
      }),
    );
  }

  /** Writes a thread in one transaction under its id, or under a new one when that id is taken meanwhile. */
  private async add(thread: BundledThread): Promise<ThreadSummary> {
    // The write skips a thread already here, so a taken id gets another.
    let next = thread;
    for (let attempt = 0; attempt < 3; attempt++) {
      const written = await writing(() =>
        this.store.write({ threads: [next], skills: [], settings: [], store_items: [], mcp_servers: [] }),
      );
      if (written.threadsImported.length === 1) {
        this.options.notify({ type: "thread-changed", thread_id: next.records.thread.thread_id });
        return next.records.thread;
      }
      next = withThreadId(thread, newId());
    }
    throw new Error("The thread could not be given an id of its own.");
  }
}

/**
 * The fields of a bundle's thread record that describe it (title, times, status, pin, the version shown); what a
 * bundle says of its trust (approvals, another person's content, memory) is never taken from it.
 */
function bundledSummary(thread: ThreadSummary): ThreadSummary {
  const { thread_id, title, created_at, updated_at, status, pinned, read_only, head } = thread;
  return {
    thread_id,
    title,
    created_at,
    updated_at,
    status,
    ...(pinned !== undefined && { pinned }),
    ...(read_only !== undefined && { read_only }),
    ...(head !== undefined && { head }),
  };
}

function withThread(thread: BundledThread, summary: ThreadSummary): BundledThread {
  return { ...thread, records: { ...thread.records, thread: summary } };
}
