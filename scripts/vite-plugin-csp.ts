// Vite plugin: writes each document's Content-Security-Policy (src/shared/content-security-policy.ts) into its
// <meta> at build and in dev, so the policy holds on any static host, and sends the app page's policy as a header
// from the preview server too. A document without an entry here fails the build: every page Fawn serves has a policy.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Plugin } from "vite";
import { APP_CSP, PREVIEW_CSP, PREVIEW_NETWORK_CSP, pythonFrameCsp } from "../src/shared/content-security-policy.ts";

/** Pyodide's package host for the installed version (what python-core's pyodidePackageBaseUrl gives at run time). */
function installedPyodidePackageBaseUrl(root: string): string {
  const manifest = createRequire(join(root, "package.json")).resolve("pyodide/package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return `https://cdn.jsdelivr.net/pyodide/v${version}/full/`;
}

/** The policy of each HTML document, by its path from the project root. */
export function documentPolicies(root: string): Record<string, string> {
  return {
    "/index.html": APP_CSP,
    "/webcontainer-check.html": APP_CSP,
    "/oauth-callback.html": APP_CSP,
    "/frames/python.html": pythonFrameCsp(installedPyodidePackageBaseUrl(root)),
    "/frames/preview.html": PREVIEW_CSP,
    "/frames/preview-network.html": PREVIEW_NETWORK_CSP,
  };
}

const PLACEHOLDER = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/;

export function contentSecurityPolicy(): Plugin {
  let policies: Record<string, string> = {};
  return {
    name: "fawn:content-security-policy",
    configResolved(config) {
      policies = documentPolicies(config.root);
    },
    transformIndexHtml: {
      order: "pre",
      handler(html, context) {
        const policy = policies[context.path];
        if (policy === undefined)
          throw new Error(`${context.path} has no Content-Security-Policy in vite-plugin-csp.ts.`);
        const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
        if (!PLACEHOLDER.test(html)) throw new Error(`${context.path} needs a Content-Security-Policy <meta> to fill.`);
        return html.replace(PLACEHOLDER, meta);
      },
    },
    configurePreviewServer(server) {
      // The app shell's navigations get the header as well (the meta tag alone cannot carry frame-ancestors).
      // Paths as the policies name them, wherever the app is served from (`--base`).
      const base = server.config.base;
      server.middlewares.use((request, response, next) => {
        const url = request.url?.split("?")[0] ?? "";
        const path = url.startsWith(base) ? `/${url.slice(base.length)}` : url;
        if (!path.startsWith("/frames/") && !/\.[a-z0-9]+$/i.test(path.replace(/\/index\.html$/, "/"))) {
          response.setHeader("Content-Security-Policy", `${APP_CSP}; frame-ancestors 'self'`);
        }
        next();
      });
    },
  };
}
