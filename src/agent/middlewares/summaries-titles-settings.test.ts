// Settings → Models → "Summaries and titles": what is accepted, the sentence for each problem, and what a run takes.
import { describe, expect, it } from "vitest";
import { DEFAULT_SUMMARIES_AND_TITLES, type SummariesAndTitles } from "../../protocol/index.ts";
import {
  parseSummariesAndTitles,
  readSummariesAndTitles,
  summarizationOptionsFor,
} from "./summaries-titles-settings.ts";

const withSummaries = (summarization: object): unknown => ({ ...DEFAULT_SUMMARIES_AND_TITLES, summarization });
const withTitles = (titles: object): unknown => ({ ...DEFAULT_SUMMARIES_AND_TITLES, titles });
const problemsOf = (value: unknown) => {
  const parsed = parseSummariesAndTitles(value);
  return parsed.ok ? [] : parsed.problems;
};

describe("parseSummariesAndTitles", () => {
  it("takes an empty record as today's behaviour, and keeps what it is given", () => {
    expect(parseSummariesAndTitles({})).toEqual({ ok: true, value: DEFAULT_SUMMARIES_AND_TITLES });
    const chosen: SummariesAndTitles = {
      summarization: {
        enabled: true,
        trigger: [
          { type: "fraction", value: 0.8 },
          { type: "messages", value: 50 },
        ],
        keep: { type: "tokens", value: 3_000 },
      },
      titles: { enabled: false, maxWords: 4, maxChars: 30, prompt: "Title for {user_msg} in {max_words} words" },
    };
    expect(parseSummariesAndTitles(chosen)).toEqual({ ok: true, value: chosen });
  });

  it("says each problem in its own sentence", () => {
    expect(
      problemsOf(
        withSummaries({
          enabled: true,
          trigger: [
            { type: "tokens", value: 10 },
            { type: "pages", value: 3 },
            { type: "messages", value: 20 },
            { type: "messages", value: 30 },
          ],
          keep: { type: "messages", value: 25 },
        }),
      ),
    ).toEqual([
      "A summary trigger in tokens must be from 1,000 to 10,000,000.",
      "A summary trigger is measured in tokens, messages or a fraction of the context window.",
      "There is more than one summary trigger in messages.",
      "What a summary keeps must be less than its trigger in messages.",
    ]);
    expect(problemsOf(withSummaries({ enabled: true, trigger: [{ type: "fraction", value: 1.5 }] }))).toEqual([
      "A summary trigger in a fraction of the context window must be from 0.05 to 1.",
    ]);
    expect(problemsOf(withSummaries({ enabled: true, trigger: [] }))).toEqual([
      "Summaries that are on need at least one trigger.",
    ]);
    expect(problemsOf(withSummaries({ keep: { type: "messages", value: 2.5 } }))).toEqual([
      "What a summary keeps in messages must be a whole number.",
    ]);
  });

  it("checks the title limits and the prompt's placeholders", () => {
    expect(problemsOf(withTitles({ enabled: true, maxWords: 0, maxChars: 500 }))).toEqual([
      "A title's words must be a whole number from 1 to 20.",
      "A title's characters must be a whole number from 10 to 200.",
    ]);
    expect(problemsOf(withTitles({ prompt: "Name it: {assistant_msg} {lang}" }))).toEqual([
      "The title prompt may use {user_msg}, {assistant_msg} and {max_words}, not {lang}.",
      "The title prompt must include {user_msg}.",
    ]);
    expect(problemsOf(withTitles({ prompt: `{user_msg}${"x".repeat(4_000)}` }))).toEqual([
      "The title prompt is longer than 4,000 characters.",
    ]);
    // A blank prompt is Fawn's own.
    const blank = parseSummariesAndTitles(withTitles({ enabled: true, maxWords: 6, maxChars: 60, prompt: "  " }));
    expect(blank.ok && blank.value.titles).toEqual({ enabled: true, maxWords: 6, maxChars: 60 });
  });

  it("reads a stored record that no longer passes as the defaults", () => {
    expect(readSummariesAndTitles(withTitles({ maxWords: 99 }))).toEqual(DEFAULT_SUMMARIES_AND_TITLES);
    expect(readSummariesAndTitles(undefined)).toEqual(DEFAULT_SUMMARIES_AND_TITLES);
  });
});

describe("summarizationOptionsFor", () => {
  it("is today's 32,000 tokens, 200 messages, keep 10 by default", () => {
    expect(summarizationOptionsFor(DEFAULT_SUMMARIES_AND_TITLES.summarization, 128_000)).toEqual({
      triggerTokens: 32_000,
      triggerMessages: 200,
      keepMessages: 10,
    });
  });

  it("turns fractions into tokens of the model's window, the lower token trigger winning", () => {
    const options = summarizationOptionsFor(
      {
        enabled: true,
        trigger: [
          { type: "fraction", value: 0.5 },
          { type: "tokens", value: 90_000 },
        ],
        keep: { type: "fraction", value: 0.25 },
      },
      100_000,
    );
    expect(options).toEqual({
      triggerTokens: 50_000,
      triggerMessages: Number.POSITIVE_INFINITY,
      keepTokens: 25_000,
    });
  });

  it("is off when summaries are off", () => {
    const off = { ...DEFAULT_SUMMARIES_AND_TITLES.summarization, enabled: false };
    expect(summarizationOptionsFor(off, 128_000)).toBe(false);
  });
});
