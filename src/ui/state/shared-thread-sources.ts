// Where a shared thread comes from on the page: a share link's fragment (`#share=<data>`), a `.fawn` the system
// opened with the installed app (`file_handlers`, through `launchQueue`), or a file shared to it (`share_target`: the
// service worker keeps it in Cache Storage and opens `#shared-file=<id>`). docs/architecture.md#d8-bundles.
import { SHARE_LINK_KEY, SHARED_FILE_KEY, SHARED_FILES_CACHE, sharedFileKey } from "../../protocol/index.ts";

/** A shared thread waiting for the user: a link's data, or a file. */
export type SharedSource = { kind: "link"; data: string } | { kind: "file"; file: File };

/** The share link of `data`: the app's own address (its base path included) with the data in the fragment. */
export function shareLinkUrl(data: string, base: string): string {
  const url = new URL(base);
  url.hash = `${SHARE_LINK_KEY}=${data}`;
  return url.href;
}

/** The app's base URL on this page (`/`, or a folder such as `/fawn/`). */
export function appBaseUrl(): string {
  return new URL(import.meta.env.BASE_URL, document.baseURI).href;
}

/** The share link data in a fragment (`#share=<data>`), if it holds one. */
export function shareDataFromHash(hash: string): string | undefined {
  const prefix = `#${SHARE_LINK_KEY}=`;
  return hash.startsWith(prefix) ? hash.slice(prefix.length) : undefined;
}

/** The id of a file shared to the app (`#shared-file=<id>`), if the fragment holds one. */
export function sharedFileIdFromHash(hash: string): string | undefined {
  const match = new RegExp(`^#${SHARED_FILE_KEY}=([\\w-]+)$`).exec(hash);
  return match?.[1];
}

/** True for a fragment that brings a shared thread rather than naming an open one. */
export function isSharedHash(hash: string): boolean {
  return shareDataFromHash(hash) !== undefined || sharedFileIdFromHash(hash) !== undefined;
}

/**
 * The file the service worker kept for `#shared-file=<id>`, taken out of its cache (so it is offered once); undefined
 * when it is not there (already taken, or Cache Storage is unavailable).
 */
export async function takeSharedFile(id: string): Promise<File | undefined> {
  if (!("caches" in globalThis)) return undefined;
  const cache = await caches.open(SHARED_FILES_CACHE);
  const key = sharedFileKey(id, appBaseUrl());
  const response = await cache.match(key);
  if (!response) return undefined;
  await cache.delete(key);
  await dropStaleSharedFiles(cache);
  const name = decodeURIComponent(response.headers.get("X-File-Name") ?? "shared.fawn");
  return new File([await response.blob()], name, { type: response.headers.get("Content-Type") ?? "" });
}

/** A shared file no page took within a day (its tab was closed first) is not offered any more. */
async function dropStaleSharedFiles(cache: Cache): Promise<void> {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const request of await cache.keys()) {
    const sharedAt = Number((await cache.match(request))?.headers.get("X-Shared-At"));
    if (!(sharedAt > dayAgo)) await cache.delete(request);
  }
}

/** What Chromium's `window.launchQueue` hands over when the system opens files with the installed app. */
interface LaunchParams {
  files?: readonly { kind?: string; getFile(): Promise<File> }[];
}

/** Calls `onFile` with each file the system opens with the installed app (`file_handlers`), where supported. */
export function onLaunchedFiles(onFile: (file: File) => void): void {
  const queue = (globalThis as { launchQueue?: { setConsumer(consumer: (params: LaunchParams) => void): void } })
    .launchQueue;
  queue?.setConsumer((params) => {
    for (const handle of params.files ?? []) {
      if (handle.kind === undefined || handle.kind === "file") void handle.getFile().then(onFile);
    }
  });
}
