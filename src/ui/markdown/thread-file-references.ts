// References to the thread's own files inside rendered Markdown: a chart in a report (`![Sales](chart.png)`), an
// image a reply shows (`/mnt/user-data/outputs/photo.jpg`), a link to another file (`[details](details.md)`). The
// page cannot load them by address (they live in the worker's storage, not on Fawn's server), so rendering marks them
// (`data-fawn-file`, see markdown.ts) and the view resolves them here, then reads the file or opens its preview.

const THREAD_ROOT = "/mnt/user-data/";

/**
 * Whether `reference` (an image's src or a link's href) may name a thread file rather than a web address: no scheme,
 * not scheme-relative, not an in-page anchor.
 */
export function isLocalReference(reference: string): boolean {
  const trimmed = reference.trim();
  return (
    trimmed !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith("//") && !trimmed.startsWith("#")
  );
}

/** The thread path `reference` points to from `from` (a file's path), or undefined when it is not a thread file. */
export function resolveThreadPath(reference: string, from: string): string | undefined {
  // Web addresses, data: and blob: URLs, protocol-relative and in-page references are not thread files.
  if (!isLocalReference(reference)) return undefined;
  const trimmed = reference.trim();
  const base = `file://${from.slice(0, from.lastIndexOf("/") + 1)}`;
  let path: string;
  try {
    path = decodeURIComponent(new URL(trimmed, base).pathname);
  } catch {
    return undefined;
  }
  return path.startsWith(THREAD_ROOT) ? path : undefined;
}

/** The attribute rendering puts a thread file's reference in, instead of the `src` the browser would fetch. */
export const THREAD_FILE_ATTRIBUTE = "data-fawn-file";

/** What a reference in a chat message is relative to: the agent's deliverables. */
export const MESSAGE_BASE = "/mnt/user-data/outputs/";

/**
 * The thread file `reference` names, read from `base` (the file the text belongs to, or MESSAGE_BASE for a message),
 * or undefined when it names none. Besides thread paths, relative or absolute, this accepts the addresses DeerFlow
 * wrote into its threads' files: its Gateway's artifact URLs (`/api/threads/<id>/artifacts/mnt/user-data/…`) and its
 * static demo's (`/demo/threads/<id>/user-data/…`), so an imported thread's pictures still show.
 */
export function threadFileReference(reference: string, base: string): string | undefined {
  const trimmed = reference.trim();
  const deerflow =
    /^\/api\/threads\/[^/]+\/artifacts(\/mnt\/user-data\/.*)$/.exec(trimmed)?.[1] ??
    /^\/demo\/threads\/[^/]+\/(user-data\/.*)$/.exec(trimmed)?.[1];
  const path = deerflow === undefined ? trimmed : deerflow.startsWith("/") ? deerflow : `/mnt/${deerflow}`;
  const from = base.endsWith("/") ? `${base}index` : base;
  return resolveThreadPath(path, from);
}
