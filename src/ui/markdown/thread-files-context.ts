// What rendered Markdown needs to show the thread's own files it refers to (thread-file-references.ts): where its relative
// references start, how to read an image, how to open a file's preview. Conversation provides it for messages, the
// artifact preview for a Markdown file; without it, such references stay inert.
import { createContext, onCleanup, useContext } from "solid-js";
import { artifactKind } from "../shared/artifact-kinds.ts";
import { releaseImageUrl } from "../shared/download.ts";

export interface ThreadFiles {
  /** What relative references are read from: the file the text belongs to, or MESSAGE_BASE for a message. */
  readonly base: string;
  /**
   * A URL showing the image at `path` (image-urls.ts: never a document of Fawn's origin), or undefined when it is not
   * a readable image.
   */
  imageUrl(path: string): Promise<string | undefined>;
  /** Shows the file at `path` in a preview. */
  open(path: string): void;
}

export const ThreadFilesContext = createContext<ThreadFiles>();

export function useThreadFiles(): ThreadFiles | undefined {
  return useContext(ThreadFilesContext);
}

/**
 * URLs for the images read by `read` (object URLs, or sanitized data: URLs for SVG: image-urls.ts), each read once
 * while the calling component lives (a failed read, or one that finds nothing, is tried again next time) and revoked
 * with it. Reads are keyed by `scope()` too (the thread): `forgetOthers()` revokes
 * those of other scopes, as when another thread opens.
 */
export function createImageUrls(
  read: (path: string, scope: string) => Promise<{ bytes: Uint8Array } | undefined>,
  scope: () => string = () => "",
): {
  imageUrl: (path: string) => Promise<string | undefined>;
  forgetOthers: () => void;
} {
  const urls = new Map<string, { scope: string; url: Promise<string | undefined> }>();
  const revoke = (url: Promise<string | undefined>) =>
    void url.then((shown) => shown !== undefined && releaseImageUrl(shown));
  onCleanup(() => {
    for (const entry of urls.values()) revoke(entry.url);
    urls.clear();
  });
  const forgetOthers = () => {
    const current = scope();
    for (const [key, entry] of urls) {
      if (entry.scope === current) continue;
      revoke(entry.url);
      urls.delete(key);
    }
  };
  const imageUrl = (path: string) => {
    const kind = artifactKind(path);
    if (kind.kind !== "image") return Promise.resolve(undefined);
    const current = scope();
    const key = `${current}\n${path}`;
    let entry = urls.get(key);
    if (!entry) {
      const forgetFailure = () => {
        if (urls.get(key)?.url === url) urls.delete(key);
        return undefined;
      };
      // image-urls.ts (with DOMPurify, for SVG) is a chunk of its own: the first screen has no images.
      const url: Promise<string | undefined> = Promise.all([
        read(path, current),
        import("../shared/image-urls.ts"),
      ]).then(
        ([file, { imageUrl: showImage }]) => (file && showImage(file.bytes, kind.mimeType)) ?? forgetFailure(),
        forgetFailure,
      );
      entry = { scope: current, url };
      urls.set(key, entry);
    }
    return entry.url;
  };
  return { imageUrl, forgetOthers };
}
