// Which message a thread search's query points at, so opening a search result shows that message (not the last reply).
import { contentText, type ThreadEntry } from "../../protocol/index.ts";

/** The query's words, lowercased: runs of letters, digits and marks. */
function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])];
}

/**
 * The index of the first entry whose message (a user message or a reply) holds every word of `query`
 * (case-insensitive, anywhere in its text), or -1 when none does or the query has no words.
 */
export function findMessageIndex(entries: readonly ThreadEntry[], query: string): number {
  const words = queryWords(query);
  if (words.length === 0) return -1;
  return entries.findIndex((entry) => {
    if (entry.kind !== "message" || (entry.message.type !== "human" && entry.message.type !== "ai")) return false;
    const text = contentText(entry.message.content).toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
