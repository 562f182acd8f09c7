// Service worker entry point: precaches the app shell and workers, serves navigations offline, updates on request.
/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every in-app navigation is the single-page app: serve index.html from the precache, online or not.
registerRoute(new NavigationRoute(createHandlerBoundToURL("index.html")));

// The page asks for the update (workbox-window's messageSkipWaiting) once the user accepts it.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

// The first install takes the open page at once, so it works offline without a second visit.
clientsClaim();
