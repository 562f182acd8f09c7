import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import solid from "vite-plugin-solid";
import { lazyPartsTransform } from "./scripts/precache-groups.ts";
import { contentSecurityPolicy } from "./scripts/vite-plugin-csp.ts";
import { firstScreen } from "./scripts/vite-plugin-first-screen.ts";
import { pyodide } from "./scripts/vite-plugin-pyodide.ts";
import { SHARE_TARGET_FILES, SHARE_TARGET_PATH, THREAD_BUNDLE_MIME } from "./src/protocol/thread-share.ts";

/** The frame documents (frames/*.html): same-origin pages with policies of their own that host untrusted code. */
const FRAMES = Object.fromEntries(
  readdirSync(fileURLToPath(new URL("frames", import.meta.url)))
    .filter((name) => name.endsWith(".html"))
    .map((name) => [`frames/${name.slice(0, -5)}`, fileURLToPath(new URL(`frames/${name}`, import.meta.url))]),
);

/**
 * Cross-origin isolation (docs/architecture.md#d9-pwa), which WebContainer needs; the service worker adds the same
 * headers.
 */
const CROSS_ORIGIN_ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "credentialless",
};

/** Where this build writes (`build.outDir`, which `--outDir` changes), for the precache manifest's transform. */
let outDir = fileURLToPath(new URL("dist", import.meta.url));
const recordOutDir: Plugin = {
  name: "fawn:out-dir",
  configResolved(config) {
    outDir = resolve(config.root, config.build.outDir);
  },
};

// The page (SolidJS UI) and the agent worker are separate bundles; the worker is an ES module so it can split.
export default defineConfig({
  plugins: [
    solid(),
    // Every document's Content-Security-Policy in its <meta> (src/shared/content-security-policy.ts).
    contentSecurityPolicy(),
    // The first screen drawn from index.html before any script, and the inline script that decides it shows.
    firstScreen(),
    // Pyodide from our own origin at /pyodide/ (workers/python.worker.ts), copied from node_modules at build.
    pyodide(),
    recordOutDir,
    // Our own service worker (docs/architecture.md#d9-pwa): precache the shell and the worker chunks, offline
    // navigation; the lazy groups (diagrams, PDF reading, Python) are listed but cached on first use or in idle time.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "workers",
      filename: "service-worker.ts",
      registerType: "prompt",
      injectRegister: null,
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest,wasm}", "pyodide/*.{mjs,wasm,zip,json}"],
        // The agent worker is large (LangChain, later Pyodide glue); the default 2 MiB limit would skip it silently.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        // Marks each lazy group's entries (scripts/precache-groups.ts); `npm run size` budgets the rest (`precache`).
        manifestTransforms: [(entries) => lazyPartsTransform(outDir)(entries)],
        rollupFormat: "iife",
      },
      devOptions: { enabled: false },
      manifest: {
        name: "Fawn",
        short_name: "Fawn",
        description: "A super agent that runs in your browser. Bring your own model key.",
        theme_color: "#b5651d",
        background_color: "#fbf8f4",
        display: "standalone",
        // Relative to the manifest, which sits at the base path: an installed copy opens where it was served from.
        start_url: "./",
        scope: "./",
        // The installed app opens .fawn files (launchQueue) and takes them shared from other apps (the service worker
        // keeps the posted file for the page): both show the dialog "Shared thread" (docs/architecture.md#d8-bundles).
        file_handlers: [{ action: "./", accept: { [THREAD_BUNDLE_MIME]: [".fawn"] } }],
        share_target: {
          action: `./${SHARE_TARGET_PATH}`,
          method: "POST",
          enctype: "multipart/form-data",
          params: {
            files: [
              {
                name: SHARE_TARGET_FILES,
                accept: [THREAD_BUNDLE_MIME, ".fawn", "application/zip", ".zip"],
              },
            ],
          },
        },
        // A file opened while Fawn is open goes to that window rather than a second one.
        launch_handler: { client_mode: "focus-existing" },
        icons: [
          { src: "icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "favicon.svg", sizes: "any", type: "image/svg+xml" },
        ],
      },
    }),
  ],
  worker: { format: "es" },
  build: {
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 4096,
    // webcontainer-check.html is a manual check page for a real online browser, not linked from the app.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL("index.html", import.meta.url)),
        "webcontainer-check": fileURLToPath(new URL("webcontainer-check.html", import.meta.url)),
        // Where an MCP server's authorization server sends the user back after "Sign in".
        "oauth-callback": fileURLToPath(new URL("oauth-callback.html", import.meta.url)),
        ...FRAMES,
      },
    },
  },
  server: { host: "127.0.0.1", port: 5173, headers: CROSS_ORIGIN_ISOLATION },
  preview: { host: "127.0.0.1", port: 4173, headers: CROSS_ORIGIN_ISOLATION },
});
