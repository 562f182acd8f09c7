// Tests for the relay's limits: the headers timeout, the idle timeout, and the request and response size limits.
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
  send,
  startUpstream,
  TOKEN,
  type Upstream,
  useProxy,
  useProxyHarness,
} from "./upstream-harness.ts";

useProxyHarness();
/** The upstream of the running test (the harness closes it). */
let upstream: Upstream;

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
