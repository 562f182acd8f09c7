// The MCP client layer against the MCP project's own test server (server-everything) in Node: Streamable HTTP, the
// SSE fallback, Fawn's proxy, results, progress, Stop, timeouts, a server that dies mid-call, tool errors, the
// Settings → Tools connection test, and Fawn's CSP (no eval) with the validator the client is given.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolMessage } from "@langchain/core/messages";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startProxy, type RunningProxy } from "../../proxy/server.ts";

import { freePort, startEverything, type Everything } from "../mcp/everything.ts";
import { McpClientError, McpConnection, McpRegistry, createMcpTools, type McpProgress } from "../../src/mcp/index.ts";
import type { McpServerConfig } from "../../src/protocol/index.ts";

/** The proxy's token, as Settings → Web would hold it. */
const PROXY_TOKEN = "proxy-token-for-mcp-client-test";

function server(url: string, overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: "everything", url, enabled: true, ...overrides };
}

/** The connection's echo tool answers `message`. */
async function expectEcho(connection: McpConnection, message: string): Promise<void> {
  expect((await connection.callTool("echo", { message })).content).toEqual([
    { type: "text", text: `Echo: ${message}` },
  ]);
}

function toolCall(name: string, args: Record<string, unknown>, id = "call_1") {
  return { id, name, args, type: "tool_call" as const };
}

let http: Everything;
let sse: Everything;
const registry = new McpRegistry();

beforeAll(async () => {
  [http, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")]);
});

afterAll(async () => {
  await registry.closeAll();
  await Promise.all([http.stop(), sse.stop()]);
});

describe("MCP client over Streamable HTTP", () => {
  it("offers the server's tools as <server>_<tool>, with the server's descriptions, minus the disabled ones", async () => {
    const { tools, failures } = await registry.tools(
      [
        server(http.url, { disabledTools: ["get-env"] }),
        server("http://127.0.0.1:1/mcp", { name: "off", enabled: false }),
      ],
      () => undefined,
    );
    expect(failures).toEqual([]);
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("everything_echo");
    expect(names).toContain("everything_get-sum");
    expect(names).not.toContain("everything_get-env");
    expect(names.every((name) => name.startsWith("everything_"))).toBe(true);
    const echo = tools.find((tool) => tool.name === "everything_echo");
    expect(echo?.description).toMatch(/echo/i);
    expect(echo?.metadata).toEqual({ mcp_server: "everything", mcp_tool: "echo" });
    expect(registry.connection(server(http.url, { disabledTools: ["get-env"] })).transportKind).toBe("streamable-http");
    // Switching a tool back on takes effect on the same connection.
    const again = await registry.tools([server(http.url)], () => undefined);
    expect(again.tools.map((tool) => tool.name)).toContain("everything_get-env");
  });

  it("answers echo and get-sum with the server's text", async () => {
    const { tools } = await registry.tools([server(http.url)], () => undefined);
    const byName = (name: string) => tools.find((tool) => tool.name === name)!;
    const echo = (await byName("everything_echo").invoke(
      toolCall("everything_echo", { message: "hi" }),
    )) as ToolMessage;
    expect(echo).toBeInstanceOf(ToolMessage);
    expect(echo.content).toBe("Echo: hi");
    const sum = (await byName("everything_get-sum").invoke(
      toolCall("everything_get-sum", { a: 2, b: 3 }),
    )) as ToolMessage;
    expect(sum.content).toBe("The sum of 2 and 3 is 5.");
  });

  it("gives an image as a text stub for the model and the image itself in the artifact", async () => {
    const { tools } = await registry.tools([server(http.url)], () => undefined);
    const image = tools.find((tool) => tool.name === "everything_get-tiny-image")!;
    const message = (await image.invoke(toolCall(image.name, {}))) as ToolMessage;
    expect(message.content).toMatch(/\[image image\/png, \d+(\.\d)? KB\]/);
    const artifact = message.artifact as { blocks: { type: string; mimeType: string; data: string }[] };
    expect(artifact.blocks[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(artifact.blocks[0]?.data.length).toBeGreaterThan(1000);
  });

  it("reports progress by tool call id", async () => {
    const seen: [string, McpProgress][] = [];
    const { tools } = await registry.tools([server(http.url)], () => undefined, {
      onProgress: (id, progress) => seen.push([id, progress]),
    });
    const long = tools.find((tool) => tool.name === "everything_trigger-long-running-operation")!;
    const message = (await long.invoke(
      toolCall(long.name, { duration: 0.6, steps: 3 }, "call_progress"),
    )) as ToolMessage;
    expect(String(message.content)).toMatch(/completed/i);
    expect(seen.map(([id, progress]) => [id, progress.progress, progress.total])).toEqual([
      ["call_progress", 1, 3],
      ["call_progress", 2, 3],
      ["call_progress", 3, 3],
    ]);
  });

  it("stops a call when the run's signal aborts, tells the server, and the next call on the connection works", async () => {
    const sent: string[] = [];
    const recording = new McpRegistry({
      fetch: (url, init) => {
        if (typeof init?.body === "string") sent.push(init.body);
        return fetch(url, init);
      },
    });
    try {
      const { tools } = await recording.tools([server(http.url)], () => undefined);
      const long = tools.find((tool) => tool.name === "everything_trigger-long-running-operation")!;
      const stop = new AbortController();
      const started = Date.now();
      setTimeout(() => stop.abort(), 300);
      const error = await long
        .invoke(toolCall(long.name, { duration: 10, steps: 10 }), { signal: stop.signal })
        .catch((caught: unknown) => caught);
      expect((error as Error).name).toBe("AbortError");
      expect(Date.now() - started).toBeLessThan(3000);
      await expect.poll(() => sent.some((body) => body.includes('"notifications/cancelled"'))).toBe(true);
      const echo = tools.find((tool) => tool.name === "everything_echo")!;
      expect(((await echo.invoke(toolCall(echo.name, { message: "again" }))) as ToolMessage).content).toBe(
        "Echo: again",
      );
    } finally {
      await recording.closeAll();
    }
  });

  it("gives up on a call that says nothing for its timeout, in one sentence", async () => {
    const connection = registry.connection(server(http.url));
    const error = await connection
      .callTool("trigger-long-running-operation", { duration: 5, steps: 1 }, { timeoutSeconds: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).message).toBe(
      'The call to "trigger-long-running-operation" on MCP server "everything" timed out after 1 s.',
    );
  });

  it("names an unknown tool and a tool's own failure in one sentence each", async () => {
    const connection = new McpConnection(server(http.url));
    try {
      // Not listed first: the server itself says the tool does not exist.
      const [nope, sum] = createMcpTools(connection, [
        { name: "nope", inputSchema: { type: "object" } },
        { name: "get-sum", inputSchema: { type: "object" } },
      ]).tools;
      await expect(nope!.invoke(toolCall(nope!.name, {}))).rejects.toThrow(
        'The MCP server "everything" has no tool named "nope".',
      );
      await expect(sum!.invoke(toolCall(sum!.name, { a: "two" }))).rejects.toThrow(
        /^The MCP tool "get-sum" on server "everything" failed: .*(invalid|expected)/i,
      );
      // Listed: an unknown name is refused without asking the server.
      await connection.listTools();
      await expect(connection.callTool("missing", {})).rejects.toMatchObject({ kind: "unknown-tool" });
    } finally {
      await connection.close();
    }
  });
});

describe("MCP client fallbacks and failures", () => {
  it("falls back to SSE when the server refuses Streamable HTTP", async () => {
    const connection = new McpConnection(server(sse.url));
    try {
      await expectEcho(connection, "over sse");
      expect(connection.transportKind).toBe("sse");
    } finally {
      await connection.close();
    }
  });

  it("goes through Fawn's proxy as /forward/<real url>, for Streamable HTTP and SSE alike", async () => {
    let proxy: RunningProxy | undefined;
    const requested: string[] = [];
    try {
      proxy = await startProxy({
        port: 0,
        allowedOrigins: ["*"],
        allowedTargets: [`127.0.0.1:${String(http.port)}`, `127.0.0.1:${String(sse.port)}`],
        log: null,
        token: PROXY_TOKEN,
      });
      const proxied = new McpRegistry({
        proxyUrl: proxy.url,
        proxyToken: PROXY_TOKEN,
        fetch: (url, init) => {
          requested.push(String(url));
          return fetch(url, init);
        },
      });
      const viaHttp = await proxied.test(server(http.url, { useProxy: true }));
      const viaSse = await proxied.test(server(sse.url, { name: "old", useProxy: true }));
      expect(viaHttp).toMatchObject({ ok: true, transport: "streamable-http" });
      expect(viaSse).toMatchObject({ ok: true, transport: "sse" });
      const connection = proxied.connection(server(sse.url, { useProxy: true }));
      expect((await connection.callTool("get-sum", { a: 1, b: 2 })).content).toEqual([
        { type: "text", text: "The sum of 1 and 2 is 3." },
      ]);
      await proxied.closeAll();
      expect(requested.length).toBeGreaterThan(4);
      for (const url of requested) expect(url.startsWith(`${proxy.url}/forward/http://127.0.0.1:`), url).toBe(true);
    } finally {
      await proxy?.close();
    }
  });

  it.each([
    ["Streamable HTTP", "streamableHttp", false],
    ["SSE", "sse", false],
    ["Streamable HTTP through the proxy", "streamableHttp", true],
  ] as const)(
    "fails a pending call within seconds when the server dies mid-call, and reconnects once it is back (%s)",
    async (_label, mode, viaProxy) => {
      let doomed = await startEverything(mode);
      const proxy = viaProxy
        ? await startProxy({
            port: 0,
            allowedOrigins: ["*"],
            allowedTargets: [`127.0.0.1:${String(doomed.port)}`],
            log: null,
            token: PROXY_TOKEN,
          })
        : undefined;
      const connection = new McpConnection(
        server(doomed.url, { useProxy: viaProxy }),
        {},
        { proxyUrl: proxy?.url, proxyToken: PROXY_TOKEN },
      );
      try {
        await connection.listTools();
        const started = Date.now();
        const pending = connection
          .callTool("trigger-long-running-operation", { duration: 30, steps: 30 }, { timeoutSeconds: 60 })
          .catch((caught: unknown) => caught);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await doomed.stop();
        const error = await pending;
        expect(error).toBeInstanceOf(McpClientError);
        expect((error as McpClientError).kind).toBe("down");
        expect((error as Error).message).toMatch(/^The MCP server "everything" is down/);
        expect(Date.now() - started).toBeLessThan(6000);
        doomed = await startEverything(mode, doomed.port);
        await expectEcho(connection, "back");
      } finally {
        await connection.close();
        await doomed.stop();
        await proxy?.close();
      }
    },
  );

  it("answers the next call after the server restarted while idle (a new session)", async () => {
    let restarted = await startEverything("streamableHttp");
    const connection = new McpConnection(server(restarted.url));
    try {
      await connection.callTool("echo", { message: "first" });
      await restarted.stop();
      restarted = await startEverything("streamableHttp", restarted.port);
      await expectEcho(connection, "second");
    } finally {
      await connection.close();
      await restarted.stop();
    }
  });

  it("tells Settings → Tools whether a server answers: its tools, or why not", async () => {
    const ok = await registry.test(server(http.url));
    expect(ok.ok && ok.tools.map((tool) => tool.name)).toContain("echo");
    const closed = await registry.test(server(`http://127.0.0.1:${String(await freePort())}/mcp`));
    expect(closed).toMatchObject({ ok: false, kind: "unreachable" });
    expect(!closed.ok && closed.message).toMatch(/^The MCP server "everything" cannot be reached at .*"Use the proxy"/);
  });

  it("says sign-in is needed when the server answers 401, and sends the bearer token from the secrets", async () => {
    const authorizations: (string | undefined)[] = [];
    const locked: Server = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => locked.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${String((locked.address() as AddressInfo).port)}/mcp`;
      const result = await registry.test(server(url, { headers: { "X-Team": "fawn" } }), { bearerToken: "tok-123" });
      expect(result).toMatchObject({ ok: false, kind: "sign-in" });
      expect(!result.ok && result.message).toMatch(/^The MCP server "everything" needs you to sign in/);
      expect(authorizations).toContain("Bearer tok-123");
    } finally {
      await new Promise((resolve) => locked.close(resolve));
    }
  });

  it("skips a server that cannot be reached and still gives the others' tools", async () => {
    const down = server(`http://127.0.0.1:${String(await freePort())}/mcp`, { name: "gone" });
    const { tools, failures } = await registry.tools([down, server(http.url)], () => ({}));
    expect(tools.some((tool) => tool.name === "everything_echo")).toBe(true);
    expect(failures).toEqual([
      expect.objectContaining({ server: "gone", kind: "unreachable", message: expect.stringMatching(/"gone"/) }),
    ]);
  });
});

describe("Fawn's CSP (no eval)", () => {
  /** Runs `work` while Function and eval throw, as they do under `script-src 'self'`. */
  async function withoutEval<T>(work: () => Promise<T>): Promise<T> {
    const original = { Function: globalThis.Function, eval: globalThis.eval };
    const refuse = () => {
      throw new EvalError("Refused to evaluate a string as JavaScript (CSP)");
    };
    globalThis.Function = new Proxy(original.Function, { construct: refuse, apply: refuse });
    globalThis.eval = refuse as typeof eval;
    try {
      return await work();
    } finally {
      globalThis.Function = original.Function;
      globalThis.eval = original.eval;
    }
  }

  it("lists tools with output schemas and checks structured content without compiling code", async () => {
    const connection = new McpConnection(server(http.url));
    try {
      const result = await withoutEval(async () => {
        await connection.listTools();
        return connection.callTool("get-structured-content", { location: "New York" });
      });
      expect(result.structuredContent).toBeDefined();
    } finally {
      await connection.close();
    }
  });

  it("would fail with the SDK's default validator (Ajv), so the guard above bites", async () => {
    const client = new Client({ name: "default", version: "1" });
    // Ajv prints the code it could not compile.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await expect(withoutEval(() => client.listTools())).rejects.toThrow(/CSP|evaluate/);
    } finally {
      quiet.mockRestore();
      await client.close();
    }
  });
});
