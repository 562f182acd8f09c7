// The bundles domain's contract (`gateway.bundles`): a thread exported as a file, a `.fawn` imported, a read-only
// thread continued as the user's own.
import type { ThreadSummary } from "./threads-api.ts";

/** What Thread actions → Export writes: a Fawn bundle (.fawn), a Markdown transcript, or DeerFlow's thread.json. */
export type ThreadExportFormat = "fawn" | "markdown" | "deerflow";

/** An exported thread, ready to download. */
export interface ThreadExport {
  file_name: string;
  blob: Blob;
}

/** How a `.fawn` is imported. */
export interface BundleImportOptions {
  /**
   * The user's own thread, copied from another of their workspaces (Thread actions → Copy to…): it stays writable
   * instead of read-only. Heeded only for a bundle whose thread was neither imported nor held another person's
   * messages (no `read_only`, no `foreign` in its record): such a thread is imported read-only whatever `own` says,
   * and continued as ever.
   */
  own?: boolean;
}

export interface BundlesApi {
  /** The thread as a file: a `.fawn` bundle (messages, state, checkpoint history and files; no keys or settings). */
  export(threadId: string, format: ThreadExportFormat): Promise<ThreadExport>;
  /**
   * Imports a `.fawn` bundle as a thread of this browser's, checked whole first and written in one transaction; an id
   * already here gets a new one. Rejects with one sentence and writes nothing when the bundle is not valid. It is
   * read-only (read, replayed, continued in a copy) unless `options.own`.
   */
  import(archive: Blob | Uint8Array, options?: BundleImportOptions): Promise<ThreadSummary>;
  /**
   * "Continue this thread": copies a thread (an imported, read-only one) into a new thread of the user's own, with its
   * messages, history and files; its next message runs on the model the user picks.
   */
  continueThread(threadId: string): Promise<ThreadSummary>;
}
