// Small text helpers shared by the worker and the UI.

/** A byte count as people read it: "512 B", "12.3 KB", "4.0 MB" (powers of 1,024, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

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

/** A leading `<think>…</think>` block, as models that think inline start their text with. */
const INLINE_THINKING = /^\s*<think>([\s\S]*?)<\/think>\s*/;

/** `text` with a leading `<think>…</think>` block taken out, and that block's reasoning (trimmed) when there is one. */
export function splitInlineThinking(text: string): { text: string; reasoning?: string } {
  const inline = INLINE_THINKING.exec(text);
  if (!inline) return { text };
  const reasoning = (inline[1] ?? "").trim();
  return { text: text.slice(inline[0].length), ...(reasoning && { reasoning }) };
}
