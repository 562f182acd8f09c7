import { describe, expect, it } from "vitest";
import {
  findSnippet,
  MAX_TERM_LENGTH,
  queryTerms,
  searchTerms,
  titleHighlights,
  titleMatches,
  type Snippet,
} from "./search-text.ts";

/** The marked parts of a snippet, as text. */
function marked(snippet: Snippet | undefined): string[] {
  return snippet?.highlights.map(([start, end]) => snippet.text.slice(start, end)) ?? [];
}

describe("searchTerms", () => {
  it("indexes each distinct word once, lowercased, punctuation left out", () => {
    expect(searchTerms("The quarterly Report: the numbers, the REPORT's end.")).toEqual([
      "the",
      "quarterly",
      "report",
      "numbers",
      "s",
      "end",
    ]);
  });

  it("keeps accented letters, digits and words in other scripts", () => {
    expect(searchTerms("Café 2024 Привет")).toEqual(["café", "2024", "привет"]);
  });

  it("indexes Chinese text by characters and pairs of them", () => {
    expect(searchTerms("数据分析")).toEqual(["数", "据", "分", "析", "数据", "据分", "分析"]);
  });

  it("cuts very long words", () => {
    const [term] = searchTerms("x".repeat(100));
    expect(term).toHaveLength(MAX_TERM_LENGTH);
  });
});

describe("queryTerms", () => {
  it("lowercases and drops repeated words", () => {
    expect(queryTerms("Budget budget PLAN")).toEqual([
      { term: "budget", text: true },
      { term: "plan", text: true },
    ]);
  });

  it("leaves out one-letter words beside longer ones, and keeps a lone one for titles only", () => {
    expect(queryTerms("e-mail")).toEqual([{ term: "mail", text: true }]);
    expect(queryTerms("a")).toEqual([{ term: "a", text: false }]);
  });

  it("asks for every pair of a Chinese phrase, and for a single character alone", () => {
    expect(queryTerms("数据分析").map((term) => term.term)).toEqual(["数据", "据分", "分析"]);
    expect(queryTerms("数")).toEqual([{ term: "数", text: true }]);
  });

  it("has no terms for blank or punctuation-only queries", () => {
    expect(queryTerms("  ")).toEqual([]);
    expect(queryTerms("?!")).toEqual([]);
  });
});

describe("titles", () => {
  it("match when every word is somewhere in the title, in any case", () => {
    expect(titleMatches("Greetings from Paris", queryTerms("PAR ting"))).toBe(true);
    expect(titleMatches("Greetings from Paris", queryTerms("paris london"))).toBe(false);
  });

  it("mark where the words are", () => {
    expect(titleHighlights("Report on reports", queryTerms("report"))).toEqual([
      [0, 6],
      [10, 16],
    ]);
  });
});

describe("findSnippet", () => {
  it("shows the passage around the first match with the matching words marked", () => {
    const text = `${"Some words before. ".repeat(10)}The budget for 2025 is ready.\nNext line ${"after ".repeat(40)}`;
    const snippet = findSnippet(text, queryTerms("budget"));
    expect(snippet?.text.startsWith("…")).toBe(true);
    expect(snippet?.text.endsWith("…")).toBe(true);
    expect(snippet?.text).toContain("The budget for 2025 is ready. Next line");
    expect(snippet!.text.length).toBeLessThanOrEqual(162);
    expect(marked(snippet)).toEqual(["budget"]);
  });

  it("matches the start of words only, in any case", () => {
    expect(findSnippet("A rebudgeting exercise", queryTerms("budget"))).toBeUndefined();
    expect(marked(findSnippet("Budgets and BUDGET", queryTerms("budget")))).toEqual(["Budget", "BUDGET"]);
  });

  it("starts at the beginning of a short text, without an ellipsis", () => {
    expect(findSnippet("hello world", queryTerms("world"))).toEqual({ text: "hello world", highlights: [[6, 11]] });
  });

  it("finds Chinese words inside a run of characters", () => {
    expect(marked(findSnippet("我们做了数据分析。", queryTerms("分析")))).toEqual(["分析"]);
  });

  it("has nothing to show for title-only words", () => {
    expect(findSnippet("a b c", queryTerms("a"))).toBeUndefined();
  });
});
