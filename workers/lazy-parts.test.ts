import { describe, expect, it } from "vitest";
import { LAZY_CACHE, type ManifestEntry } from "../src/protocol/lazy-parts.ts";
import { LazyParts, type LazyPartsHost } from "./lazy-parts.ts";

const BASE = "https://fawn.example/app/";

/** Cache Storage in memory (one cache is enough here) and a server whose files and answers the test sets. */
function fakeHost(files: Record<string, string>) {
  const stored = new Map<string, ArrayBuffer>();
  const fetched: string[] = [];
  const reloaded: string[] = [];
  const cache = {
    match: async (key: string) => {
      const bytes = stored.get(key);
      return bytes === undefined ? undefined : new Response(bytes.slice(0));
    },
    put: async (key: string, response: Response) => {
      stored.set(key, await response.arrayBuffer());
    },
    keys: async () => [...stored.keys()].map((key) => new Request(key)),
    delete: async (request: Request) => stored.delete(request.url),
  };
  const host: LazyPartsHost = {
    caches: {
      open: async (name: string) => {
        expect(name).toBe(LAZY_CACHE);
        return cache as unknown as Cache;
      },
    },
    fetch: async (url: string, init?: RequestInit) => {
      fetched.push(url);
      if (init?.cache === "reload") reloaded.push(url);
      const body = files[url];
      return body === undefined ? new Response("missing", { status: 404 }) : new Response(body);
    },
  };
  return { host, stored, fetched, reloaded };
}

const MANIFEST: ManifestEntry[] = [
  { url: "index.html", revision: "i1" },
  { url: "assets/mermaid.core-c1.js", revision: null, lazy: "diagrams" },
  { url: "pyodide/pyodide.asm.wasm", revision: "w1", lazy: "python" },
];
const MERMAID = `${BASE}assets/mermaid.core-c1.js`;
const WASM = `${BASE}pyodide/pyodide.asm.wasm`;
const SERVER = { [MERMAID]: "mermaid v1", [WASM]: "wasm v1", [`${BASE}index.html`]: "<html>" };

describe("LazyParts", () => {
  it("knows only the manifest's lazy files, whatever their query", () => {
    const parts = new LazyParts(MANIFEST, BASE, fakeHost(SERVER).host);
    expect(parts.has(MERMAID)).toBe(true);
    expect(parts.has(`${WASM}?v=2`)).toBe(true);
    expect(parts.has(`${BASE}index.html`)).toBe(false);
  });

  it("fetches a lazy file on first use, keeps it under its revision, then serves it without the network", async () => {
    const { host, stored, fetched, reloaded } = fakeHost(SERVER);
    const parts = new LazyParts(MANIFEST, BASE, host);
    const writes: Promise<unknown>[] = [];
    expect(await (await parts.respond(WASM, (done) => writes.push(done))).text()).toBe("wasm v1");
    await Promise.all(writes);
    expect([...stored.keys()]).toEqual([`${WASM}?__WB_REVISION__=w1`]);
    expect(await (await parts.respond(WASM)).text()).toBe("wasm v1");
    expect(fetched).toEqual([WASM]);
    // Its name does not change with a new build: fetched past the HTTP cache. A hashed chunk's may come from it.
    expect(reloaded).toEqual([WASM]);
    await parts.respond(MERMAID);
    expect(reloaded).toEqual([WASM]);
  });

  it("keeps no error answer, and says so when caching everything", async () => {
    const { host, stored } = fakeHost({ [WASM]: "wasm v1" });
    const parts = new LazyParts(MANIFEST, BASE, host);
    expect((await parts.respond(MERMAID)).status).toBe(404);
    const status = await parts.cacheAll();
    expect(status).toEqual({
      type: "LAZY_PARTS_CACHED",
      groups: {
        diagrams: { files: 1, cached: 0 },
        pdf: { files: 0, cached: 0 },
        python: { files: 1, cached: 1 },
        "on-device": { files: 0, cached: 0 },
      },
      failed: 1,
    });
    expect([...stored.keys()]).toEqual([`${WASM}?__WB_REVISION__=w1`]);
  });

  it("never caches the on-device runtime in idle time, only when it is first used", async () => {
    const LLAMA = `${BASE}assets/wllama-x.wasm`;
    const manifest: ManifestEntry[] = [...MANIFEST, { url: "assets/wllama-x.wasm", revision: null, lazy: "on-device" }];
    const { host, fetched } = fakeHost({ ...SERVER, [LLAMA]: "llama" });
    const parts = new LazyParts(manifest, BASE, host);
    const status = await parts.cacheAll();
    expect(status.failed).toBe(0);
    expect(status.groups["on-device"]).toEqual({ files: 1, cached: 0 });
    expect(fetched).not.toContain(LLAMA);
    const writes: Promise<unknown>[] = [];
    expect(await (await parts.respond(LLAMA, (done) => writes.push(done))).text()).toBe("llama");
    await Promise.all(writes);
    expect((await parts.status()).groups["on-device"]).toEqual({ files: 1, cached: 1 });
  });

  it("caches every lazy file once: a second request and a file already used fetch nothing", async () => {
    const { host, fetched } = fakeHost(SERVER);
    const parts = new LazyParts(MANIFEST, BASE, host);
    const writes: Promise<unknown>[] = [];
    await (await parts.respond(MERMAID, (done) => writes.push(done))).text();
    await Promise.all(writes);
    expect((await parts.cacheAll()).failed).toBe(0);
    expect((await parts.cacheAll()).groups.python).toEqual({ files: 1, cached: 1 });
    expect(fetched.sort()).toEqual([MERMAID, WASM]);
  });

  it("a file asked for while idle caching fetches it waits for that fetch instead of fetching again", async () => {
    const { host, fetched } = fakeHost(SERVER);
    const parts = new LazyParts(MANIFEST, BASE, host);
    const caching = parts.cacheAll();
    const [status, response] = await Promise.all([caching, parts.respond(WASM)]);
    expect(await response.text()).toBe("wasm v1");
    expect(status.failed).toBe(0);
    expect(fetched.filter((url) => url === WASM)).toHaveLength(1);
  });

  it("a new build drops what it no longer lists and fetches a changed file again", async () => {
    const server = { ...SERVER };
    const { host, stored } = fakeHost(server);
    await new LazyParts(MANIFEST, BASE, host).cacheAll();
    server[WASM] = "wasm v2";
    const next = new LazyParts(
      [
        { url: "assets/mermaid.core-c2.js", revision: null, lazy: "diagrams" },
        { url: "pyodide/pyodide.asm.wasm", revision: "w2", lazy: "python" },
      ],
      BASE,
      host,
    );
    await next.removeOutdated();
    expect([...stored.keys()]).toEqual([]);
    expect(await (await next.respond(WASM)).text()).toBe("wasm v2");
  });
});
