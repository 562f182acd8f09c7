// Service worker entry point: precaches the app shell and workers, caches the lazy groups (diagrams, PDF reading, Python)
// on first use or when the page asks in idle time, serves navigations offline, updates on request, adds the
// cross-origin isolation headers (COOP/COEP) to every same-origin response it serves, and receives files shared to
// the installed app (docs/architecture.md#d9-pwa).
/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import {
  SHARE_TARGET_FILES,
  SHARE_TARGET_PATH,
  SHARED_FILE_KEY,
  SHARED_FILES_CACHE,
  sharedFileKey,
} from "../src/protocol/thread-share.ts";
import { CACHE_LAZY_PARTS, type ManifestEntry } from "../src/protocol/lazy-parts.ts";
import { APP_CSP } from "../src/shared/content-security-policy.ts";
import { LazyParts } from "./lazy-parts.ts";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/**
 * The response with COOP `same-origin` and COEP `credentialless`, the headers vite.config.ts sets in dev and preview:
 * on a static host that cannot set headers, the page is cross-origin isolated (as WebContainer needs) once this
 * worker controls it. Opaque responses cannot be rebuilt and need no headers.
 */
function withCrossOriginIsolation(response: Response): Response {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "credentialless");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// At respond time, not at cache time: the precache holds responses as the server sent them.
addPlugins([{ handlerWillRespond: async ({ response }) => withCrossOriginIsolation(response) }]);
// The build's manifest: entries marked `lazy` (vite.config.ts, scripts/precache-groups.ts) are left out of the install.
const manifest = self.__WB_MANIFEST as ManifestEntry[];
precacheAndRoute(manifest.filter((entry) => entry.lazy === undefined));
cleanupOutdatedCaches();

// The lazy groups: cache-first from their own cache, filled on first use and when the page asks (CACHE_LAZY_PARTS).
// A new build's activation drops the files it no longer lists, so an update replaces those that changed.
const lazyParts = new LazyParts(manifest, self.registration.scope, {
  caches: self.caches,
  fetch: (url, init) => self.fetch(url, init),
});
self.addEventListener("activate", (event) => event.waitUntil(lazyParts.removeOutdated()));
registerRoute(
  ({ url, request }) => request.method === "GET" && lazyParts.has(url.href),
  async ({ url, event }) =>
    withCrossOriginIsolation(await lazyParts.respond(url.href, (done) => (event as FetchEvent).waitUntil(done))),
);

// Every in-app navigation is the single-page app: serve index.html from the precache, online or not, with the page's
// Content-Security-Policy as a header too (index.html also carries it in a <meta>). The handler answers through the
// precache strategy, so the plugin above adds the isolation headers. The frame documents (frames/*.html) are
// precached files of their own, with their own policies, and never the app shell; nor is oauth-callback.html, which an
// authorization server opens with a code in its query (so the precache, matching whole URLs, passes it to the network),
// nor robots.txt, llms.txt and ai-catalog.json (public/: for crawlers and agents; never the app's HTML).
const appShell = createHandlerBoundToURL("index.html");
registerRoute(
  new NavigationRoute(
    async (options) => {
      const response = await appShell(options);
      const headers = new Headers(response.headers);
      headers.set("Content-Security-Policy", `${APP_CSP}; frame-ancestors 'self'`);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
    {
      denylist: [
        /\/frames\//,
        /\/oauth-callback\.html(?:\?|$)/,
        /\/(?:robots|llms)\.txt(?:\?|$)/,
        /\/ai-catalog\.json(?:\?|$)/,
      ],
    },
  ),
);

// A file shared to the installed app (the manifest's share_target posts it here): kept in Cache Storage, then the app
// opens with `#shared-file=<id>` and its dialog "Shared thread" takes it from there. Without a file, the app opens.
registerRoute(
  ({ url }) => url.href === new URL(SHARE_TARGET_PATH, self.registration.scope).href,
  async ({ request }) => {
    const scope = self.registration.scope;
    try {
      const form = await request.formData();
      const file = form.getAll(SHARE_TARGET_FILES).find((item): item is File => item instanceof File);
      if (!file) return Response.redirect(scope, 303);
      const id = crypto.randomUUID();
      const headers = {
        "Content-Type": file.type || "application/octet-stream",
        "X-File-Name": encodeURIComponent(file.name),
        "X-Shared-At": String(Date.now()),
      };
      await (await caches.open(SHARED_FILES_CACHE)).put(sharedFileKey(id, scope), new Response(file, { headers }));
      return Response.redirect(`${scope}#${SHARED_FILE_KEY}=${id}`, 303);
    } catch {
      return Response.redirect(scope, 303);
    }
  },
  "POST",
);

// Everything else from our origin comes from the network, with the headers too (register other routes above this).
registerRoute(
  ({ url }) => url.origin === self.location.origin,
  async ({ request }) => withCrossOriginIsolation(await fetch(request)),
);

// The page asks for the update (workbox-window's messageSkipWaiting) once the user accepts it, and for the lazy
// groups in idle time (src/ui/workspace/lazy-parts-idle.ts): the answer goes to the port it sent.
self.addEventListener("message", (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === "SKIP_WAITING") void self.skipWaiting();
  if (type === CACHE_LAZY_PARTS) {
    event.waitUntil(lazyParts.cacheAll().then((status) => event.ports[0]?.postMessage(status)));
  }
});

// The first install takes the open page at once, so it works offline without a second visit.
clientsClaim();
