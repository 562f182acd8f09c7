import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APP_CSP } from "../src/shared/content-security-policy.ts";
import {
  APP_SCRIPTS_FALLBACK_MS,
  APP_SCRIPTS_ID,
  FIRST_SCREEN_ATTRIBUTE,
  FIRST_SCREEN_SCRIPT,
  FIRST_SCREEN_SCRIPT_HASH,
  MODELS_HINT_KEY,
} from "../src/shared/first-screen.ts";
import { WELCOME_EXAMPLES } from "../src/ui/conversation/welcome-examples.ts";
import { en } from "../src/ui/i18n/en.ts";
import { LANGUAGE_KEY, loadLanguage, resolveLocale } from "../src/ui/i18n/locale.ts";
import { loadTheme, THEME_KEY } from "../src/ui/shared/theme.ts";
import { deferAppScripts, firstScreenHtml, type FirstScreenTexts } from "./vite-plugin-first-screen.ts";

/** jsdom (no type declarations installed): a page from `html`, at `url`, where the test may run scripts. */
const { JSDOM } = createRequire(import.meta.url)("jsdom") as {
  JSDOM: new (
    html: string,
    options?: { url?: string; runScripts?: "outside-only" },
  ) => {
    window: Window & typeof globalThis;
  };
};

describe("the prerendered first screen", () => {
  const screen = new JSDOM(firstScreenHtml(en)).window.document;

  it("says what the app's welcome says, from the English dictionary", () => {
    expect(screen.querySelector(".welcome h1")?.textContent).toBe(en["conversation.welcome"]);
    const setUp = en["conversation.setUp"].replace(/\{\{\s*link\s*\}\}/, en["conversation.setUpLink"]);
    expect(screen.querySelector(".welcome > p")?.textContent).toBe(setUp);
    expect(screen.querySelector(".welcome > p button.link-button")?.textContent).toBe(en["conversation.setUpLink"]);
    expect([...screen.querySelectorAll(".welcome-example")].map((button) => button.textContent)).toEqual(
      WELCOME_EXAMPLES.map((example) => en[example.title]),
    );
    // A message box per placeholder: composer.css shows the one for the device's pointer.
    expect(screen.querySelector(".composer textarea.pointer-fine")?.getAttribute("placeholder")).toBe(
      en["composer.placeholder"],
    );
    expect(screen.querySelector(".composer textarea.pointer-coarse")?.getAttribute("placeholder")).toBe(
      en["composer.placeholderTouch"],
    );
    expect(screen.querySelector(".composer .mode input[checked]")?.getAttribute("value")).toBe("flash");
    expect(screen.querySelector(".composer .mode-about")?.textContent).toBe(
      `${en["composer.mode.flash"]} — ${en["composer.mode.flashHint"]}`,
    );
  });

  it("is out of reach of the keyboard and of assistive technology, and has no ids the app uses", () => {
    const app = screen.querySelector(".app.first-screen");
    expect(app?.hasAttribute("inert")).toBe(true);
    expect(app?.getAttribute("aria-hidden")).toBe("true");
    expect(screen.querySelectorAll("[id]")).toHaveLength(0);
  });

  it("escapes every text", () => {
    const hostile = Object.fromEntries(
      Object.entries(en).map(([key, value]) => [key, `${value}<img src=x onerror=alert(1)>"'&`]),
    ) as FirstScreenTexts;
    const html = firstScreenHtml(hostile);
    expect(html).not.toContain("<img src=x");
    const document = new JSDOM(html).window.document;
    expect(document.querySelectorAll("img")).toHaveLength(1);
    expect(document.querySelector(".welcome h1")?.textContent).toBe(hostile["conversation.welcome"]);
    expect(document.querySelector(".composer textarea")?.getAttribute("placeholder")).toBe(
      hostile["composer.placeholder"],
    );
  });
});

describe("index.html's first script", () => {
  it("is allowed by the app's Content-Security-Policy by its hash", () => {
    const hash = `'sha256-${createHash("sha256").update(FIRST_SCREEN_SCRIPT).digest("base64")}'`;
    expect(FIRST_SCREEN_SCRIPT_HASH).toBe(hash);
    expect(APP_CSP).toContain(`script-src 'self' ${hash};`);
  });

  it("uses the keys, id and wait the app's modules name", () => {
    for (const literal of [THEME_KEY, LANGUAGE_KEY, MODELS_HINT_KEY, FIRST_SCREEN_ATTRIBUTE, APP_SCRIPTS_ID])
      expect(FIRST_SCREEN_SCRIPT).toContain(`"${literal}"`);
    expect(FIRST_SCREEN_SCRIPT).toContain(`setTimeout(load,${APP_SCRIPTS_FALLBACK_MS})`);
  });

  /** Runs the script in a page with `stored` in localStorage and `languages` as the browser's. */
  function run(options: { stored?: Record<string, string>; languages?: string[]; hash?: string; paint?: boolean }) {
    const html = deferAppScripts(
      '<!doctype html><html><head><script type="module" crossorigin src="/assets/index.js"></script>\n' +
        '<link rel="modulepreload" crossorigin href="/assets/i18n.js">\n</head><body></body></html>',
    );
    const dom = new JSDOM(html, { url: `http://fawn.test/${options.hash ?? ""}`, runScripts: "outside-only" });
    const { window } = dom;
    for (const [key, value] of Object.entries(options.stored ?? {})) window.localStorage.setItem(key, value);
    Object.defineProperty(window.navigator, "languages", { value: options.languages ?? ["en-US"] });
    const observers: ((list: { getEntries(): { name: string }[] }, observer: { disconnect(): void }) => void)[] = [];
    class FakeObserver {
      static supportedEntryTypes = ["paint", "largest-contentful-paint"];
      constructor(callback: (typeof observers)[number]) {
        observers.push(callback);
      }
      observe() {}
      disconnect() {}
    }
    Object.assign(window, { PerformanceObserver: FakeObserver });
    window.eval(FIRST_SCREEN_SCRIPT);
    const scripts = () => [...window.document.head.querySelectorAll(":scope > script[src], :scope > link")];
    const paint = () =>
      observers.forEach((callback) =>
        callback({ getEntries: () => [{ name: "first-contentful-paint" }] }, { disconnect() {} }),
      );
    return { root: window.document.documentElement, scripts, paint, close: () => window.close() };
  }

  it("applies the stored theme, as the app reads it", () => {
    for (const stored of ["dark", "light", "system", "purple"]) {
      const page = run({ stored: { [THEME_KEY]: stored } });
      expect(page.root.dataset.theme).toBe(loadTheme({ getItem: () => stored }));
      page.close();
    }
  });

  it("shows the English welcome exactly when the app's first screen is that welcome", () => {
    const tags = fc.constantFrom("en", "en-GB", "zh", "zh-CN", "zh-TW", "zh-Hant", "zh-SG", "fr", "de-CH", "ja", "x");
    fc.assert(
      fc.property(
        fc.array(tags, { maxLength: 3 }),
        fc.constantFrom(undefined, "system", "en", "zh-CN"),
        fc.constantFrom(undefined, "1"),
        fc.constantFrom(undefined, "flash", "pro", "ultra"),
        fc.constantFrom("", "#/t/abc-1"),
        (languages, language, hasModel, mode, hash) => {
          const stored: Record<string, string> = {};
          if (language) stored[LANGUAGE_KEY] = language;
          if (hasModel) stored[MODELS_HINT_KEY] = hasModel;
          if (mode) stored["fawn.mode"] = mode;
          const page = run({ stored, languages, hash });
          const english = resolveLocale(loadLanguage({ getItem: (key) => stored[key] ?? null }), languages) === "en";
          const welcome = english && !hasModel && (mode === undefined || mode === "flash") && hash === "";
          expect(page.root.getAttribute(FIRST_SCREEN_ATTRIBUTE)).toBe(welcome ? "welcome" : null);
          page.close();
        },
      ),
      { numRuns: 150 },
    );
  });

  it("loads the app's scripts once the welcome's paint is reported, and once parsed when it does not show", async () => {
    const welcome = run({});
    expect(welcome.scripts()).toHaveLength(0);
    welcome.paint();
    expect(welcome.scripts().map((tag) => tag.getAttribute("src") ?? tag.getAttribute("href"))).toEqual([
      "/assets/index.js",
      "/assets/i18n.js",
    ]);
    expect(welcome.scripts()[0]?.getAttribute("type")).toBe("module");
    welcome.close();
    const chinese = run({ languages: ["zh-CN"] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chinese.scripts()).toHaveLength(2);
    chinese.close();
  });
});
