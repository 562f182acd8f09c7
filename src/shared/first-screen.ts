// The one script index.html runs inline, before the page is drawn: it applies the chosen theme and decides whether the
// prerendered first screen (scripts/vite-plugin-first-screen.ts) shows, so that it shows only when the app's first
// screen will be that same welcome. Inline because a file would be a render-blocking request; the page's
// Content-Security-Policy allows exactly this script by its hash (content-security-policy.ts).

/**
 * localStorage key: "1" once the app has seen a model set up (src/ui/state/model-choice.ts keeps it up to date), so a returning user
 * whose first screen says which model answers is not shown the "Set up a model" welcome first.
 */
export const MODELS_HINT_KEY = "fawn.hasModel";

/** The attribute this script sets on `<html>` when the prerendered welcome may show (its value: "welcome"). */
export const FIRST_SCREEN_ATTRIBUTE = "data-first-screen";

/** The id of the `<template>` in index.html holding the page's script tags, which FIRST_SCREEN_SCRIPT adds. */
export const APP_SCRIPTS_ID = "app-scripts";

/** How long the script waits for the paint to be reported before it loads the app anyway, ms. */
export const APP_SCRIPTS_FALLBACK_MS = 1000;

/**
 * The script's source, exactly as index.html carries it (its hash must match). It mirrors, in plain ES2017 that runs
 * before any module: `parseTheme` (ui/shared/theme.ts), `resolveLocale` (ui/i18n/locale.ts; only English has a
 * prerendered screen), the app's mode (`fawn.mode`: the welcome shows Flash), and a thread address (`#/t/<id>`),
 * which opens that thread rather than the welcome. scripts/vite-plugin-first-screen.test.ts checks them against the
 * app's own.
 *
 * Then it loads the app: the build keeps the page's script and modulepreload tags in a `<template>` (inert: nothing
 * in it is fetched), which this copies into <head>. With the prerendered screen shown, only once the browser has
 * reported its first contentful and largest contentful paint (the types it reports; APP_SCRIPTS_FALLBACK_MS at most):
 * the screen needs no script, so its paint waits for no script's download, and the app's text never replaces it
 * before its paint was counted. Otherwise (or in a hidden tab, which paints nothing) as soon as the page is parsed.
 */
export const FIRST_SCREEN_SCRIPT = [
  "(function(){",
  "var root=document.documentElement;",
  "function get(key){try{return localStorage.getItem(key)}catch(error){return null}}",
  // The decision may fail (an old browser); the app must still load.
  "var shown=false;",
  "try{",
  'var theme=get("fawn.theme");',
  'root.dataset.theme=theme==="light"||theme==="dark"?theme:"system";',
  'var language=get("fawn.language");',
  'var locale=language==="en"||language==="zh-CN"?language:null;',
  "var tags=navigator.languages||[];",
  "for(var i=0;!locale&&i<tags.length;i++){",
  "try{var tag=new Intl.Locale(tags[i]).maximize();",
  'if(tag.language==="en")locale="en";',
  'else if(tag.language==="zh")locale=tag.script==="Hans"?"zh-CN":"en"}catch(error){}',
  "}",
  'var mode=get("fawn.mode");',
  'shown=(locale||"en")==="en"&&get("fawn.hasModel")!=="1"',
  '&&mode!=="thinking"&&mode!=="pro"&&mode!=="ultra"',
  "&&!/^#\\/t\\/[\\w-]+$/.test(location.hash);",
  'if(shown)root.setAttribute("data-first-screen","welcome")',
  "}catch(error){shown=false}",
  "var loaded=false;",
  "function load(){",
  'var template=document.getElementById("app-scripts");',
  "if(loaded||!template)return;",
  "loaded=true;",
  "var tags=template.content.children;",
  "for(var i=0;i<tags.length;i++){",
  "var from=tags[i],to=document.createElement(from.localName);",
  "for(var j=0;j<from.attributes.length;j++)to.setAttribute(from.attributes[j].name,from.attributes[j].value);",
  "document.head.appendChild(to)}",
  "}",
  "function parsed(){",
  'if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",load);else load()}',
  'if(!shown||document.visibilityState==="hidden")return parsed();',
  "var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];",
  'var wanted=["paint","largest-contentful-paint"].filter(function(type){return types.indexOf(type)>=0});',
  "var left=wanted.length;",
  "setTimeout(load,1000);",
  "if(!left)return requestAnimationFrame(function(){setTimeout(load,0)});",
  "wanted.forEach(function(type){",
  "var seen=false;",
  "new PerformanceObserver(function(list,observer){",
  "if(seen||!list.getEntries().some(function(entry){",
  'return type!=="paint"||entry.name==="first-contentful-paint"}))return;',
  "seen=true;observer.disconnect();if(--left===0)load()",
  "}).observe({type:type,buffered:true})",
  "})",
  "})();",
].join("");

/** The script's hash as a CSP source (`'sha256-…'`); a unit test recomputes it from FIRST_SCREEN_SCRIPT. */
export const FIRST_SCREEN_SCRIPT_HASH = "'sha256-z2t69qKgn9HAvB/vgLy8z4NTGDSNp3LI3f1j4l5efdo='";
