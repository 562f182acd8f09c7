// The UI's language: `t` translates a key in the active locale (reactive: text re-renders when the language changes),
// `tn` picks a plural form, and the format helpers write numbers and bytes with Intl in that locale. The first
// screen's English is in the main bundle, the Settings dialog's English comes with its chunk (`addEnglish`); the
// Chinese dictionary is a separate chunk, complete, loaded when Chinese is shown.
import { translator, type BaseTemplateArgs, type Template, type TemplateResolver } from "@solid-primitives/i18n";
import { batch, createSignal, type JSX } from "solid-js";
import { en, type Dictionary, type MessageKey } from "./en.ts";
import {
  LANGUAGE_CHOICES,
  LANGUAGE_KEY,
  loadLanguage,
  LOCALES,
  parseLanguage,
  resolveLocale,
  type LanguageChoice,
  type Locale,
} from "./locale.ts";

export { LANGUAGE_CHOICES, LOCALES, parseLanguage, type LanguageChoice, type Locale, type MessageKey };

/** Each language's name in itself, as the language picker shows it whatever the UI's language. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

const [language, setLanguageSignal] = createSignal<LanguageChoice>(loadLanguage());
const [locale, setLocale] = createSignal<Locale>("en");
/**
 * The English dictionary: the first screen's texts (en.ts), and the parts lazily loaded chunks add (`addEnglish`)
 * before they render. Typed as complete: a key of a part is read only by the modules of its chunk
 * (first-screen-keys.test.ts checks), so it is there whenever it is read.
 */
const english = { ...en } as Dictionary;

/**
 * Adds English texts that a lazily loaded chunk shows: en-settings.ts and en-models-tools.ts call it as they are
 * evaluated, with the Settings dialog's chunk. No module on screen reads those keys yet, so nothing re-renders; the
 * Chinese dictionary has every key already.
 */
export function addEnglish(part: Partial<Dictionary>): void {
  Object.assign(english, part);
}

const [dictionary, setDictionary] = createSignal<Dictionary>(english);

/** The user's choice (reactive). */
export { language };

/** The locale on screen (reactive); it changes once its dictionary has loaded. */
export { locale };

/**
 * Fills `{{ name }}` placeholders from `args`. Not the library's `resolveTemplate`: it passes values to
 * String.replace as replacement strings, so a title holding "$&" or "$1" would come out changed.
 */
function fill(text: string, args?: BaseTemplateArgs): string {
  if (!args) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

/** The text of `key` in the active locale, its {{ placeholders }} filled from `args`. */
export const t = translator(dictionary, fill as TemplateResolver);

const browserLanguages = (): readonly string[] => globalThis.navigator?.languages ?? [];

let chinese: Promise<Dictionary> | undefined;

function loadDictionary(target: Locale): Promise<Dictionary> {
  if (target === "en") return Promise.resolve(english);
  // Placeholders were checked against the English by the dictionaries' test; the types differ only in branding.
  chinese ??= import("./zh-cn.ts").then((module) => module.zhCN as unknown as Dictionary);
  return chinese;
}

/** Shows `target` once its dictionary is here, unless another language was asked for meanwhile. */
async function show(target: Locale): Promise<void> {
  let next: Dictionary;
  try {
    next = await loadDictionary(target);
  } catch {
    // Offline before the chunk was cached: stay in English, and try again next time.
    chinese = undefined;
    return;
  }
  if (resolveLocale(language(), browserLanguages()) !== target) return;
  batch(() => {
    setDictionary(next);
    setLocale(target);
  });
  if (globalThis.document) document.documentElement.lang = target;
}

let showing = show(resolveLocale(language(), browserLanguages()));

/** Settles when the chosen language is on screen (or English, when its dictionary could not load). */
export function i18nReady(): Promise<void> {
  return showing;
}

/** Chooses, stores and shows a language; storage may refuse (private windows), the choice then lasts for this page. */
export function setLanguage(
  choice: LanguageChoice,
  storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage,
): Promise<void> {
  setLanguageSignal(choice);
  try {
    storage?.setItem(LANGUAGE_KEY, choice);
  } catch {
    // See above.
  }
  showing = show(resolveLocale(choice, browserLanguages()));
  return showing;
}

// "System" follows the browser when the user changes its languages.
globalThis.addEventListener?.("languagechange", () => {
  if (language() === "system") showing = show(resolveLocale("system", browserLanguages()));
});

/** The keys that have plural forms (`<base>.one` and `<base>.other`). */
export type PluralKey = {
  [K in MessageKey]: K extends `${infer Base}.other` ? (`${Base}.one` extends MessageKey ? Base : never) : never;
}[MessageKey];

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** The text of `base` for `count` things, `{{ count }}` written in the active locale ("1 token", "2 tokens"). */
export function tn(base: PluralKey, count: number, args: Record<string, string> = {}): string {
  const current = locale();
  let rules = pluralRules.get(current);
  if (!rules) pluralRules.set(current, (rules = new Intl.PluralRules(current)));
  const form = rules.select(count) === "one" ? "one" : "other";
  return fill(dictionary()[`${base}.${form}` as MessageKey], { ...args, count: formatNumber(count) });
}

/** The keys of plain texts (no placeholders): what tables of labels hold. */
export type TextKey = {
  [K in MessageKey]: Dictionary[K] extends Template<BaseTemplateArgs> ? never : K;
}[MessageKey];

/** The plain texts of the first screen's English (en.ts): what the first screen, prerendered at build too, shows. */
export type FirstScreenTextKey = TextKey & keyof typeof en;

/** The template keys, with the arguments each takes. */
type TemplateKey = { [K in MessageKey]: Dictionary[K] extends Template<BaseTemplateArgs> ? K : never }[MessageKey];
type TemplateParts<K extends TemplateKey> =
  Dictionary[K] extends Template<infer Args> ? Record<keyof Args, JSX.Element> : never;

/**
 * The text of `key` with elements in its placeholders (a link, a name in bold), so that each language puts them
 * where its word order wants them.
 */
export function rich<K extends TemplateKey>(key: K, parts: TemplateParts<K>): JSX.Element[] {
  const pieces = dictionary()[key].split(/\{\{\s*(\w+)\s*\}\}/);
  // split() with a capture group: even indexes are text, odd ones placeholder names.
  return pieces.map((piece, index) =>
    index % 2 === 0 ? piece : ((parts as Record<string, JSX.Element>)[piece] ?? piece),
  );
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const id = `${locale()} ${JSON.stringify(options)}`;
  let format = numberFormats.get(id);
  if (!format) numberFormats.set(id, (format = new Intl.NumberFormat(locale(), options)));
  return format;
}

/** A number as the active locale writes it: "12,345". */
export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

const BYTE_UNITS = ["KB", "MB", "GB", "TB"];

/** A size in bytes: "512 B", "1.5 MB" (binary multiples, one decimal), its number in the active locale. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${numberFormat({ useGrouping: false }).format(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const oneDecimal = numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
  return `${oneDecimal.format(value)} ${BYTE_UNITS[unit]}`;
}
