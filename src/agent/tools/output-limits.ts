// DeerFlow's output limits for sandbox tools: bash keeps the head and tail of a long output, file reads keep the head.

export const BASH_OUTPUT_MAX_CHARS = 20_000;
export const READ_FILE_OUTPUT_MAX_CHARS = 50_000;
export const LS_OUTPUT_MAX_CHARS = 20_000;

/**
 * Keeps the first and last halves of `text` with a marker saying how many characters were skipped; the result is
 * never longer than `max`. `max` 0 disables truncation.
 */
export function truncateMiddle(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  // The marker's length depends on the number it holds, which depends on the marker's length: settle it.
  let skipped = text.length - max;
  let marker = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    marker = `\n... [middle truncated: ${skipped} chars skipped] ...\n`;
    skipped = text.length - Math.max(0, max - marker.length);
  }
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(text.length - tail) : ""}`;
}

/** Keeps the start of `text`, then a marker naming what was kept and how to see the rest. */
export function truncateHead(text: string, max: number, advice: string): string {
  if (max <= 0 || text.length <= max) return text;
  const marker = (kept: number) => `\n... [truncated: showing first ${kept} of ${text.length} chars. ${advice}] ...`;
  let kept = Math.max(0, max - marker(max).length);
  kept = Math.max(0, max - marker(kept).length);
  return `${text.slice(0, kept)}${marker(kept)}`;
}
