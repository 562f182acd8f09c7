// The proxy's token goes to the proxy's origin (its relay and its bridge) and to no other address.
import { describe, expect, it } from "vitest";
import { goesToProxy, PROXY_TOKEN_HEADER, withProxyToken } from "./proxy-token.ts";

describe("withProxyToken", () => {
  const seen: { url: string; token: string | null }[] = [];
  const base = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    seen.push({ url, token: new Headers(init?.headers).get(PROXY_TOKEN_HEADER) });
    return new Response("ok");
  };

  it("adds the token to requests for the proxy's origin only, keeping their own headers", async () => {
    seen.length = 0;
    const wrapped = withProxyToken(base, "http://127.0.0.1:8787/forward/", "secret-token-0123456789abcdef");
    await wrapped("http://127.0.0.1:8787/forward/https://api.example.com/v1/models", {
      headers: { authorization: "Bearer sk" },
    });
    await wrapped(new URL("http://127.0.0.1:8787/mcp/git"));
    await wrapped("https://api.example.com/v1/models");
    await wrapped("http://127.0.0.1:8788/forward/x");
    await wrapped("http://localhost:8787/forward/x");
    expect(seen.map((entry) => entry.token)).toEqual([
      "secret-token-0123456789abcdef",
      "secret-token-0123456789abcdef",
      null,
      null,
      null,
    ]);
  });

  it("is the fetch itself when no token is set", () => {
    expect(withProxyToken(base, "http://127.0.0.1:8787/forward/", "")).toBe(base);
    expect(withProxyToken(base, "http://127.0.0.1:8787/forward/", undefined)).toBe(base);
  });

  it("compares whole origins: scheme, host and port", () => {
    expect(goesToProxy("http://127.0.0.1:8787/x", "http://127.0.0.1:8787/forward/")).toBe(true);
    expect(goesToProxy("https://127.0.0.1:8787/x", "http://127.0.0.1:8787/forward/")).toBe(false);
    expect(goesToProxy("http://127.0.0.1:8787.evil.example/x", "http://127.0.0.1:8787/forward/")).toBe(false);
    expect(goesToProxy("not a url", "http://127.0.0.1:8787/forward/")).toBe(false);
  });
});
