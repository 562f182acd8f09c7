// Which language the UI speaks: the user's choice in Settings → Appearance (kept in localStorage, like the theme),
// and what "System" means for a list of browser languages. Pure, so it is tested without a page.

/** The languages Fawn ships, as BCP 47 tags (also what `<html lang>` says). */
export type Locale = "en" | "zh-CN";

export const LOCALES: readonly Locale[] = ["en", "zh-CN"];

export type LanguageChoice = "system" | Locale;

/** The choices in the order Settings → Appearance lists them. */
export const LANGUAGE_CHOICES: readonly LanguageChoice[] = ["system", "en", "zh-CN"];

/** localStorage key. */
export const LANGUAGE_KEY = "fawn.language";

/** A stored value as a choice: anything unknown (or nothing) is "system". */
export function parseLanguage(value: string | null | undefined): LanguageChoice {
  return value === "en" || value === "zh-CN" ? value : "system";
}

/** The stored choice; "system" when storage is unavailable (private windows, Node). */
export function loadLanguage(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): LanguageChoice {
  try {
    return parseLanguage(storage?.getItem(LANGUAGE_KEY));
  } catch {
    return "system";
  }
}

/**
 * The locale for one language tag, or undefined when Fawn ships nothing close. Chinese in Simplified script (zh,
 * zh-CN, zh-Hans, zh-SG) is Simplified Chinese; Chinese in Traditional script (zh-TW, zh-HK, zh-Hant) is English
 * until a Traditional dictionary exists, rather than a script its reader may not want.
 */
export function localeOfTag(tag: string): Locale | undefined {
  let parsed: Intl.Locale;
  try {
    // maximize() adds the likely script: zh → zh-Hans-CN, zh-TW → zh-Hant-TW, zh-SG → zh-Hans-SG.
    parsed = new Intl.Locale(tag).maximize();
  } catch {
    return undefined;
  }
  if (parsed.language === "en") return "en";
  if (parsed.language === "zh") return parsed.script === "Hans" ? "zh-CN" : "en";
  return undefined;
}

/** What "System" shows for the browser's preferred languages (`navigator.languages`): the first Fawn can speak. */
export function systemLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return "en";
}

/** The locale a choice shows, given the browser's languages. */
export function resolveLocale(choice: LanguageChoice, languages: readonly string[]): Locale {
  return choice === "system" ? systemLocale(languages) : choice;
}
