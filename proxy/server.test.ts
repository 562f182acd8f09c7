// Tests for the CORS proxy against a real local upstream server.
import http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ALLOWED_ORIGINS, proxyOptionsFromEnv, startProxy, type RunningProxy } from "./server.ts";

const ORIGIN = "http://localhost:5173";

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Upstream {
  base: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void;

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return address.port;
}

/** An upstream that records each request; the handler runs once the request body has been read. */
async function startUpstream(handler: Handler, readBody = true): Promise<Upstream> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const record: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: "" };
    seen.push(record);
    if (!readBody) {
      handler(req, res, record);
      return;
    }
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (record.body += chunk));
    req.on("end", () => handler(req, res, record));
  });
  const port = await listen(server);
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(
  url: string,
  init: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

function nextEvent<T>(register: (done: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

let proxy: RunningProxy;
let upstream: Upstream | undefined;
let logLines: string[];

async function useProxy(options: Parameters<typeof startProxy>[0] = {}): Promise<void> {
  await proxy.close();
  proxy = await startProxy({ port: 0, log: (line) => logLines.push(line), ...options });
}

beforeEach(async () => {
  logLines = [];
  proxy = await startProxy({ port: 0, log: (line) => logLines.push(line) });
});

afterEach(async () => {
  await proxy.close();
  await upstream?.close();
  upstream = undefined;
});

const forwardUrl = (target: string): string => `${proxy.url}/forward/${target}`;

describe("forwarding", () => {
  it("forwards method, query, body and authorization, and returns the upstream status and headers", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "req-1", "mcp-session-id": "s-1" });
      res.end('{"id":"chatcmpl-1"}');
    });
    const reply = await send(forwardUrl(`${upstream.base}/v1/chat/completions?api-version=2024&key=secret-q`), {
      method: "PUT",
      headers: {
        origin: ORIGIN,
        authorization: "Bearer sk-secret",
        "x-api-key": "secret-x",
        "content-type": "application/json",
      },
      body: '{"model":"m"}',
    });

    expect(reply.status).toBe(201);
    expect(reply.text).toBe('{"id":"chatcmpl-1"}');
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["x-request-id"]).toBe("req-1");
    expect(reply.headers["mcp-session-id"]).toBe("s-1");
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(reply.headers.vary).toBe("Origin");
    const exposed = (reply.headers["access-control-expose-headers"] ?? "").split(", ");
    expect(exposed).toEqual(expect.arrayContaining(["mcp-session-id", "content-type", "retry-after", "x-request-id"]));

    const [seen] = upstream.seen;
    expect(seen?.method).toBe("PUT");
    expect(seen?.url).toBe("/v1/chat/completions?api-version=2024&key=secret-q");
    expect(seen?.body).toBe('{"model":"m"}');
    expect(seen?.headers.authorization).toBe("Bearer sk-secret");
    expect(seen?.headers["x-api-key"]).toBe("secret-x");
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(seen?.headers.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(seen?.headers.origin).toBeUndefined();
  });

  it("logs one line per request without header values or query strings", async () => {
    upstream = await startUpstream((_req, res) => res.end("ok"));
    await send(forwardUrl(`${upstream.base}/v1/models?key=secret-q`), {
      headers: { origin: ORIGIN, authorization: "Bearer sk-secret", "api-key": "secret-a" },
    });
    await send(`${proxy.url}/health`);

    expect(logLines).toHaveLength(2);
    expect(logLines[0]).toMatch(
      new RegExp(`^\\[fawn-proxy\\] GET 127\\.0\\.0\\.1:${upstream.port}/v1/models 200 \\d+ms$`),
    );
    expect(logLines[1]).toMatch(/^\[fawn-proxy\] GET \/health 200 \d+ms$/);
    expect(logLines.join("\n")).not.toMatch(/secret|localhost:5173/);
  });

  it("strips hop-by-hop, cookie, origin and sec-* headers in both directions", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, {
        connection: "x-upstream-hop",
        "x-upstream-hop": "1",
        "set-cookie": ["session=abc", "other=def"],
        "access-control-allow-origin": "*",
        "access-control-allow-credentials": "true",
        vary: "Accept-Encoding",
        "x-kept": "yes",
      });
      res.end("done");
    });
    const reply = await send(forwardUrl(`${upstream.base}/mcp`), {
      method: "POST",
      headers: {
        origin: ORIGIN,
        referer: `${ORIGIN}/chat`,
        cookie: "session=browser",
        connection: "keep-alive, x-client-hop",
        "x-client-hop": "1",
        "keep-alive": "timeout=5",
        "proxy-authorization": "Basic abc",
        te: "trailers",
        "sec-fetch-mode": "cors",
        "sec-ch-ua": '"Chromium"',
        "access-control-request-method": "POST",
        "mcp-session-id": "s-1",
      },
      body: "{}",
    });

    const seen = upstream.seen[0]?.headers ?? {};
    for (const name of [
      "referer",
      "cookie",
      "origin",
      "x-client-hop",
      "keep-alive",
      "proxy-authorization",
      "te",
      "sec-fetch-mode",
      "sec-ch-ua",
      "access-control-request-method",
    ]) {
      expect(seen[name], name).toBeUndefined();
    }
    expect(seen["mcp-session-id"]).toBe("s-1");

    expect(reply.text).toBe("done");
    expect(reply.headers["set-cookie"]).toBeUndefined();
    expect(reply.headers["x-upstream-hop"]).toBeUndefined();
    expect(reply.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(reply.headers.vary).toBe("Accept-Encoding, Origin");
    expect(reply.headers["x-kept"]).toBe("yes");
  });

  it("streams an SSE response chunk by chunk", async () => {
    let releaseSecond: () => void = () => {};
    const secondAllowed = new Promise<void>((resolve) => (releaseSecond = resolve));
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: one\n\n");
      void secondAllowed.then(() => res.end("data: two\n\ndata: [DONE]\n\n"));
    });

    const url = forwardUrl(`${upstream.base}/v1/chat/completions`);
    const chunks: string[] = [];
    let contentType: string | undefined;
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        url,
        { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json" }, agent: false },
        (res) => {
          contentType = res.headers["content-type"];
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            chunks.push(chunk);
            // The upstream only sends event two after we have seen event one, so buffering would hang here.
            if (chunks.length === 1) releaseSecond();
          });
          res.on("end", resolve);
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end('{"stream":true}');
    });

    expect(contentType).toBe("text/event-stream");
    expect(chunks[0]).toBe("data: one\n\n");
    expect(chunks.join("")).toBe("data: one\n\ndata: two\n\ndata: [DONE]\n\n");
  }, 5_000);

  it("streams the request body instead of buffering it", async () => {
    let firstChunk: (chunk: string) => void = () => {};
    const gotFirstChunk = new Promise<string>((resolve) => (firstChunk = resolve));
    upstream = await startUpstream((req, res) => {
      req.setEncoding("utf8");
      let body = "";
      req.on("data", (chunk: string) => {
        if (body === "") firstChunk(chunk);
        body += chunk;
      });
      req.on("end", () => res.end(`got ${body}`));
    }, false);

    const url = forwardUrl(`${upstream.base}/upload`);
    const reply = new Promise<Reply>((resolve, reject) => {
      const req = http.request(url, { method: "POST", headers: { origin: ORIGIN }, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on("error", reject);
      req.write("part1;");
      void gotFirstChunk.then(() => req.end("part2"));
    });

    expect(await gotFirstChunk).toBe("part1;");
    expect((await reply).text).toBe("got part1;part2");
    expect(upstream.seen[0]?.headers["transfer-encoding"]).toBe("chunked");
  }, 5_000);

  it("keeps same-origin redirects on the proxy and leaves cross-origin ones alone", async () => {
    upstream = await startUpstream((req, res) => {
      const location = req.url === "/mcp" ? "/mcp/" : "https://elsewhere.example/x";
      res.writeHead(307, { location });
      res.end();
    });
    const same = await send(forwardUrl(`${upstream.base}/mcp`), { headers: { origin: ORIGIN } });
    expect(same.status).toBe(307);
    expect(same.headers.location).toBe(`/forward/${upstream.base}/mcp/`);

    const cross = await send(forwardUrl(`${upstream.base}/other`), { headers: { origin: ORIGIN } });
    expect(cross.headers.location).toBe("https://elsewhere.example/x");
  });

  it("accepts a percent-encoded target", async () => {
    upstream = await startUpstream((req, res) => res.end(req.url));
    const reply = await send(forwardUrl(encodeURIComponent(`${upstream.base}/v1/models?a=1`)), {
      headers: { origin: ORIGIN },
    });
    expect(reply.text).toBe("/v1/models?a=1");
  });
});

describe("CORS and access control", () => {
  it("answers preflight without contacting the upstream", async () => {
    upstream = await startUpstream((_req, res) => res.end());
    const reply = await send(forwardUrl(`${upstream.base}/v1/chat/completions`), {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,mcp-session-id",
        "access-control-request-private-network": "true",
      },
    });

    expect(reply.status).toBe(204);
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(reply.headers.vary).toBe("Origin");
    expect(reply.headers["access-control-allow-methods"]).toBe("GET,POST,PUT,PATCH,DELETE,OPTIONS");
    expect(reply.headers["access-control-allow-headers"]).toBe("authorization,content-type,mcp-session-id");
    expect(reply.headers["access-control-allow-private-network"]).toBe("true");
    expect(reply.headers["access-control-max-age"]).toBe("600");
    expect(upstream.seen).toHaveLength(0);
  });

  it("refuses a disallowed origin with 403 and names the env var", async () => {
    upstream = await startUpstream((_req, res) => res.end());
    for (const method of ["POST", "OPTIONS"]) {
      const reply = await send(forwardUrl(`${upstream.base}/v1/chat/completions`), {
        method,
        headers: { origin: "https://evil.example", authorization: "Bearer sk-secret" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(reply.status).toBe(403);
      expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
      const body = JSON.parse(reply.text) as { error: { message: string; type: string } };
      expect(body.error.type).toBe("proxy_error");
      expect(body.error.message).toContain("FAWN_PROXY_ORIGINS");
    }
    expect(upstream.seen).toHaveLength(0);
  });

  it("refuses forwarding without an Origin header unless * is allowed", async () => {
    upstream = await startUpstream((_req, res) => res.end("ok"));
    const refused = await send(forwardUrl(`${upstream.base}/x`));
    expect(refused.status).toBe(403);
    expect(upstream.seen).toHaveLength(0);

    await useProxy({ allowedOrigins: ["*"] });
    expect((await send(forwardUrl(`${upstream.base}/x`))).text).toBe("ok");
    const anyOrigin = await send(forwardUrl(`${upstream.base}/x`), { headers: { origin: "https://anything.example" } });
    expect(anyOrigin.headers["access-control-allow-origin"]).toBe("https://anything.example");
  });

  it("enforces the target hostname allowlist", async () => {
    upstream = await startUpstream((_req, res) => res.end("ok"));
    await useProxy({ allowedTargets: ["api.deepseek.com"] });
    const refused = await send(forwardUrl(`${upstream.base}/x`), { headers: { origin: ORIGIN } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("FAWN_PROXY_TARGETS");

    await useProxy({ allowedTargets: ["127.0.0.1"] });
    expect((await send(forwardUrl(`${upstream.base}/x`), { headers: { origin: ORIGIN } })).text).toBe("ok");
  });

  it("serves /health with CORS headers", async () => {
    const reply = await send(`${proxy.url}/health`, { headers: { origin: ORIGIN } });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ ok: true });
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
  });
});

describe("errors", () => {
  it("returns 400 for bad targets and 404 for unknown paths", async () => {
    for (const target of [
      "",
      "ftp://example.com/file",
      "not a url",
      "file:///etc/passwd",
      "https://user:pw@example.com/",
    ]) {
      const reply = await send(forwardUrl(target), { headers: { origin: ORIGIN } });
      expect(reply.status, target).toBe(400);
      expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
      expect((JSON.parse(reply.text) as { error: { type: string } }).error.type).toBe("proxy_error");
    }
    expect((await send(`${proxy.url}/nope`, { headers: { origin: ORIGIN } })).status).toBe(404);
  });

  it("returns 502 when the upstream is unreachable", async () => {
    const closed = await startUpstream(() => {});
    const port = closed.port;
    await closed.close();

    const reply = await send(forwardUrl(`http://127.0.0.1:${port}/v1/models`), { headers: { origin: ORIGIN } });
    expect(reply.status).toBe(502);
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    const body = JSON.parse(reply.text) as { error: { message: string; type: string } };
    expect(body.error.type).toBe("proxy_error");
    expect(body.error.message).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });

  it("aborts the upstream request when the client disconnects before the response", async () => {
    let upstreamClosed: (value: boolean) => void = () => {};
    const closed = new Promise<boolean>((resolve) => (upstreamClosed = resolve));
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (received = resolve));
    upstream = await startUpstream((_req, res) => {
      res.once("close", () => upstreamClosed(res.writableFinished));
      received();
    });

    const req = http.request(forwardUrl(`${upstream.base}/slow`), {
      method: "POST",
      headers: { origin: ORIGIN },
      agent: false,
    });
    req.on("error", () => {});
    req.end("{}");
    await arrived;
    req.destroy();

    expect(await closed).toBe(false);
  }, 5_000);

  it("aborts the upstream request when the client disconnects mid-upload", async () => {
    let upstreamClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let firstChunk: () => void = () => {};
    const gotFirstChunk = new Promise<void>((resolve) => (firstChunk = resolve));
    upstream = await startUpstream((req) => {
      req.once("data", () => firstChunk());
      req.once("close", () => upstreamClosed());
    }, false);

    const req = http.request(forwardUrl(`${upstream.base}/upload`), {
      method: "POST",
      headers: { origin: ORIGIN },
      agent: false,
    });
    req.on("error", () => {});
    req.write("part1;");
    await gotFirstChunk;
    req.destroy();

    await closed;
    expect((await send(`${proxy.url}/health`)).status).toBe(200);
  }, 5_000);

  it("aborts the upstream stream when the client disconnects mid-stream", async () => {
    let upstreamClosed: (value: boolean) => void = () => {};
    const closed = new Promise<boolean>((resolve) => (upstreamClosed = resolve));
    upstream = await startUpstream((_req, res) => {
      res.once("close", () => upstreamClosed(res.writableFinished));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
    });

    const url = forwardUrl(`${upstream.base}/sse`);
    const firstChunk = await nextEvent<string>((done) => {
      const req = http.request(url, { headers: { origin: ORIGIN }, agent: false }, (res) => {
        res.setEncoding("utf8");
        res.once("data", (chunk: string) => {
          done(chunk);
          req.destroy();
        });
      });
      req.on("error", () => {});
      req.end();
    });

    expect(firstChunk).toBe("data: one\n\n");
    expect(await closed).toBe(false);
    await expect.poll(() => logLines.length).toBe(1);
    expect(logLines[0]).toMatch(/ 200 \(client closed\) \d+ms$/);
  }, 5_000);
});

describe("proxyOptionsFromEnv", () => {
  it("uses defaults", () => {
    const options = proxyOptionsFromEnv({});
    expect(options).toEqual({ port: 8787, host: "127.0.0.1", allowedOrigins: DEFAULT_ALLOWED_ORIGINS });
  });

  it("reads overrides", () => {
    const options = proxyOptionsFromEnv({
      FAWN_PROXY_PORT: "9000",
      FAWN_PROXY_HOST: "0.0.0.0",
      FAWN_PROXY_ORIGINS: "https://fawn.example, http://localhost:3000 ",
      FAWN_PROXY_TARGETS: "api.deepseek.com,api.openai.com",
      FAWN_PROXY_QUIET: "1",
    });
    expect(options).toEqual({
      port: 9000,
      host: "0.0.0.0",
      allowedOrigins: ["https://fawn.example", "http://localhost:3000"],
      allowedTargets: ["api.deepseek.com", "api.openai.com"],
      log: null,
    });
  });

  it("rejects a bad port", () => {
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "80a" })).toThrow(/FAWN_PROXY_PORT/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "70000" })).toThrow(/FAWN_PROXY_PORT/);
  });
});
