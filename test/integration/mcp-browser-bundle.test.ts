// The MCP layer bundles for the browser (the agent worker) without Node: esbuild with the browser platform fails on
// an unresolvable Node built-in, and the bundle's inputs name no node: module and not the SDK's stdio transport.
// (The app's own build check, test/build/bundle.test.ts, covers src/mcp once the worker imports it.)
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

describe("src/mcp in a browser bundle", () => {
  it("has no node: import and leaves the stdio transport out", async () => {
    const result = await build({
      entryPoints: ["src/mcp/index.ts"],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      // LangChain is the agent's, already in the worker (and checked by the build test); the MCP layer's own graph matters here.
      external: ["@langchain/*", "langchain"],
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.values(result.metafile.inputs);
    const imports = inputs.flatMap((input) => input.imports.map((entry) => entry.path));
    expect(imports.filter((path) => path.startsWith("node:"))).toEqual([]);
    const files = Object.keys(result.metafile.inputs);
    expect(files.some((file) => file.includes("@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js"))).toBe(
      true,
    );
    expect(files.filter((file) => /client\/stdio|cross-spawn/.test(file))).toEqual([]);
  }, 60_000);
});
