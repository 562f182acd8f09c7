// Tests for the relay against real local upstreams: forwarding, streaming both ways, redirects, and cancelling the
// upstream when the client goes.
import http from "node:http";
import { describe, expect, it } from "vitest";
import type { Reply } from "./send-request.ts";
import { PROXY_TOKEN_HEADER } from "./server.ts";
import {
  errorOf,
  forwardUrl,
  logLines,
  nextEvent,
  ORIGIN,
  proxy,
  send,
  startUpstream,
  TOKEN,
  type Upstream,
  useProxyHarness,
} from "./upstream-harness.ts";

useProxyHarness();
/** The upstream of the running test (the harness closes it). */
let upstream: Upstream;

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

  it("accepts a percent-encoded target", async () => {
    upstream = await startUpstream((req, res) => res.end(req.url));
    const reply = await send(forwardUrl(encodeURIComponent(`${upstream.base}/v1/models?a=1`)), {
      headers: { origin: ORIGIN },
    });
    expect(reply.text).toBe("/v1/models?a=1");
  });
});

describe("errors", () => {
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
