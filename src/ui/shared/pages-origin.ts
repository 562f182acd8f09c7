// GitHub Pages serves every project site of an account from one origin, `https://<owner>.github.io`, each in a folder
// (`/<repository>/`). Browsers keep IndexedDB and localStorage per origin, not per folder, so any of that account's
// other Pages sites can read what Fawn stores there, API keys included. The app says so once when it is served that
// way (workspace/shared-origin-notice.tsx); README "GitHub Pages: give Fawn an origin of its own" says what to do.

/** localStorage key: set once the user dismissed the notice. */
export const SHARED_ORIGIN_NOTICE_KEY = "fawn.sharedOriginNoticeDismissed";

/** The README section the notice links to (GitHub's anchor for its heading). */
export const SHARED_ORIGIN_README_ANCHOR = "github-pages-give-fawn-an-origin-of-its-own";

/** Where Fawn is served: the page's hostname and the path the app lives under (its base, e.g. `/fawn/`). */
export interface ServedAt {
  hostname: string;
  basePath: string;
}

/** The account's name when `hostname` is a GitHub Pages host (`<owner>.github.io`, any case, trailing dot or not). */
function pagesOwner(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const match = /^([a-z0-9-]+)\.github\.io$/.exec(host);
  return match?.[1];
}

/** The first folder of the base path, or undefined at the root. */
function firstFolder(basePath: string): string | undefined {
  return basePath.split("/").find((part) => part.length > 0);
}

/**
 * True when Fawn is a GitHub Pages project site: the host is `<owner>.github.io` and the app lives in a folder, so
 * its origin is shared with the owner's other Pages sites. A user or organisation site (`<owner>.github.io` at `/`) and
 * any other host (a custom domain included) are not warned about.
 */
export function isSharedPagesOrigin({ hostname, basePath }: ServedAt): boolean {
  return pagesOwner(hostname) !== undefined && firstFolder(basePath) !== undefined;
}

/**
 * The README section on giving Fawn an origin of its own, in the repository this project site is published from
 * (`https://github.com/<owner>/<repository>`); undefined when `at` is not a project site.
 */
export function sharedOriginReadmeUrl(at: ServedAt): string | undefined {
  const owner = pagesOwner(at.hostname);
  const repository = firstFolder(at.basePath);
  if (!owner || !repository) return undefined;
  return `https://github.com/${owner}/${encodeURIComponent(decodeURIComponentSafe(repository))}#${SHARED_ORIGIN_README_ANCHOR}`;
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Whether the user dismissed the notice (a storage that throws counts as not dismissed). */
export function sharedOriginNoticeDismissed(
  storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage,
): boolean {
  try {
    return storage?.getItem(SHARED_ORIGIN_NOTICE_KEY) === "1";
  } catch {
    return false;
  }
}

/** Remembers the dismissal, so the notice shows once (a storage that throws: it shows again next time). */
export function dismissSharedOriginNotice(
  storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(SHARED_ORIGIN_NOTICE_KEY, "1");
  } catch {
    // Private windows may refuse storage: the notice then shows again on the next load.
  }
}
