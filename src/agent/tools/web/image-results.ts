// What every image search service shares: its hits read into DeerFlow's image_search shape, keeping only web
// addresses (a data:, javascript: or relative "image" from a service's answer is dropped).
import type { ImageSearchResult } from "./web-provider.ts";

/** A hit as a service's reader maps it, before it is checked. */
export interface RawImage {
  title: string;
  image_url: string;
  thumbnail_url: string;
  source_url?: string;
  width?: unknown;
  height?: unknown;
}

/** `value` when it is an http(s) URL, else "". */
export function webUrl(value: string): string {
  const trimmed = value.trim();
  if (!URL.canParse(trimmed)) return "";
  const url = new URL(trimmed);
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : "";
}

function pixels(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The first `maxResults` of a service's `items` that have a web address for the image; a missing or unusable
 * thumbnail falls back to the image. None when `items` is not an array.
 */
export function imageResults(
  items: unknown,
  maxResults: number,
  read: (item: unknown) => RawImage,
): ImageSearchResult[] {
  if (!Array.isArray(items)) return [];
  const results: ImageSearchResult[] = [];
  for (const item of items) {
    if (results.length >= maxResults) break;
    const raw = read(item);
    const image = webUrl(raw.image_url);
    if (!image) continue;
    const source = raw.source_url ? webUrl(raw.source_url) : "";
    const width = pixels(raw.width);
    const height = pixels(raw.height);
    results.push({
      title: raw.title.trim(),
      image_url: image,
      thumbnail_url: webUrl(raw.thumbnail_url) || image,
      ...(source && { source_url: source }),
      ...(width && { width }),
      ...(height && { height }),
    });
  }
  return results;
}
