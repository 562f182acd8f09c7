// A web image the user allowed (a click on "Load image", or "Always" for its host) is fetched by the page and shown
// from a `blob:` URL: the page's Content-Security-Policy lets no <img> or SVG <image> load from the web by itself
// (`img-src 'self' data: blob:`). The request carries no cookies and no referrer. A host that does not answer with
// CORS headers (Access-Control-Allow-Origin) cannot be read this way: the view then says so and offers the image's
// address to open in a new tab, where the browser shows it outside Fawn.

/** What fetching an allowed image gave: a `blob:` URL to show, or why there is none. */
export type FetchedImage = { blobUrl: string } | { failed: "unreachable" | "not-an-image" };

/** Images larger than this are not shown inline (a diagram or reply would hold them all in memory). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** One fetch per address for the page's life; the blob stays while the page lives, so every view can show it. */
const fetched = new Map<string, Promise<FetchedImage>>();

async function fetchOnce(url: URL): Promise<FetchedImage> {
  let response: Response;
  try {
    response = await fetch(url.href, { mode: "cors", credentials: "omit", referrerPolicy: "no-referrer" });
  } catch {
    // Refused by CORS, or no answer: the browser tells the page nothing more.
    return { failed: "unreachable" };
  }
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!response.ok || !type.startsWith("image/")) return { failed: response.ok ? "not-an-image" : "unreachable" };
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > MAX_IMAGE_BYTES) return { failed: "not-an-image" };
  const blob = await response.blob().catch(() => undefined);
  if (!blob || blob.size > MAX_IMAGE_BYTES) return { failed: "unreachable" };
  // Shown as an image only (an SVG in <img> or <image> runs no script and loads nothing), with the type it came as.
  return { blobUrl: URL.createObjectURL(new Blob([blob], { type })) };
}

/** The allowed image at `url`, fetched once (a failure is tried again next time). */
export function fetchRemoteImage(url: URL): Promise<FetchedImage> {
  let pending = fetched.get(url.href);
  if (!pending) {
    pending = fetchOnce(url).then((result) => {
      if ("failed" in result) fetched.delete(url.href);
      return result;
    });
    fetched.set(url.href, pending);
  }
  return pending;
}
