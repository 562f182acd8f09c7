// The memory as the agent reads it in its prompt: summaries and the most confident facts, within a token budget.
import type { MemoryDocument, MemoryFact } from "../../protocol/index.ts";
import { escapeForPrompt } from "./memory-prompt.ts";

/** Categories whose facts are chosen first, from a budget of their own: the user's corrections. */
export const GUARANTEED_FACT_CATEGORIES: readonly string[] = ["correction"];

/** Tokens the guaranteed facts may take at most (DeerFlow's default). */
export const GUARANTEED_FACT_TOKENS = 500;

const FACTS_HEADER = "Facts:\n";
const SECTION_SEPARATOR = "\n\n";
const TRUNCATION_MARK = "\n...";

/** CJK ideographs, kana, Hangul and CJK punctuation: about one token per character. */
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]/g;

/**
 * A network-free estimate of `text`'s tokens: one per CJK character, one per 4 other characters (rounded up).
 * Never less for a whole than for its parts added up, so a budget met part by part is met by the whole.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function factLine(fact: MemoryFact): string {
  const category = escapeForPrompt(fact.category.trim());
  const line = `- [${category} | ${fact.confidence.toFixed(2)}] ${escapeForPrompt(fact.content.trim())}`;
  const avoid = fact.category.trim() === "correction" && fact.sourceError?.trim();
  return avoid ? `${line} (avoid: ${escapeForPrompt(avoid)})` : line;
}

/**
 * Lines of `facts` in order while they fit `budget` tokens (newlines between them counted), stopping at the first
 * that does not.
 */
function selectLines(facts: readonly MemoryFact[], budget: number): { lines: string[]; tokens: number } {
  const lines: string[] = [];
  let tokens = 0;
  for (const fact of facts) {
    const line = factLine(fact);
    const cost = estimateTokens(lines.length > 0 ? `\n${line}` : line);
    if (tokens + cost > budget) break;
    lines.push(line);
    tokens += cost;
  }
  return { lines, tokens };
}

function listSection(title: string, items: readonly [string, string][]): string | undefined {
  const lines = items
    .filter(([, summary]) => summary.trim() !== "")
    .map(([label, summary]) => `- ${label}: ${escapeForPrompt(summary.trim())}`);
  return lines.length > 0 ? `${title}\n${lines.join("\n")}` : undefined;
}

/** The longest start of `text` that, followed by the truncation mark, fits `budget` tokens; "" when none does. */
function truncateToFit(text: string, budget: number): string {
  const points = Array.from(text);
  const fits = (length: number) =>
    estimateTokens(points.slice(0, length).join("").trimEnd() + TRUNCATION_MARK) <= budget;
  if (!fits(0)) return "";
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return points.slice(0, low).join("").trimEnd() + TRUNCATION_MARK;
}

/**
 * The memory as text for the agent's prompt (DeerFlow's layout), at most `maxTokens` by estimateTokens:
 * "User Context:" (Work, Personal, Current Focus), "History:" (Recent, Earlier, Background) and "Facts:", one
 * line each, `- [category | 0.95] content` with ` (avoid: …)` for a correction that says what went wrong, blank
 * lines between sections. All of the user's text is escaped (`&`, `<`, `>`), so nothing can close the tag the
 * memory is wrapped in. Corrections come first, the most confident first, within their own 500 tokens; then the
 * other facts by confidence, while they fit (stopping at the first that does not). When the summaries alone
 * overflow, they are cut short with "\n..." and the facts kept. "" for an empty memory.
 */
export function formatMemoryForInjection(doc: MemoryDocument, maxTokens: number): string {
  const { user, history } = doc;
  const prefix = [
    listSection("User Context:", [
      ["Work", user.workContext.summary],
      ["Personal", user.personalContext.summary],
      ["Current Focus", user.topOfMind.summary],
    ]),
    listSection("History:", [
      ["Recent", history.recentMonths.summary],
      ["Earlier", history.earlierContext.summary],
      ["Background", history.longTermBackground.summary],
    ]),
  ]
    .filter((section): section is string => section !== undefined)
    .join(SECTION_SEPARATOR);

  const ranked = doc.facts
    .filter((fact) => typeof fact.content === "string" && fact.content.trim() !== "")
    .map((fact, index) => ({ fact, index }))
    .sort((a, b) => b.fact.confidence - a.fact.confidence || a.index - b.index)
    .map(({ fact }) => fact);
  const isGuaranteed = (fact: MemoryFact) => GUARANTEED_FACT_CATEGORIES.includes(fact.category.trim());

  const headerTokens = estimateTokens(FACTS_HEADER);
  const guaranteed = selectLines(
    ranked.filter(isGuaranteed),
    Math.min(GUARANTEED_FACT_TOKENS, maxTokens - headerTokens),
  );
  const prefixTokens = prefix ? estimateTokens(prefix + SECTION_SEPARATOR) : 0;
  const joinTokens = guaranteed.lines.length > 0 ? estimateTokens("\n") : 0;
  const regular = selectLines(
    ranked.filter((fact) => !isGuaranteed(fact)),
    maxTokens - prefixTokens - headerTokens - guaranteed.tokens - joinTokens,
  );
  const lines = [...guaranteed.lines, ...regular.lines];
  const facts = lines.length > 0 ? FACTS_HEADER + lines.join("\n") : "";

  const whole = [prefix, facts].filter(Boolean).join(SECTION_SEPARATOR);
  if (estimateTokens(whole) <= maxTokens) return whole;
  const room = maxTokens - (facts ? estimateTokens(facts + SECTION_SEPARATOR) : 0);
  const cut = truncateToFit(prefix, room);
  return [cut, facts].filter(Boolean).join(SECTION_SEPARATOR);
}
