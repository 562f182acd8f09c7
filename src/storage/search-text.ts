// How thread search reads text: the words a thread is indexed under, the words of a query, and the passage shown
// around a match. Case-insensitive; a query word matches the start of a word in a message (so "report" finds
// "reports"); Chinese, Japanese and Korean text, written without spaces, is indexed by characters and pairs of them.

/** Scripts written without spaces between words: indexed by single characters and overlapping pairs. */
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
/** A run of CJK characters, or a run of other letters, digits and marks. */
const TOKEN = new RegExp(String.raw`[${CJK}]+|(?:(?![${CJK}])[\p{L}\p{N}\p{M}])+`, "gu");
const CJK_START = new RegExp(`^[${CJK}]`, "u");

/** Longer words are cut to this many characters, in the index and in queries alike (keys stay small). */
export const MAX_TERM_LENGTH = 32;
/** At most this many distinct words per thread are indexed (the first ones met); the rest is rarely searched for. */
export const MAX_TERMS_PER_THREAD = 20_000;
/** A one-letter word (not CJK) would match nearly every thread: it filters titles only. */
const MIN_TEXT_TERM_LENGTH = 2;

function isCjk(token: string): boolean {
  return CJK_START.test(token);
}

function cut(term: string): string {
  return term.length > MAX_TERM_LENGTH ? term.slice(0, MAX_TERM_LENGTH) : term;
}

/** Single characters and overlapping pairs of a CJK run. */
function cjkGrams(run: string, singles: boolean): string[] {
  const chars = Array.from(run);
  const grams: string[] = singles ? [...chars] : [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}

/** The distinct, lowercased words `text` is indexed under, in order of first appearance. */
export function searchTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const [token] of text.toLowerCase().matchAll(TOKEN)) {
    if (isCjk(token)) for (const gram of cjkGrams(token, true)) terms.add(gram);
    else terms.add(cut(token));
    if (terms.size >= MAX_TERMS_PER_THREAD) break;
  }
  return [...terms].slice(0, MAX_TERMS_PER_THREAD);
}

/** A word of a query: `text` also looks in messages, not only titles. */
export interface QueryTerm {
  term: string;
  text: boolean;
}

/**
 * The words of a query, lowercased and distinct. A CJK run of two or more characters becomes its pairs (each must
 * appear); a one-letter word is left out when the query has longer ones, and otherwise only filters titles.
 */
export function queryTerms(query: string): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const [token] of query.toLowerCase().matchAll(TOKEN)) {
    const grams = isCjk(token) ? (Array.from(token).length === 1 ? [token] : cjkGrams(token, false)) : [cut(token)];
    for (const term of grams) {
      if (seen.has(term)) continue;
      seen.add(term);
      terms.push({ term, text: isCjk(term) || term.length >= MIN_TEXT_TERM_LENGTH });
    }
  }
  return terms.some((term) => term.text) ? terms.filter((term) => term.text) : terms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Where the terms occur in text: at the start of a word (CJK anywhere), or anywhere when `anywhere` is set. */
function termPattern(terms: readonly QueryTerm[], anywhere: boolean): RegExp | undefined {
  if (terms.length === 0) return undefined;
  // Longest first, so that "report" is marked whole rather than its prefix "rep".
  const sorted = [...terms].sort((a, b) => b.term.length - a.term.length);
  const parts = sorted.map(({ term }) =>
    anywhere || isCjk(term) ? escapeRegExp(term) : String.raw`(?<![\p{L}\p{N}\p{M}])${escapeRegExp(term)}`,
  );
  return new RegExp(parts.join("|"), "giu");
}

/** `[start, end)` ranges of the terms in `text`. */
function highlightsIn(text: string, pattern: RegExp | undefined): [number, number][] {
  if (!pattern) return [];
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(pattern)) {
    if (match[0].length > 0) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** True when the title holds every term, anywhere (a title also matches in the middle of a word). */
export function titleMatches(title: string, terms: readonly QueryTerm[]): boolean {
  const lower = title.toLowerCase();
  return terms.every(({ term }) => lower.includes(term));
}

/** Where the query's terms are in a title, for marking them. */
export function titleHighlights(title: string, terms: readonly QueryTerm[]): [number, number][] {
  return highlightsIn(title, termPattern(terms, true));
}

/** A short passage of text with the query's terms marked. */
export interface Snippet {
  text: string;
  /** `[start, end)` character ranges of `text` to mark. */
  highlights: [number, number][];
}

const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

/**
 * The passage of `text` around the first place a term starts a word, whitespace collapsed, with "…" where it was
 * cut; undefined when no term occurs.
 */
export function findSnippet(text: string, terms: readonly QueryTerm[]): Snippet | undefined {
  const pattern = termPattern(
    terms.filter((term) => term.text),
    false,
  );
  if (!pattern) return undefined;
  const first = pattern.exec(text);
  pattern.lastIndex = 0;
  if (!first) return undefined;
  let start = Math.max(0, first.index - SNIPPET_BEFORE);
  // Start at a word boundary rather than mid-word, unless that would skip the match.
  if (start > 0) {
    const space = text.slice(start, first.index).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  const end = Math.min(text.length, start + SNIPPET_LENGTH);
  const passage = text.slice(start, end).replace(/\s+/g, " ").trim();
  const shown = `${start > 0 ? "…" : ""}${passage}${end < text.length ? "…" : ""}`;
  return { text: shown, highlights: highlightsIn(shown, pattern) };
}
