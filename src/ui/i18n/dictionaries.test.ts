import { describe, expect, it } from "vitest";
import { enAll as en } from "./en-all.ts";
import { zhCN } from "./zh-cn.ts";

const TRANSLATIONS = { "zh-CN": zhCN };

/** The {{ placeholders }} of a text, sorted. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

describe.each(Object.entries(TRANSLATIONS))("the %s dictionary", (_, dictionary) => {
  const english = en as Record<string, string>;
  const translated = dictionary as Record<string, string>;

  it("has every key of the English one, and no other", () => {
    expect(Object.keys(translated).filter((key) => !(key in english))).toEqual([]);
    expect(Object.keys(english).filter((key) => !(key in translated))).toEqual([]);
  });

  it("fills the same placeholders as the English", () => {
    const mismatched = Object.keys(english).filter(
      (key) => placeholders(english[key]!).join() !== placeholders(translated[key] ?? "").join(),
    );
    expect(mismatched).toEqual([]);
  });

  it("leaves no text empty", () => {
    expect(Object.keys(translated).filter((key) => translated[key]!.trim() === "")).toEqual([]);
  });
});

describe("the English dictionary", () => {
  it("gives every plural form both .one and .other", () => {
    const keys = Object.keys(en);
    const bases = keys.filter((key) => /\.(one|other)$/.test(key)).map((key) => key.replace(/\.(one|other)$/, ""));
    for (const base of new Set(bases))
      expect([`${base}.one`, `${base}.other`].every((key) => keys.includes(key))).toBe(true);
  });
});
