// Tests for the proxy's router against real local upstreams: its log line, CORS and access control (origin, token),
// /health, and the answers to paths and targets it cannot serve.
import { describe, expect, it } from "vitest";
import { PROXY_TOKEN_HEADER, startProxy, type StartProxyOptions } from "./server.ts";
import {
  errorOf,
  forwardUrl,
  logLines,
  ORIGIN,
  proxy,
  routeTo,
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

describe("forwarding", () => {
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
});
