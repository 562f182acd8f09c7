// Tests for the proxy's header policy through a real relay: the headers it drops in each direction and the Location it
// keeps on the proxy.
import { describe, expect, it } from "vitest";
import { forwardUrl, ORIGIN, send, startUpstream, type Upstream, useProxyHarness } from "./upstream-harness.ts";

useProxyHarness();
/** The upstream of the running test (the harness closes it). */
let upstream: Upstream;

describe("forwarding", () => {
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

  it("keeps a same-origin Location of a response it does not follow on the proxy", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(201, { location: "/v1/files/f-1" });
      res.end();
    });
    const reply = await send(forwardUrl(`${upstream.base}/v1/files`), { method: "POST", headers: { origin: ORIGIN } });
    expect(reply.status).toBe(201);
    expect(reply.headers.location).toBe(`/forward/${upstream.base}/v1/files/f-1`);
  });
});
