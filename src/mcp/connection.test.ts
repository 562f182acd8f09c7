import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { createMcpClient, McpConnection, proxiedFetch } from "./connection.ts";

describe("createMcpClient", () => {
  it("validates with @cfworker/json-schema, never Ajv (Ajv compiles with new Function, which Fawn's CSP forbids)", () => {
    const validator = (createMcpClient() as unknown as { _jsonSchemaValidator: unknown })._jsonSchemaValidator;
    expect(validator).toBeInstanceOf(CfWorkerJsonSchemaValidator);
  });
});

describe("proxiedFetch", () => {
  it("sends each request to <proxy>/forward/<real url>, with the request unchanged", async () => {
    const seen: [string, RequestInit | undefined][] = [];
    const base = async (url: string | URL, init?: RequestInit) => {
      seen.push([String(url), init]);
      return new Response("ok");
    };
    const init = { method: "POST", body: "{}" };
    await proxiedFetch("http://127.0.0.1:8787", base)("https://mcp.example.com/sse?x=1", init);
    await proxiedFetch("http://127.0.0.1:8787/forward/", base)(new URL("https://mcp.example.com/message?sessionId=a"));
    expect(seen).toEqual([
      ["http://127.0.0.1:8787/forward/https://mcp.example.com/sse?x=1", init],
      ["http://127.0.0.1:8787/forward/https://mcp.example.com/message?sessionId=a", undefined],
    ]);
  });
});

describe("McpConnection", () => {
  it("uses the proxy only when the server asks for it and a proxy is set", async () => {
    const seen: string[] = [];
    const fetch = async (url: string | URL) => {
      seen.push(String(url));
      throw new TypeError("fetch failed");
    };
    const config = { name: "a", url: "https://mcp.example.com/mcp", enabled: true };
    await expect(
      new McpConnection({ ...config, useProxy: true }, {}, { fetch, proxyUrl: "http://p:1" }).connect(),
    ).rejects.toThrow(/Fawn's proxy/);
    await expect(new McpConnection({ ...config, useProxy: true }, {}, { fetch }).connect()).rejects.toThrow(
      /Use the proxy/,
    );
    await expect(new McpConnection(config, {}, { fetch, proxyUrl: "http://p:1" }).connect()).rejects.toThrow(
      /Use the proxy/,
    );
    expect(seen).toEqual([
      "http://p:1/forward/https://mcp.example.com/mcp",
      "https://mcp.example.com/mcp",
      "https://mcp.example.com/mcp",
    ]);
  });

  it("rejects a call at once with an AbortError when the run was already stopped", async () => {
    const stop = new AbortController();
    stop.abort();
    const connection = new McpConnection({ name: "a", url: "https://mcp.example.com/mcp", enabled: true });
    await expect(connection.callTool("x", {}, { signal: stop.signal })).rejects.toMatchObject({ name: "AbortError" });
  });
});
