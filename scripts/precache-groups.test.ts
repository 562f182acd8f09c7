import { describe, expect, it } from "vitest";
import { injectedManifest, lazyGroups, lazyPartsTransform, mentions } from "./precache-groups.ts";

/** A small build: the page, its Markdown chunk, mermaid and its own chunks, the agent worker and pdfjs, Pyodide. */
const BUILD: Record<string, { text?: string; sources?: string[] }> = {
  "index.html": { text: '<script type="module" src="/assets/index-a1.js"></script>' },
  "manifest.webmanifest": { text: '{"icons":[{"src":"icon-192.png"}]}' },
  "icon-192.png": {},
  "assets/index-a1.js": {
    text: 'import"./shared-s1.js";const w=new Worker(new URL("agent.worker-w1.js",import.meta.url));import("./markdown-m1.js");',
    sources: ["../../src/ui/main.tsx"],
  },
  "assets/shared-s1.js": { text: "export const s=1;", sources: ["../../node_modules/lodash-es/x.js"] },
  // Vite's preload list names what mermaid imports: no lead of its own.
  "assets/markdown-m1.js": {
    text: 'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/mermaid.core-c1.js","assets/dagre-d1.js"])))=>i.map(i=>d[i]);import("./mermaid.core-c1.js");import("./katex-k1.js");',
    sources: ["../../src/ui/markdown/markdown.ts"],
  },
  "assets/katex-k1.js": { text: "export{}", sources: ["../../node_modules/katex/dist/katex.mjs"] },
  "assets/mermaid.core-c1.js": {
    text: 'import"./dagre-d1.js";import"./shared-s1.js";import("./flowDiagram-f1.js");',
    sources: ["../../node_modules/mermaid/dist/mermaid.core.mjs"],
  },
  "assets/dagre-d1.js": { text: "export{}", sources: ["../../node_modules/dagre-d3-es/src/index.js"] },
  "assets/flowDiagram-f1.js": { text: 'import"./dagre-d1.js";', sources: ["../../node_modules/mermaid/dist/flow.mjs"] },
  "assets/agent.worker-w1.js": {
    text: 'const f=async()=>(await import("./pdf-to-markdown-p1.js")).pdfToMarkdown;',
    sources: ["../../workers/agent.worker.ts"],
  },
  "assets/pdf-to-markdown-p1.js": {
    text: 'new Worker(new URL("/assets/pdf-parser.worker-q1.js",import.meta.url),{type:"module"});',
    sources: ["../../src/gateway/uploads/pdf-to-markdown.ts", "../../node_modules/pdfjs-dist/build/pdf.mjs"],
  },
  "assets/pdf-parser.worker-q1.js": {
    text: "export{}",
    sources: ["../../node_modules/pdfjs-dist/build/pdf.worker.mjs"],
  },
  "pyodide/pyodide.asm.wasm": {},
  "pyodide/pyodide.mjs": { text: 'import("./pyodide.asm.mjs")' },
};

const read = (file: string) => BUILD[file]?.text;
const sources = (file: string) => BUILD[file]?.sources;

describe("lazyGroups", () => {
  it("puts mermaid's chunks and what only they import in diagrams, pdfjs in pdf, pyodide/ in python", () => {
    const groups = lazyGroups(Object.keys(BUILD), read, sources);
    expect(Object.fromEntries(groups)).toEqual({
      "assets/mermaid.core-c1.js": "diagrams",
      "assets/dagre-d1.js": "diagrams",
      "assets/flowDiagram-f1.js": "diagrams",
      "assets/pdf-to-markdown-p1.js": "pdf",
      "assets/pdf-parser.worker-q1.js": "pdf",
      "pyodide/pyodide.asm.wasm": "python",
      "pyodide/pyodide.mjs": "python",
    });
    // A chunk mermaid shares with the app (and KaTeX, which the Markdown chunk imports itself) stays in the install.
    expect(groups.has("assets/shared-s1.js")).toBe(false);
    expect(groups.has("assets/katex-k1.js")).toBe(false);
  });

  it("refuses a build where the app imports a lazy chunk statically", () => {
    const build = { ...BUILD, "assets/index-a1.js": { text: 'import"./mermaid.core-c1.js";' } };
    expect(() => lazyGroups(Object.keys(build), (file) => build[file as keyof typeof build]?.text, sources)).toThrow(
      /index-a1\.js imports assets\/mermaid\.core-c1\.js \(lazy group "diagrams"\) statically/,
    );
  });

  it("keeps a file nothing names, and every file when no source map says where chunks come from", () => {
    const files = [...Object.keys(BUILD), "assets/orphan-o1.js"];
    expect(lazyGroups(files, read, sources).has("assets/orphan-o1.js")).toBe(false);
    const withoutMaps = lazyGroups(files, read, () => undefined);
    expect([...withoutMaps.values()].every((group) => group === "python")).toBe(true);
  });
});

describe("mentions", () => {
  it("finds quoted file names and names after a folder, not a source map comment or a preload list", () => {
    const edges = mentions(["a.js", "b.js", "c.css", "d.js"], (file) =>
      file === "a.js"
        ? 'import"./b.js";const u="/assets/c.css";m.f||(m.f=["assets/d.js"]);\n//# sourceMappingURL=a.js.map'
        : undefined,
    );
    expect([...edges.get("a.js")!]).toEqual(["b.js", "c.css"]);
  });
});

describe("injectedManifest", () => {
  it("reads the entries the build put in place of self.__WB_MANIFEST, lazy marks included", () => {
    const code =
      'var a={x:1};Bt([{"revision":"abc","url":"index.html"},{"lazy":"python","revision":"d1","url":"pyodide/p.wasm"},' +
      '{"revision":null,"url":"assets/a-1.js"}]);';
    expect(injectedManifest(code)).toEqual([
      { revision: "abc", url: "index.html" },
      { lazy: "python", revision: "d1", url: "pyodide/p.wasm" },
      { revision: null, url: "assets/a-1.js" },
    ]);
    expect(() => injectedManifest("self.__WB_MANIFEST")).toThrow(/No precache manifest/);
  });
});

describe("lazyPartsTransform", () => {
  it("marks lazy entries and leaves the others as they were", () => {
    const transform = lazyPartsTransform("/nowhere");
    const { manifest } = transform([
      { url: "index.html", revision: "r", size: 10 },
      { url: "pyodide/pyodide.asm.wasm", revision: "w", size: 20 },
    ]);
    expect(manifest).toEqual([
      { url: "index.html", revision: "r", size: 10 },
      { url: "pyodide/pyodide.asm.wasm", revision: "w", size: 20, lazy: "python" },
    ]);
  });
});
