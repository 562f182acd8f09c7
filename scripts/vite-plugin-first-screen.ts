// Vite plugin: prerenders the app's first screen for a first visit (sidebar, title bar, the welcome with its examples,
// the composer) into index.html at build, from the English dictionary and with the markup and class names the app
// renders, so the page is drawn from HTML and CSS before any script has loaded. It also puts the inline script that
// applies the theme and decides whether that screen shows (src/shared/first-screen.ts) where theme.js used to be.
// The screen is inert and hidden from assistive technology; main.tsx replaces it with the app in one task.
import type { Plugin } from "vite";
import { AGENT_MODES } from "../src/protocol/index.ts";
import { APP_SCRIPTS_ID, FIRST_SCREEN_SCRIPT } from "../src/shared/first-screen.ts";
import { ATTACH_ICON_PATH } from "../src/ui/composer/attach-icon.ts";
import { WELCOME_EXAMPLES } from "../src/ui/conversation/welcome-examples.ts";
import { en } from "../src/ui/i18n/en.ts";

/** The English texts, or a stand-in in tests (to check that every text is escaped). */
export type FirstScreenTexts = Record<keyof typeof en, string>;

const SCRIPT_MARK = "<!-- first-screen script -->";
const SCREEN_MARK = "<!-- first-screen -->";

/** `text` as HTML text or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!,
  );
}

/** An element: `attributes` as name → value (true: present without a value), `children` already HTML. */
function element(name: string, attributes: Record<string, string | true>, ...children: string[]): string {
  const written = Object.entries(attributes)
    .map(([key, value]) => (value === true ? ` ${key}` : ` ${key}="${escapeHtml(value)}"`))
    .join("");
  const open = `<${name}${written}>`;
  return ["img", "input"].includes(name) ? open : `${open}${children.join("")}</${name}>`;
}

/** A line drawing as welcome.tsx and composer.tsx draw them. */
function icon(className: string, size: number, path: Record<string, string>): string {
  const viewBox = { class: className, viewBox: "0 0 24 24", width: String(size), height: String(size) };
  return element("svg", viewBox, element("path", { fill: "none", stroke: "currentColor", ...path }));
}

/**
 * The first screen of a first visit as the app renders it (app.tsx: sidebar.tsx, thread-header.tsx, welcome.tsx
 * before a model is set up, composer.tsx in Flash mode), without what does not show: ids, accessible names, titles,
 * closed dialogs and hidden file inputs. The logo's address is from the site's root, as in index.html: Vite adds the
 * base path when it builds the page.
 */
export function firstScreenHtml(text: FirstScreenTexts): string {
  const button = (className: string, label: string, extra: Record<string, string | true> = {}) =>
    element("button", { type: "button", class: className, ...extra }, escapeHtml(label));
  // conversation.setUp's {{ link }} is the "Set up a model" button, where the sentence puts it (i18n rich()).
  const setUp = text["conversation.setUp"]
    .split(/\{\{\s*(\w+)\s*\}\}/)
    .map((piece, index) =>
      index % 2 === 0 ? escapeHtml(piece) : button("link-button", text["conversation.setUpLink"]),
    );
  const sidebar = element(
    "aside",
    { class: "sidebar" },
    element(
      "div",
      { class: "brand" },
      element("img", { alt: "", width: "24", height: "24", src: "/favicon.svg" }),
      element("span", {}, "Fawn"),
      element("button", { type: "button", class: "ghost icon drawer-close" }, element("span", {}, "×")),
    ),
    button("primary new-thread closes-drawer", text["common.newThread"]),
    element(
      "div",
      { class: "import-thread" },
      element("div", { class: "menu-anchor" }, button("ghost", text["import.button"])),
    ),
    element(
      "nav",
      { class: "thread-list thread-nav" },
      element("div", { class: "thread-search" }, element("input", { type: "search", placeholder: text["search.box"] })),
      element("div", { class: "thread-scroll" }, element("p", { class: "muted" }, escapeHtml(text["threads.none"]))),
    ),
    element(
      "div",
      { class: "sidebar-footer" },
      button("ghost settings-button closes-drawer", text["sidebar.settings"]),
      button("ghost icon shortcuts-button drawer-shortcuts closes-drawer", "?"),
    ),
  );
  const header = element(
    "header",
    { class: "thread-header empty" },
    element(
      "button",
      { type: "button", class: "ghost threads-toggle" },
      element("span", {}, "☰"),
      " ",
      element("span", { class: "threads-toggle-label" }, escapeHtml(text["common.threads"])),
    ),
    element("span", { class: "header-brand" }, "Fawn"),
    element("div", { class: "thread-header-actions" }, button("ghost icon shortcuts-button", "?")),
  );
  const examples = WELCOME_EXAMPLES.map((example) =>
    element(
      "li",
      { class: "welcome-card" },
      icon("welcome-icon", 22, {
        "stroke-width": "1.7",
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        d: example.icon,
      }),
      button("welcome-example", text[example.title]),
      element("span", { class: "welcome-prompt" }, escapeHtml(text[example.prompt])),
      example.hint ? element("span", { class: "welcome-hint" }, escapeHtml(text[example.hint])) : "",
    ),
  );
  const welcome = element(
    "div",
    { class: "welcome" },
    element("h1", {}, escapeHtml(text["conversation.welcome"])),
    element("p", {}, ...setUp),
    element(
      "section",
      { class: "welcome-examples" },
      element("h2", {}, escapeHtml(text["welcome.examples"])),
      element("ul", {}, ...examples),
    ),
  );
  const modes = AGENT_MODES.map((mode) =>
    element(
      "label",
      { class: "mode" },
      element("input", { type: "radio", value: mode, ...(mode === "flash" && { checked: true }) }),
      element("span", {}, escapeHtml(text[`composer.mode.${mode}`])),
    ),
  );
  // The message box twice, one per placeholder: composer.css shows the one for the device's pointer (a finger has no
  // Enter or Shift key to speak of), as composer.tsx chooses it.
  const textarea = (className: string, placeholder: string) =>
    element("textarea", { class: className, rows: "1", placeholder });
  const composer = element(
    "form",
    { class: "composer" },
    textarea("pointer-fine", text["composer.placeholder"]),
    textarea("pointer-coarse", text["composer.placeholderTouch"]),
    element(
      "button",
      { type: "button", class: "ghost attach-button" },
      icon("attach-icon", 18, {
        d: ATTACH_ICON_PATH,
        "stroke-width": "1.8",
        "stroke-linecap": "round",
      }),
      element("span", { class: "attach-label" }, escapeHtml(text["composer.attach"])),
    ),
    element(
      "div",
      { class: "composer-bar" },
      element("div", { class: "modes" }, ...modes),
      element("span", { class: "spacer" }),
    ),
    element(
      "button",
      { type: "submit", class: "primary send-button", disabled: true },
      escapeHtml(text["composer.send"]),
    ),
    element(
      "p",
      { class: "mode-about" },
      element("strong", {}, escapeHtml(text["composer.mode.flash"])),
      " — ",
      escapeHtml(text["composer.mode.flashHint"]),
    ),
  );
  return element(
    "div",
    // Shown only when index.html's first script says the app's first screen will be this one (base.css).
    {
      class: "app first-screen",
      "data-sidebar": "shown",
      "data-threads": "closed",
      inert: true,
      "aria-hidden": "true",
    },
    sidebar,
    element(
      "main",
      { class: "main" },
      header,
      element("div", { class: "conversation" }, element("div", { class: "conversation-inner" }, welcome)),
      composer,
    ),
  );
}

/** The page's module script and modulepreload tags, as Vite writes them into the built index.html. */
const APP_SCRIPT_TAG =
  /[ \t]*<(?:script type="module"[^>]*\bsrc="[^"]+"[^>]*><\/script>|link rel="modulepreload"[^>]*>)\n?/g;

/**
 * Moves the page's script tags into `<template id="app-scripts">`, where nothing is fetched: index.html's first
 * script adds them once the first screen has been painted, or at once when it does not show.
 */
export function deferAppScripts(html: string): string {
  const tags = html.match(APP_SCRIPT_TAG)?.map((tag) => tag.trim()) ?? [];
  if (!tags.some((tag) => tag.startsWith("<script")))
    throw new Error("index.html has no module script for the first-screen script to load.");
  const template = `<template id="${APP_SCRIPTS_ID}">${tags.join("")}</template>\n  `;
  return html.replace(APP_SCRIPT_TAG, "").replace("</head>", () => `${template}</head>`);
}

/**
 * Fills index.html's two marks (the inline script in <head>, the first screen in #root) and, in a build, hands the
 * page's script tags to that script (deferAppScripts).
 */
export function firstScreen(): Plugin[] {
  const fill: Plugin = {
    name: "fawn:first-screen",
    transformIndexHtml: {
      order: "pre",
      handler(html, context) {
        if (context.path !== "/index.html") return html;
        if (!html.includes(SCRIPT_MARK) || !html.includes(SCREEN_MARK))
          throw new Error(`index.html needs the marks ${SCRIPT_MARK} and ${SCREEN_MARK}.`);
        return html
          .replace(SCRIPT_MARK, () => `<script>${FIRST_SCREEN_SCRIPT}</script>`)
          .replace(SCREEN_MARK, () => firstScreenHtml(en));
      },
    },
  };
  const defer: Plugin = {
    name: "fawn:first-screen-scripts",
    // `vite dev` serves its own script tags; main.tsx then waits for the paint itself.
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html, context) => (context.path === "/index.html" ? deferAppScripts(html) : html),
    },
  };
  return [fill, defer];
}
