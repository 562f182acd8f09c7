// Remote images in rendered Markdown load only when the user says so: rendering puts a web image's address in
// `data-fawn-remote` on an empty placeholder (markdown.ts), never in an <img src>, and the view shows a "Load image"
// button naming its host there (markdown-view.tsx). This module holds the user's choices: the images
// loaded by a click (for this page's life) and the hosts whose images always load (kept in localStorage).
import { createSignal } from "solid-js";

/** The attribute of a remote image's placeholder: the image's absolute http(s) address. */
export const REMOTE_IMAGE_ATTRIBUTE = "data-fawn-remote";

/** The attribute holding the image's alt text, for the <img> the view makes once it may load. */
export const REMOTE_IMAGE_ALT_ATTRIBUTE = "data-fawn-alt";

/** localStorage key: a JSON list of hosts (`host[:port]`, as URL.host gives it) whose images always load. */
export const IMAGE_HOSTS_KEY = "fawn.imageHosts";

/** At most this many hosts are kept; the oldest choice goes first. */
const MAX_HOSTS = 200;

/** The remote image an address names: an absolute http(s) URL, or undefined. */
export function remoteImageUrl(address: string | null | undefined): URL | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The hosts kept in `storage`; anything unreadable counts as none. */
export function loadImageHosts(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): string[] {
  try {
    const parsed = JSON.parse(storage?.getItem(IMAGE_HOSTS_KEY) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((host): host is string => typeof host === "string" && host !== "")
      : [];
  } catch {
    return [];
  }
}

/** `hosts` without `host`. */
export function withoutImageHost(hosts: readonly string[], host: string): string[] {
  return hosts.filter((kept) => kept !== host);
}

/** `hosts` plus `host` (last, without repeats), at most MAX_HOSTS of them. */
export function withImageHost(hosts: readonly string[], host: string): string[] {
  return [...hosts.filter((kept) => kept !== host), host].slice(-MAX_HOSTS);
}

const [allowedHosts, setAllowedHosts] = createSignal<ReadonlySet<string>>(new Set(loadImageHosts()));
const [loadedImages, setLoadedImages] = createSignal<ReadonlySet<string>>(new Set());

// Another tab's choice applies here too.
globalThis.addEventListener?.("storage", (event: StorageEvent) => {
  if (event.key === IMAGE_HOSTS_KEY || event.key === null) setAllowedHosts(new Set(loadImageHosts()));
});

/** Whether the image at `url` may load now: the user clicked it, or chose to always load its host's images. */
export function imageMayLoad(url: URL): boolean {
  return loadedImages().has(url.href) || allowedHosts().has(url.host);
}

/** The user clicked "Load image": this image loads, wherever it shows, until the page closes. */
export function loadImage(url: URL): void {
  setLoadedImages((urls) => new Set(urls).add(url.href));
}

/** The user chose "always" for `url`'s host: its images load at once, from now on and after a reload. */
export function alwaysLoadImagesFrom(
  url: URL,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.localStorage,
): void {
  const hosts = withImageHost(loadImageHosts(storage), url.host);
  try {
    storage?.setItem(IMAGE_HOSTS_KEY, JSON.stringify(hosts));
  } catch {
    // Storage full or refused: the choice still holds for this page.
  }
  setAllowedHosts(new Set([...allowedHosts(), ...hosts]));
}

/** The hosts whose images always load, in the order they were chosen (Settings → Appearance lists them). */
export function imageHosts(): string[] {
  return [...allowedHosts()];
}

/** Takes back "always" for `host`: its images wait for "Load image" again (those already loaded stay). */
export function stopLoadingImagesFrom(
  host: string,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.localStorage,
): void {
  const hosts = withoutImageHost(loadImageHosts(storage), host);
  try {
    storage?.setItem(IMAGE_HOSTS_KEY, JSON.stringify(hosts));
  } catch {
    // Storage refused: the choice still holds for this page.
  }
  setAllowedHosts(new Set([...allowedHosts()].filter((kept) => kept !== host)));
}
