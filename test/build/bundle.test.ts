// Checks on the built app (dist/), run after `npm run build`: the runtime boundaries of DESIGN.md §2 hold.
import { existsSync, readFileSync } from "node:fs";
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

  it("keeps LangGraph and LangChain out of what the page loads first", () => {
    const scripts = initialFiles().filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = fileText(file);
      expect(/langgraph|@langchain|__pregel/i.test(code), `${file} contains LangGraph`).toBe(false);
    }
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
    // The python worker imports pyodide.mjs from `<base>pyodide/` at run time; only packages come from the CDN.
    const python = workerFiles("python").map(fileText).join("\n");
    expect(python).toContain("pyodide.mjs");
    expect(python).not.toMatch(/cdn\.jsdelivr\.net[^"'`]*pyodide\.m?js/);
  });
});
