// The sharing domain's contract (`gateway.sharing`): a thread as a share link, and a shared thread (a link or a
// `.fawn`) opened to be read before it is imported.
import type { SharedThreadBundle, ThreadShareLink } from "./thread-share.ts";
import type { ThreadDetail } from "./threads-api.ts";

/**
 * A shared thread opened to be read before it is imported (a share link, a `.fawn` opened with or shared to the app):
 * its bundle and what it holds, and the thread as an import would show it, read-only. Its `thread_id` is a reading id
 * of its own (`shared-…`), never a stored thread's: `threads.readFile` reads the bundle's files under it until
 * `sharing.close`. Nothing of it is stored.
 */
export interface SharedThreadReading extends SharedThreadBundle {
  thread: ThreadDetail;
}

export interface SharingApi {
  /**
   * Thread actions → Share link: the thread's `.fawn` bundle as a link's fragment data (`#share=<data>`), or, when a
   * link cannot hold it, its size and the limit (the page then offers the `.fawn` file).
   */
  link(threadId: string): Promise<ThreadShareLink>;
  /**
   * A share link's bundle, decoded and checked as an import checks it, what it holds, and the thread to read before
   * importing it (SharedThreadReading); nothing is written. Rejects with one sentence for a damaged link.
   * `bundles.import(bundle)` imports it.
   */
  readLink(data: string): Promise<SharedThreadReading>;
  /** A `.fawn` opened to be read before it is imported, as `readLink` opens a link's; nothing is written. */
  openBundle(archive: Blob | Uint8Array): Promise<SharedThreadReading>;
  /** Forgets a shared thread opened to be read (its reading id): its files are no longer kept. */
  close(threadId: string): Promise<void>;
}
