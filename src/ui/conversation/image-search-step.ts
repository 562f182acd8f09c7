// image_search's result (DeerFlow's JSON: `{ results: [{ title, image_url, thumbnail_url, source_url? }] }`) read for
// its tool step's thumbnail grid. Only web addresses are kept: a data:, blob: or javascript: address from a result is
// never shown or linked. Pure, so the rules are tested without a DOM.

export interface ImageHit {
  title: string;
  /** The full image, opened in a new tab. */
  imageUrl: string;
  /** What the grid loads once the user asks ("Show images"). */
  thumbnailUrl: string;
  /** The page the image is on, when the result says. */
  sourceUrl: string | undefined;
}

function webUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
}

/** The images of an image_search result; none when the text is not that JSON (an `Error: …`, say). */
export function imageHits(output: string): ImageHit[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return [];
  }
  const results = (parsed as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.flatMap((result: unknown) => {
    const { title, image_url, thumbnail_url, source_url } = (result ?? {}) as Record<string, unknown>;
    const imageUrl = webUrl(image_url);
    if (!imageUrl) return [];
    return [
      {
        title: typeof title === "string" ? title : "",
        imageUrl,
        thumbnailUrl: webUrl(thumbnail_url) ?? imageUrl,
        sourceUrl: webUrl(source_url),
      },
    ];
  });
}
