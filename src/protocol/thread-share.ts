// Sharing a thread (docs/architecture.md#d8-bundles): a share link carries its `.fawn` bundle in the URL's fragment;
// a `.fawn` also arrives opened from the system (`file_handlers`) or shared to the installed app (`share_target`).
// Whatever way it comes, the page shows what it holds before anything is imported.

/** The fragment of a share link: `#share=<data>`, `<data>` being what `sharing.link` answers. */
export const SHARE_LINK_KEY = "share";

/**
 * The fragment the service worker redirects a `share_target` POST to: `#shared-file=<id>`, the file waiting under
 * that id in the Cache Storage cache `SHARED_FILES_CACHE` (its name in the `X-File-Name` header) until the page takes it.
 */
export const SHARED_FILE_KEY = "shared-file";
export const SHARED_FILES_CACHE = "fawn-shared-files";
/** The Cache Storage key a shared file waits under (the service worker writes it, the page takes it). */
export function sharedFileKey(id: string, base: string): string {
  return new URL(`${SHARED_FILES_CACHE}/${id}`, base).href;
}

/** Where the manifest's `share_target` posts, relative to the app's base URL, and the form field of its files. */
export const SHARE_TARGET_PATH = "share-target";
export const SHARE_TARGET_FILES = "bundle";
/** The MIME type the manifest's `file_handlers` gives `.fawn` files. */
export const THREAD_BUNDLE_MIME = "application/vnd.fawn.thread+zip";

/** What a `.fawn` bundle holds, read and checked as an import would, without writing anything. */
export interface ThreadBundlePreview {
  title: string;
  /** The user's and the assistant's messages (tool results not counted). */
  message_count: number;
  /** The thread's files (uploads, outputs, workspace), by virtual path, with their size in bytes. */
  files: { path: string; size: number }[];
}

/** A share link's bundle, decoded and checked: its bytes (for `bundles.import`) and what it holds. */
export interface SharedThreadBundle {
  bundle: Blob;
  preview: ThreadBundlePreview;
}

/**
 * Thread actions → Share link: the link's fragment data, or, for a thread too big for a link, how big it would be and
 * the most a link holds (both in bytes), so the page can offer the `.fawn` file instead.
 */
export type ThreadShareLink = { data: string } | { too_big: { size: number; limit: number } };
