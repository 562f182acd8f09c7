// Checks on the built app (dist/) as a browser or an agent fetches it: llms.txt and ai-catalog.json are served as the
// files they are (not the app's HTML), llms.txt follows llmstxt.org's shape (what Lighthouse's "llms-txt" audit asks),
// and ai-catalog.json is a valid Agentic Resource Discovery catalog (what its "ard-schema" audit asks) that index.html
// links to and that lists exactly the WebMCP tools the page registers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preview, type PreviewServer } from "vite";
import { DIST } from "../../scripts/dist-graph.ts";
import { FAWN_TOOL_DEFINITIONS, inputJsonSchema } from "../../src/ui/webmcp/tool-definitions.ts";

/** ARD 1.0's catalog entry types (ards-project/ard-spec, conformance-test); another type is a warning there. */
const ARD_TYPES = [
  "application/ai-catalog+json",
  "application/agent-card+json",
  "application/a2a-agent-card+json",
  "application/mcp-server-card+json",
  "application/agent-skills+zip",
  "application/agent-skills+gzip",
  'text/markdown; profile="urn:air:agent-skills"',
  "application/ai-registry",
  "application/ai-registry+json",
];
const URN = /^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$/;

interface CatalogEntry {
  identifier: string;
  displayName: string;
  type: string;
  url?: string;
  data?: { tools?: unknown[] };
  capabilities?: string[];
  representativeQueries?: unknown[];
  [key: string]: unknown;
}

let server: PreviewServer;
let origin: string;

beforeAll(async () => {
  // Port 0: a free one.
  server = await preview({
    build: { outDir: DIST },
    preview: { host: "127.0.0.1", port: 0, strictPort: true },
    logLevel: "silent",
  });
  origin = server.resolvedUrls?.local[0] ?? "";
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
}, 30_000);

afterAll(async () => {
  await server?.close();
});

const get = (path: string) => fetch(new URL(path, origin));

describe("what agents read", () => {
  it("serves llms.txt as Markdown text with an H1, a summary and links that resolve", async () => {
    const response = await get("llms.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^# Fawn\n\n> /);
    expect(text.length).toBeGreaterThan(500);
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(3);
    // Relative links are the app's own files: served, and not the app's HTML in their place.
    for (const link of links.filter((href) => !/^https:\/\//.test(href))) {
      const linked = await get(link);
      expect(linked.status, link).toBe(200);
      if (link !== "./") expect(await linked.text(), link).not.toMatch(/<!doctype html>/i);
    }
    // Each tool the page registers is named for the reader.
    for (const tool of FAWN_TOOL_DEFINITIONS) expect(text).toContain(`- ${tool.name}: `);
  });

  it("links ai-catalog.json from index.html and serves it as a valid ARD 1.0 catalog", async () => {
    const page = await (await get("./")).text();
    const href = /<link rel="ai-catalog" href="([^"]+)"/.exec(page)?.[1];
    expect(href).toBe("/ai-catalog.json");
    const response = await get(href!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const catalog = (await response.json()) as { specVersion: string; host: object; entries: CatalogEntry[] };
    // The schema's root and host take nothing else (additionalProperties: false).
    expect(Object.keys(catalog).sort()).toEqual(["entries", "host", "specVersion"]);
    expect(catalog.specVersion).toBe("1.0");
    expect(catalog.host).toEqual({ displayName: "Fawn" });
    expect(catalog.entries.length).toBeGreaterThan(0);
    for (const entry of catalog.entries) {
      expect(entry.identifier).toMatch(URN);
      expect(entry.displayName.length).toBeGreaterThan(0);
      expect(ARD_TYPES).toContain(entry.type);
      // Exactly one of url and data.
      expect([entry.url, entry.data].filter((value) => value !== undefined)).toHaveLength(1);
      expect(entry.representativeQueries?.length).toBeGreaterThanOrEqual(2);
      expect(entry.representativeQueries?.length).toBeLessThanOrEqual(5);
      for (const query of entry.representativeQueries ?? []) expect(typeof query).toBe("string");
    }
  });

  it("lists in ai-catalog.json exactly the tools the page registers, with their descriptions and schemas", async () => {
    const catalog = (await (await get("ai-catalog.json")).json()) as { entries: CatalogEntry[] };
    const entry = catalog.entries.find((item) => item.type === "application/mcp-server-card+json");
    expect(entry?.capabilities).toEqual(FAWN_TOOL_DEFINITIONS.map((tool) => tool.name));
    expect(entry?.data?.tools).toEqual(
      FAWN_TOOL_DEFINITIONS.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: inputJsonSchema(tool),
        annotations: { readOnlyHint: tool.readOnly },
      })),
    );
  });
});
