// Tests for the CORS proxy against real local upstream servers: forwarding, CORS, the target policy and the limits.
import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_APP_ORIGIN,
  PROXY_TOKEN_HEADER,
  proxyOptionsFromEnv,
  startProxy,
  type ResolveHost,
  type RunningProxy,
  type StartProxyOptions,
} from "./server.ts";
import { sendRequest, type Reply } from "./send-request.ts";

const ORIGIN = DEFAULT_APP_ORIGIN;
/** The proxy's token in these tests (the CLI's comes from its token file: token.test.ts). */
const TOKEN = "test-token-0123456789abcdef";

/** One request carrying the proxy's token, unless its headers name the token header themselves (undefined: none). */
function send(url: string, init: Parameters<typeof sendRequest>[1] = {}): Promise<Reply> {
  const headers: Record<string, unknown> = { [PROXY_TOKEN_HEADER]: TOKEN, ...init.headers };
  if (headers[PROXY_TOKEN_HEADER] === undefined) delete headers[PROXY_TOKEN_HEADER];
  return sendRequest(url, { ...init, headers: headers as typeof init.headers });
}

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

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void;

async function listen(server: http.Server, host = "127.0.0.1"): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return address.port;
}

/**
 * An upstream that records each request; the handler runs once the request body has been read. It listens on
 * loopback, which the proxy refuses unless host:port is listed, so its host:port joins the proxy's allowed targets
 * (the proxy restarts with them) unless a test sets allowedTargets itself.
 */
async function startUpstream(handler: Handler, readBody = true, host = "127.0.0.1"): Promise<Upstream> {
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
  const port = await listen(server, host);
  const hostPort = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  upstreamTargets.push(hostPort);
  await useProxy(proxyOptions);
  return {
    base: `http://${hostPort}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function errorOf(reply: Reply): { message: string; type: string } {
  return (JSON.parse(reply.text) as { error: { message: string; type: string } }).error;
}

/** An agent that connects every request to 127.0.0.1:`port`, whatever host the URL names (no DNS, no network). */
function routeTo(port: number): http.Agent {
  return new (class extends http.Agent {
    override createConnection(): net.Socket {
      return net.createConnection({ host: "127.0.0.1", port });
    }
  })();
}

function nextEvent<T>(register: (done: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

let proxy: RunningProxy;
let upstream: Upstream | undefined;
let logLines: string[];
/** The options of the running proxy, kept when startUpstream restarts it. */
let proxyOptions: Partial<StartProxyOptions>;
/** host:port of every upstream started in this test: the proxy's allowedTargets unless a test sets its own. */
let upstreamTargets: string[];

async function useProxy(options: Partial<StartProxyOptions> = {}): Promise<void> {
  proxyOptions = options;
  await proxy.close();
  proxy = await startProxy({
    port: 0,
    token: TOKEN,
    log: (line) => logLines.push(line),
    allowedTargets: upstreamTargets,
    ...options,
  });
}

beforeEach(async () => {
  logLines = [];
  proxyOptions = {};
  upstreamTargets = [];
  proxy = await startProxy({ port: 0, token: TOKEN, log: (line) => logLines.push(line) });
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
    expect(logLines.join("\n")).not.toMatch(/secret|4173/);
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
        {
          method: "POST",
          headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN, "content-type": "application/json" },
          agent: false,
        },
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
      const req = http.request(
        url,
        { method: "POST", headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN }, agent: false },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      req.write("part1;");
      void gotFirstChunk.then(() => req.end("part2"));
    });

    expect(await gotFirstChunk).toBe("part1;");
    expect((await reply).text).toBe("got part1;part2");
    expect(upstream.seen[0]?.headers["transfer-encoding"]).toBe("chunked");
  }, 5_000);

  it("follows a same-origin redirect itself, resending the body and the key", async () => {
    upstream = await startUpstream((req, res) => {
      if (req.url === "/mcp") {
        res.writeHead(307, { location: "/mcp/" });
        res.end();
        return;
      }
      res.end("arrived");
    });
    const reply = await send(forwardUrl(`${upstream.base}/mcp`), {
      method: "POST",
      headers: { origin: ORIGIN, authorization: "Bearer sk-secret", "content-type": "application/json" },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe("arrived");
    expect(upstream.seen.map((seen) => [seen.method, seen.url, seen.body, seen.headers.authorization])).toEqual([
      ["POST", "/mcp", '{"jsonrpc":"2.0"}', "Bearer sk-secret"],
      ["POST", "/mcp/", '{"jsonrpc":"2.0"}', "Bearer sk-secret"],
    ]);
  });

  it("follows a redirect to another origin without the key headers, and a 303 as a GET", async () => {
    const other = await startUpstream((_req, res) => res.end("other"));
    upstream = await startUpstream((req, res) => {
      res.writeHead(req.url === "/see-other" ? 303 : 302, { location: `${other.base}/landing` });
      res.end();
    });
    try {
      const moved = await send(forwardUrl(`${upstream.base}/moved`), {
        headers: { origin: ORIGIN, authorization: "Bearer sk-secret", "x-api-key": "secret-x", accept: "text/html" },
      });
      expect(moved.text).toBe("other");
      expect(other.seen[0]?.headers.authorization).toBeUndefined();
      expect(other.seen[0]?.headers["x-api-key"]).toBeUndefined();
      expect(other.seen[0]?.headers.accept).toBe("text/html");

      const seeOther = await send(forwardUrl(`${upstream.base}/see-other`), {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: "{}",
      });
      expect(seeOther.text).toBe("other");
      expect(other.seen[1]).toMatchObject({ method: "GET", body: "" });
      expect(other.seen[1]?.headers["content-type"]).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("stops after five redirects with a sentence", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(302, { location: "/again" });
      res.end();
    });
    const reply = await send(forwardUrl(`${upstream.base}/loop`), { headers: { origin: ORIGIN } });
    expect(reply.status).toBe(502);
    expect(errorOf(reply).message).toBe(
      `127.0.0.1:${upstream.port} redirected more than 5 times, so Fawn's proxy stopped following.`,
    );
    expect(upstream.seen).toHaveLength(6);
  });

  it("keeps a same-origin Location of a response it does not follow on the proxy", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(201, { location: "/v1/files/f-1" });
      res.end();
    });
    const reply = await send(forwardUrl(`${upstream.base}/v1/files`), { method: "POST", headers: { origin: ORIGIN } });
    expect(reply.status).toBe(201);
    expect(reply.headers.location).toBe(`/forward/${upstream.base}/v1/files/f-1`);
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
    upstream = await startUpstream((req, res) => res.end(`ok ${req.headers.host}`));
    // Routes every connection to the local upstream, so a public name can be forwarded without the network.
    const httpAgent = routeTo(upstream.port);
    await useProxy({ allowedTargets: ["api.deepseek.com"], httpAgent });
    const refused = await send(forwardUrl("http://api.example.com/x"), { headers: { origin: ORIGIN } });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).message).toBe(
      "Target host api.example.com is not allowed. Add it to FAWN_PROXY_TARGETS (comma-separated).",
    );
    const allowed = await send(forwardUrl("http://api.deepseek.com:8080/x"), { headers: { origin: ORIGIN } });
    expect(allowed.text).toBe("ok api.deepseek.com:8080");

    // A bare host name never unlocks a loopback address: only its exact host:port does.
    await useProxy({ allowedTargets: ["127.0.0.1"] });
    const bare = await send(forwardUrl(`${upstream.base}/x`), { headers: { origin: ORIGIN } });
    expect(errorOf(bare).message).toBe(
      `Fawn's proxy does not forward to 127.0.0.1 (a loopback address); to allow it, add "127.0.0.1:${upstream.port}" to FAWN_PROXY_TARGETS.`,
    );
    await useProxy({ allowedTargets: [`127.0.0.1:${upstream.port}`] });
    expect((await send(forwardUrl(`${upstream.base}/x`), { headers: { origin: ORIGIN } })).status).toBe(200);
  });

  it("requires the token on every request but the preflight, and never passes it on", async () => {
    upstream = await startUpstream((req, res) => res.end(JSON.stringify(req.headers)));
    for (const path of [`/forward/${upstream.base}/v1/models`, "/health", "/mcp", "/mcp/none", "/nope"]) {
      for (const token of [undefined, "test-token-0123456789abcdeF", TOKEN.slice(0, -1)]) {
        const reply = await send(`${proxy.url}${path}`, { headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: token } });
        expect(reply.status, `${path} with ${token ?? "no token"}`).toBe(401);
        expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
        expect(JSON.parse(reply.text)).toEqual({
          error: {
            type: "proxy_token",
            message:
              "Fawn's proxy needs its token: the request carried no token or a wrong one. Paste the token the proxy " +
              "was started with into Settings → Web → Proxy token.",
          },
        });
      }
    }
    expect(upstream.seen).toHaveLength(0);
    expect(logLines.some((line) => line.endsWith(" (no token)") || / \(no token\) \d+ms$/.test(line))).toBe(true);
    expect(logLines.some((line) => / \(wrong token\) \d+ms$/.test(line))).toBe(true);
    expect(logLines.join("\n")).not.toContain(TOKEN);

    const forwarded = await send(`${proxy.url}/forward/${upstream.base}/v1/models`, { headers: { origin: ORIGIN } });
    expect(forwarded.status).toBe(200);
    expect(JSON.parse(forwarded.text)).not.toHaveProperty(PROXY_TOKEN_HEADER);
  });

  it("will not start without a token that could be secret", async () => {
    for (const token of [undefined, "", "short", "has spaces but is long enough"]) {
      await expect(startProxy({ port: 0, token } as StartProxyOptions)).rejects.toThrow(/needs a token of at least 22/);
    }
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
      headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN },
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
      headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN },
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
      const req = http.request(
        url,
        { headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN }, agent: false },
        (res) => {
          res.setEncoding("utf8");
          res.once("data", (chunk: string) => {
            done(chunk);
            req.destroy();
          });
        },
      );
      req.on("error", () => {});
      req.end();
    });

    expect(firstChunk).toBe("data: one\n\n");
    expect(await closed).toBe(false);
    await expect.poll(() => logLines.length).toBe(1);
    expect(logLines[0]).toMatch(/ 200 \(client closed\) \d+ms$/);
  }, 5_000);
});

describe("private targets", () => {
  /** The refusal when no FAWN_PROXY_TARGETS list is set, as the app shows it after "Fawn's proxy refused ...: ". */
  const refusal = (shown: string, details: string, entry: string): string =>
    `Fawn's proxy does not forward to ${shown} (${details}); to allow it, ` +
    `set FAWN_PROXY_TARGETS="*,${entry}" (the "*" keeps every public host allowed).`;

  /** Forwards to `target` through a proxy with no target list, then with `entry` listed; returns both replies. */
  async function refusedThenAllowed(
    target: string,
    entry: string,
    options: Partial<StartProxyOptions> = {},
  ): Promise<{ refused: Reply; allowed: Reply }> {
    await useProxy({ ...options, allowedTargets: [] });
    const refused = await send(forwardUrl(target), { headers: { origin: ORIGIN, authorization: "Bearer sk-secret" } });
    await useProxy({ ...options, allowedTargets: [entry] });
    const allowed = await send(forwardUrl(target), { headers: { origin: ORIGIN } });
    return { refused, allowed };
  }

  function expectRefusal(reply: Reply, message: string): void {
    expect(reply.status).toBe(403);
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(errorOf(reply)).toEqual({ message, type: "proxy_error" });
  }

  it("refuses 127.0.0.1 unless its host:port is listed", async () => {
    upstream = await startUpstream((_req, res) => res.end("local"));
    const entry = `127.0.0.1:${upstream.port}`;
    const { refused, allowed } = await refusedThenAllowed(`${upstream.base}/v1/models`, entry);
    expectRefusal(refused, refusal("127.0.0.1", "a loopback address", entry));
    expect(allowed.text).toBe("local");
    expect(upstream.seen).toHaveLength(1);
    expect(logLines.join("\n")).toContain("403 (target refused)");
  });

  it("refuses [::1] unless its host:port is listed", async () => {
    upstream = await startUpstream((_req, res) => res.end("local v6"), true, "::1");
    const entry = `[::1]:${upstream.port}`;
    const { refused, allowed } = await refusedThenAllowed(`${upstream.base}/v1/models`, entry);
    expectRefusal(refused, refusal("[::1]", "a loopback address", entry));
    expect(allowed.text).toBe("local v6");
    expect(upstream.seen).toHaveLength(1);
  });

  it.each([
    ["10.0.0.1", "a private address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["[::ffff:10.0.0.1]", "a private address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["0.0.0.0", "an unspecified address"],
    ["[fd00:ec2::254]", "a cloud metadata address"],
  ])("refuses %s unless its host:port is listed", async (host, kind) => {
    upstream = await startUpstream((req, res) => res.end(`reached as ${req.headers.host}`));
    const target = `http://${host}:8080/latest/meta-data/`;
    const shown = new URL(target).hostname;
    const entry = `${shown}:8080`;
    // The listed target is connected to the local upstream: the policy lets it through, no real network is touched.
    const { refused, allowed } = await refusedThenAllowed(target, entry, { httpAgent: routeTo(upstream.port) });
    expectRefusal(refused, refusal(shown, kind, entry));
    expect(allowed.text).toBe(`reached as ${entry}`);
    expect(upstream.seen).toHaveLength(1);
  });

  it("refuses a name that resolves to 127.0.0.1, checking the address it connects to", async () => {
    upstream = await startUpstream((req, res) => res.end(`reached as ${req.headers.host}`));
    const lookups: string[] = [];
    const resolveHost: ResolveHost = async (hostname) => {
      lookups.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const entry = `models.rebind.test:${upstream.port}`;
    const target = `http://models.rebind.test:${upstream.port}/v1/models`;
    const { refused, allowed } = await refusedThenAllowed(target, entry, { resolveHost });
    expectRefusal(refused, refusal("models.rebind.test", "127.0.0.1, a loopback address", entry));
    expect(allowed.text).toBe(`reached as ${entry}`);
    expect(upstream.seen).toHaveLength(1);
    expect(lookups).toEqual(["models.rebind.test", "models.rebind.test"]);
  });

  it("refuses a name when any of its addresses is private, and localhost by name", async () => {
    const resolveHost: ResolveHost = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "::ffff:192.168.1.10", family: 6 },
    ];
    await useProxy({ resolveHost, allowedTargets: [] });
    const mixed = await send(forwardUrl("https://mixed.example/x"), { headers: { origin: ORIGIN } });
    expectRefusal(mixed, refusal("mixed.example", "::ffff:192.168.1.10, a private address", "mixed.example:443"));

    const local = await send(forwardUrl("http://localhost:11434/api/tags"), { headers: { origin: ORIGIN } });
    expectRefusal(local, refusal("localhost", "a loopback name", "localhost:11434"));
    const metadata = await send(forwardUrl("http://metadata.google.internal./computeMetadata/v1/"), {
      headers: { origin: ORIGIN },
    });
    expectRefusal(
      metadata,
      refusal("metadata.google.internal", "a cloud metadata address", "metadata.google.internal:80"),
    );
  });

  it("refuses a redirect to 127.0.0.1 unless that host:port is listed", async () => {
    const secret = await startUpstream((_req, res) => res.end("secret"));
    upstream = await startUpstream((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/admin` });
      res.end();
    });
    try {
      const from = `127.0.0.1:${upstream.port}`;
      const entry = `127.0.0.1:${secret.port}`;
      await useProxy({ allowedTargets: [from] });
      const refused = await send(forwardUrl(`${upstream.base}/start`), { headers: { origin: ORIGIN } });
      expectRefusal(
        refused,
        `Fawn's proxy does not forward to 127.0.0.1 (a loopback address, reached by a redirect from ${from}); ` +
          `to allow it, add "${entry}" to FAWN_PROXY_TARGETS.`,
      );
      expect(secret.seen).toHaveLength(0);

      await useProxy({ allowedTargets: [from, entry] });
      const allowed = await send(forwardUrl(`${upstream.base}/start`), { headers: { origin: ORIGIN } });
      expect(allowed.text).toBe("secret");
      expect(secret.seen.map((seen) => seen.url)).toEqual(["/admin"]);
    } finally {
      await secret.close();
    }
  });
});

describe("limits", () => {
  it("answers 504 with a sentence when the upstream sends no headers in time", async () => {
    let upstreamClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    upstream = await startUpstream((_req, res) => res.once("close", () => upstreamClosed()));
    await useProxy({ headersTimeoutMs: 200 });
    const started = performance.now();
    const reply = await send(forwardUrl(`${upstream.base}/v1/chat/completions`), {
      method: "POST",
      headers: { origin: ORIGIN },
      body: "{}",
    });
    expect(reply.status).toBe(504);
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(errorOf(reply)).toEqual({
      message: `127.0.0.1:${upstream.port} sent no response within 0.2 s; to wait longer, raise FAWN_PROXY_HEADERS_TIMEOUT (seconds).`,
      type: "proxy_error",
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    await closed;
  }, 5_000);

  it("cuts a response stream that goes idle", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
    });
    await useProxy({ idleTimeoutMs: 200 });
    const outcome = await nextEvent<string>((done) => {
      const req = http.request(
        forwardUrl(`${upstream!.base}/sse`),
        { headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN }, agent: false },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => done(`ended cleanly: ${text}`));
          res.on("error", () => done(`cut after: ${text}`));
        },
      );
      req.on("error", () => done("request failed"));
      req.end();
    });
    expect(outcome).toBe("cut after: data: one\n\n");
    await expect.poll(() => logLines.at(-1)).toMatch(/ 200 \(upstream idle timeout\) \d+ms$/);
  }, 5_000);

  it("refuses an oversize request body with 413, declared or streamed", async () => {
    upstream = await startUpstream((_req, res) => res.end("ok"));
    await useProxy({ maxRequestBytes: 1024 });
    const message =
      "The request body is larger than Fawn's proxy accepts (1 KiB); to send it, raise FAWN_PROXY_MAX_REQUEST_BYTES.";
    const declared = await send(forwardUrl(`${upstream.base}/v1/chat/completions`), {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: "x".repeat(2048),
    });
    expect(declared.status).toBe(413);
    expect(declared.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(errorOf(declared)).toEqual({ message, type: "proxy_error" });
    expect(upstream.seen).toHaveLength(0);

    const streamed = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        forwardUrl(`${upstream!.base}/upload`),
        { method: "POST", headers: { origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN }, agent: false },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      req.write("y".repeat(700));
      req.end("y".repeat(700));
    });
    expect(streamed.status).toBe(413);
    expect(errorOf(streamed).message).toBe(message);
    // Exactly at the limit is fine.
    const atLimit = await send(forwardUrl(`${upstream.base}/x`), {
      method: "POST",
      headers: { origin: ORIGIN },
      body: "z".repeat(1024),
    });
    expect(atLimit.text).toBe("ok");
  });

  it("refuses a response over the size limit: 502 when declared, a cut stream when not", async () => {
    upstream = await startUpstream((req, res) => {
      if (req.url === "/declared") {
        res.end("d".repeat(4096));
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("s".repeat(1000));
      setTimeout(() => res.end("s".repeat(1000)), 20);
    });
    await useProxy({ maxResponseBytes: 2000 - 1 });
    const declared = await send(forwardUrl(`${upstream.base}/declared`), { headers: { origin: ORIGIN } });
    expect(declared.status).toBe(502);
    expect(errorOf(declared).message).toBe(
      `The response from 127.0.0.1:${upstream.port} is larger than Fawn's proxy relays (1999 bytes); ` +
        "to receive it, raise FAWN_PROXY_MAX_RESPONSE_BYTES.",
    );
    await expect(send(forwardUrl(`${upstream.base}/streamed`), { headers: { origin: ORIGIN } })).rejects.toThrow();
  });
});

describe("proxyOptionsFromEnv", () => {
  it("uses defaults", () => {
    const options = proxyOptionsFromEnv({});
    expect(options).toEqual({ port: 8787, host: "127.0.0.1", appOrigin: "http://127.0.0.1:4173" });
  });

  it("reads overrides", () => {
    const options = proxyOptionsFromEnv({
      FAWN_PROXY_PORT: "9000",
      FAWN_PROXY_HOST: "0.0.0.0",
      FAWN_APP_ORIGIN: "https://fawn.example/",
      FAWN_PROXY_ORIGINS: "http://localhost:5173, http://localhost:3000 ",
      FAWN_PROXY_TARGETS: "*,api.deepseek.com,192.168.1.10:11434,[::1]:11435",
      FAWN_PROXY_HEADERS_TIMEOUT: "90",
      FAWN_PROXY_IDLE_TIMEOUT: "0.5",
      FAWN_PROXY_MAX_REQUEST_BYTES: "64MiB",
      FAWN_PROXY_MAX_RESPONSE_BYTES: "1048576",
      FAWN_PROXY_QUIET: "1",
    });
    expect(options).toEqual({
      port: 9000,
      host: "0.0.0.0",
      appOrigin: "https://fawn.example",
      allowedOrigins: ["http://localhost:5173", "http://localhost:3000"],
      allowedTargets: ["*", "api.deepseek.com", "192.168.1.10:11434", "[::1]:11435"],
      headersTimeoutMs: 90_000,
      idleTimeoutMs: 500,
      maxRequestBytes: 64 * 1024 * 1024,
      maxResponseBytes: 1048576,
      log: null,
    });
  });

  it("rejects bad values, naming the variable", () => {
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "80a" })).toThrow(/FAWN_PROXY_PORT/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "70000" })).toThrow(/FAWN_PROXY_PORT/);
    expect(() => proxyOptionsFromEnv({ FAWN_APP_ORIGIN: "http://127.0.0.1:4173/app" })).toThrow(/FAWN_APP_ORIGIN/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_TARGETS: "http://x.example/" })).toThrow(/FAWN_PROXY_TARGETS/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_TARGETS: "x.example:99999" })).toThrow(/FAWN_PROXY_TARGETS/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_HEADERS_TIMEOUT: "0" })).toThrow(/FAWN_PROXY_HEADERS_TIMEOUT/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_MAX_REQUEST_BYTES: "lots" })).toThrow(/FAWN_PROXY_MAX_REQUEST_BYTES/);
  });
});
