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

export interface BundlesApi {
  /** The thread as a file: a `.fawn` bundle (messages, state, checkpoint history and files; no keys or settings). */
  export(threadId: string, format: ThreadExportFormat): Promise<ThreadExport>;
  /**
   * Imports a `.fawn` bundle as a thread of this browser's, checked whole first and written in one transaction; an id
   * already here gets a new one. Rejects with one sentence and writes nothing when the bundle is not valid.
   */
  import(archive: Blob | Uint8Array): Promise<ThreadSummary>;
  /**
   * "Continue this thread": copies a thread (an imported, read-only one) into a new thread of the user's own, with its
   * messages, history and files; its next message runs on the model the user picks.
   */
  continueThread(threadId: string): Promise<ThreadSummary>;
}
