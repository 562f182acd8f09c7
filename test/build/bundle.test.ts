// Checks on the built app (dist/), run after `npm run build`: the runtime boundaries of docs/architecture.md#layers
// hold.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allScripts, DIST, fileText, importSpecifiers, initialFiles, workerFiles } from "../../scripts/dist-graph.ts";

/** node: modules a chunk imports, statically or dynamically. */
function nodeImports(file: string): string[] {
  return importSpecifiers(file)
    .map((entry) => entry.specifier)
    .filter((specifier) => specifier.startsWith("node:"));
}

describe("built bundle", () => {
  it("has an agent worker chunk, and no worker chunk imports node: modules", () => {
    const files = workerFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(nodeImports(file), file).toEqual([]);
  });

  it("has no node: import in any script at all", () => {
    for (const file of allScripts()) expect(nodeImports(file), file).toEqual([]);
  });

  it("carries none of the server: no database driver, no SQL, no LangGraph server in any script", () => {
    for (const file of allScripts()) {
      const code = fileText(file);
      for (const marker of [
        "fawn_rows",
        "pg_advisory",
        "PGlite",
        "pg-protocol",
        "langgraph-api",
        "@hono/node-server",
      ]) {
        expect(code.includes(marker), `${file} contains ${marker}`).toBe(false);
      }
    }
  });

  it("keeps LangGraph and LangChain out of what the page loads first", () => {
    const scripts = initialFiles().filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = fileText(file);
      expect(/langgraph|@langchain|__pregel/i.test(code), `${file} contains LangGraph`).toBe(false);
    }
  });

  it("leaves the Markdown renderer, DOMPurify and Settings out of the first load, as chunks the service worker keeps", () => {
    const initial = initialFiles()
      .filter((file) => file.endsWith(".js"))
      .map(fileText)
      .join("\n");
    expect(initial).not.toContain("markedjs/marked");
    expect(initial).not.toContain("DOMPurify");
    const serviceWorker = readFileSync(join(DIST, "service-worker.js"), "utf8");
    const lazy = allScripts().filter((file) => /\/(?:markdown-view|settings-dialog)-/.test(file));
    expect(lazy.length).toBe(2);
    for (const file of lazy) expect(serviceWorker, file).toContain(file);
  });

  it("loads the OpenAI SDK in the agent worker only after it has started, from a precached chunk", () => {
    // x-stainless-* are the headers of the Stainless-made SDKs (openai, @anthropic-ai/sdk).
    expect(workerFiles().map(fileText).join("\n")).not.toContain("x-stainless");
    const serviceWorker = readFileSync(join(DIST, "service-worker.js"), "utf8");
    const sdk = allScripts().filter((file) => fileText(file).includes("ChatOpenAICompletions"));
    expect(sdk.length).toBeGreaterThan(0);
    for (const file of sdk) expect(serviceWorker, file).toContain(file);
  });

  it("serves crawlers a real robots.txt", () => {
    expect(readFileSync(join(DIST, "robots.txt"), "utf8")).toMatch(/^User-agent: \*$/m);
  });

  it("puts LangGraph in the worker", () => {
    const worker = workerFiles().map(fileText).join("\n");
    expect(/langgraph/i.test(worker)).toBe(true);
  });

  it("keeps just-bash in the sandbox worker and LangGraph out of it", () => {
    const sandbox = workerFiles("sandbox").map(fileText).join("\n");
    expect(/langgraph|__pregel/i.test(sandbox)).toBe(false);
    expect(sandbox).toContain("execution exceeded");
    expect(workerFiles().map(fileText).join("\n")).not.toContain("execution exceeded");
  });

  it("serves Pyodide from our own origin and precaches it for offline use", () => {
    const files = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
    const serviceWorker = readFileSync(join(DIST, "service-worker.js"), "utf8");
    for (const file of files) {
      expect(existsSync(join(DIST, "pyodide", file)), file).toBe(true);
      expect(serviceWorker, file).toContain(`pyodide/${file}`);
    }
    // The python worker gets pyodide.mjs from the page as bytes; only packages come from the CDN.
    const python = workerFiles("python").map(fileText).join("\n");
    expect(python).toContain("pyodide.mjs");
    expect(python).not.toMatch(/cdn\.jsdelivr\.net[^"'`]*pyodide\.m?js/);
  });

  it("starts python3 only walled off: the python worker is one self-contained chunk no worker starts itself", () => {
    // It runs from a data: URL, where a relative import has nothing to resolve against.
    const [python, ...others] = workerFiles("python");
    expect(others).toEqual([]);
    expect(importSpecifiers(python!)).toEqual([]);
    // Neither the agent nor the sandbox worker can start it on Fawn's own origin.
    for (const name of ["agent", "sandbox"]) {
      expect(workerFiles(name).map(fileText).join("\n"), name).not.toMatch(/python\.worker-[\w-]+\.js/);
    }
  });
});

/** The Content-Security-Policy in a built HTML file's <meta>, as directive → value. */
function metaPolicy(file: string): Record<string, string> {
  const html = readFileSync(join(DIST, file), "utf8");
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  if (!content) throw new Error(`${file} has no Content-Security-Policy <meta>`);
  return Object.fromEntries(
    content.split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

describe("Content-Security-Policy", () => {
  it("holds the app page to its own scripts and its one inline script: no plugins, no <base>, no form posts", () => {
    const policy = metaPolicy("index.html");
    const html = readFileSync(join(DIST, "index.html"), "utf8");
    // The first screen's script (src/shared/first-screen.ts), allowed by its hash and by nothing else.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(1);
    const hash = createHash("sha256").update(inline[0]!).digest("base64");
    expect(policy["script-src"]).toBe(`'self' 'sha256-${hash}'`);
    expect(policy["object-src"]).toBe("'none'");
    expect(policy["base-uri"]).toBe("'none'");
    expect(policy["form-action"]).toBe("'none'");
    expect(policy["frame-src"]).toMatch(/^'self' /);
    // The user's own endpoints, wherever they are.
    expect(policy["connect-src"]).toContain("https:");
  });

  it("draws the first screen from index.html, and keeps the app's scripts for its first script to load", () => {
    const html = readFileSync(join(DIST, "index.html"), "utf8");
    const root = /<div id="root">(.*?)<\/div>\s*<\/body>/s.exec(html)?.[1] ?? "";
    expect(root).toContain('class="app first-screen"');
    expect(root).toContain("<h1>What can I do for you?</h1>");
    expect(root).toMatch(/<div class="app first-screen"[^>]*\binert\b[^>]*aria-hidden="true"/);
    // Nothing fetches or runs a script before that first script says so; the stylesheet is in <head> as before.
    const outside = html.replace(/<template id="app-scripts">.*?<\/template>/s, "");
    expect(outside).not.toMatch(/<script[^>]*\bsrc=|rel="modulepreload"/);
    expect(html).toMatch(
      /<template id="app-scripts"><script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/,
    );
    expect(html).toMatch(/<link rel="stylesheet"[^>]*href="\/assets\/index-[\w-]+\.css"/);
  });

  it("gives the Python frame no network but Pyodide's package host, and no eval", () => {
    const policy = metaPolicy("frames/python.html");
    expect(policy["default-src"]).toBe("'none'");
    expect(policy["connect-src"]).toMatch(/^https:\/\/cdn\.jsdelivr\.net\/pyodide\/v[\d.]+\/full\/$/);
    expect(policy["script-src"]).not.toContain("'unsafe-eval'");
    expect(policy["worker-src"]).toBe("data:");
  });

  it("gives an HTML preview's frame no network until Allow network, then the web", () => {
    const off = metaPolicy("frames/preview.html");
    expect(off["default-src"]).toBe("'none'");
    for (const directive of [
      "script-src",
      "style-src",
      "img-src",
      "font-src",
      "media-src",
      "connect-src",
      "frame-src",
    ]) {
      expect(off[directive], directive).not.toMatch(/https?:/);
    }
    expect(off["form-action"]).toBe("'none'");
    const on = metaPolicy("frames/preview-network.html");
    for (const directive of ["script-src", "img-src", "connect-src", "frame-src"]) {
      expect(on[directive], directive).toContain("https:");
    }
  });

  it("gives every HTML document Fawn serves a policy", () => {
    const pages = ["index.html", ...readdirSync(join(DIST, "frames")).map((name) => `frames/${name}`)];
    for (const page of pages.filter((name) => name.endsWith(".html")))
      expect(() => metaPolicy(page), page).not.toThrow();
  });
});

describe("the web app manifest", () => {
  const manifest = JSON.parse(readFileSync(join(DIST, "manifest.webmanifest"), "utf8")) as {
    start_url: string;
    scope: string;
    file_handlers?: { action: string; accept: Record<string, string[]> }[];
    share_target?: { action: string; method: string; enctype: string; params: { files: { accept: string[] }[] } };
  };

  it("lets the installed app open .fawn files and take shared ones, at addresses relative to where it is served", () => {
    // Relative addresses resolve against the manifest's own URL, so a build for /fawn/ stays in /fawn/.
    const served = "https://example.org/fawn/manifest.webmanifest";
    const [handler] = manifest.file_handlers ?? [];
    expect(Object.values(handler?.accept ?? {}).flat()).toContain(".fawn");
    expect(new URL(handler!.action, served).href).toBe(new URL(manifest.start_url, served).href);
    const target = manifest.share_target;
    expect(target).toMatchObject({ method: "POST", enctype: "multipart/form-data" });
    expect(new URL(target!.action, served).href).toBe("https://example.org/fawn/share-target");
    expect(target!.params.files.flatMap((files) => files.accept)).toEqual(expect.arrayContaining([".fawn", ".zip"]));
    // The service worker answers that address.
    expect(readFileSync(join(DIST, "service-worker.js"), "utf8")).toContain("share-target");
  });
});
