import { describe, expect, it } from "vitest";
import { LANGUAGE_KEY, loadLanguage, localeOfTag, parseLanguage, resolveLocale, systemLocale } from "./locale.ts";

describe("System language", () => {
  it("shows Simplified Chinese for Chinese in Simplified script", () => {
    for (const tag of ["zh", "zh-CN", "zh-Hans", "zh-SG", "zh-Hans-HK"]) expect(localeOfTag(tag)).toBe("zh-CN");
  });

  it("shows English for Traditional Chinese, which Fawn does not ship yet", () => {
    for (const tag of ["zh-TW", "zh-HK", "zh-Hant"]) expect(localeOfTag(tag)).toBe("en");
  });

  it("takes the first of the browser's languages that Fawn speaks", () => {
    expect(systemLocale(["fr-FR", "zh-CN", "en"])).toBe("zh-CN");
    expect(systemLocale(["en-GB", "zh-CN"])).toBe("en");
    expect(systemLocale(["zh-TW", "zh-CN"])).toBe("en");
    expect(systemLocale(["de", "not a tag"])).toBe("en");
    expect(systemLocale([])).toBe("en");
  });

  it("is overridden by an explicit choice", () => {
    expect(resolveLocale("en", ["zh-CN"])).toBe("en");
    expect(resolveLocale("zh-CN", ["en-US"])).toBe("zh-CN");
    expect(resolveLocale("system", ["zh-CN"])).toBe("zh-CN");
  });
});

describe("the stored language", () => {
  it("reads what was stored, and System for anything else", () => {
    expect(loadLanguage({ getItem: (key) => (key === LANGUAGE_KEY ? "zh-CN" : null) })).toBe("zh-CN");
    expect(parseLanguage("klingon")).toBe("system");
    expect(loadLanguage(undefined)).toBe("system");
    expect(
      loadLanguage({
        getItem: () => {
          throw new Error("denied");
        },
      }),
    ).toBe("system");
  });
});
