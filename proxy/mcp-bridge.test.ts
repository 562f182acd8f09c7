// Tests for the MCP bridge: server-everything over stdio behind /mcp/<name>, driven by the SDK's Streamable HTTP client.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_APP_ORIGIN,
  McpConfigError,
  mcpServersFromConfig,
  mcpServersFromEnv,
  PROXY_TOKEN_HEADER,
  proxyOptionsFromEnv,
  startProxy,
  type McpStdioServer,
  type RunningProxy,
  type StartProxyOptions,
} from "./server.ts";
import { sendRequest, type Reply } from "./send-request.ts";

const ORIGIN = DEFAULT_APP_ORIGIN;
/** The proxy's token in these tests (the CLI's comes from its token file: token.test.ts). */
const TOKEN = "test-token-0123456789abcdef";

/** One request carrying the proxy's token unless its headers name the token header themselves. */
function send(url: string, init: Parameters<typeof sendRequest>[1] = {}): Promise<Reply> {
  return sendRequest(url, { ...init, headers: { [PROXY_TOKEN_HEADER]: TOKEN, ...init.headers } });
}
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } },
};
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const config = JSON.stringify({
  mcpServers: {
    everything: {
      type: "stdio",
      command: "node",
      args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
    },
    crash: { command: "node", args: ["-e", "process.stdin.once('data', () => process.exit(3))"] },
    missing: { command: "fawn-no-such-command" },
  },
});
const servers: McpStdioServer[] = mcpServersFromConfig(config, "test config", {});

let proxy: RunningProxy;
/** Whether `proxy` still needs closing. */
let open = false;
let lines: string[];
let clients: Client[];

async function closeProxy(): Promise<void> {
  if (open) await proxy.close();
  open = false;
}

async function useProxy(options: Partial<StartProxyOptions> = {}): Promise<void> {
  await closeProxy();
  open = true;
  proxy = await startProxy({
    port: 0,
    token: TOKEN,
    log: null,
    mcpServers: servers,
    mcpLog: (line) => lines.push(line),
    ...options,
  });
}

beforeEach(async () => {
  lines = [];
  clients = [];
  await useProxy();
});

afterEach(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await closeProxy();
});

async function connect(name = "everything"): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp/${name}`), {
    requestInit: { headers: { Origin: ORIGIN, [PROXY_TOKEN_HEADER]: TOKEN } },
  });
  const client = new Client({ name: "fawn-test", version: "0" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((block) => block.text ?? "").join("");
}

/** Pids of the children the bridge started, from its "session started" log lines. */
function childPids(): number[] {
  return lines.flatMap((line) => {
    const match = /session started: .* \(pid (\d+)\)/.exec(line);
    return match === null ? [] : [Number(match[1])];
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${lines.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("relaying a stdio server", () => {
  it("lists the tools and calls echo and get-sum", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
    );
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "hello" } }))).toBe("Echo: hello");
    expect(textOf(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }))).toBe(
      "The sum of 2 and 3 is 5.",
    );
    expect(lines.some((line) => line.startsWith("[fawn-proxy] mcp everything") && /Starting/.test(line))).toBe(true);
  });

  it("delivers every progress notification of a long call, the first one included", async () => {
    const { client } = await connect();
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 4 } },
      undefined,
      { onprogress: ({ progress: step }) => progress.push(step) },
    );
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(textOf(result)).toContain("Long running operation completed");
  });

  it("passes a Stop on to the server (logged) and the next call on the session works", async () => {
    const { client } = await connect();
    const stop = new AbortController();
    const call = client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 10 } },
      undefined,
      { signal: stop.signal, onprogress: () => stop.abort("User pressed Stop") },
    );
    await expect(call).rejects.toThrow(/User pressed Stop/);
    await until(() => lines.some((line) => /cancelled request \d+: User pressed Stop/.test(line)), "the cancel");
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "again" } }))).toBe("Echo: again");
  });

  it("ends a call at once with a sentence when the server is killed mid-call", async () => {
    const { client } = await connect();
    const [pid] = childPids();
    const started = Date.now();
    const call = client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 10, steps: 20 } },
      undefined,
      { onprogress: () => void (isAlive(pid as number) && process.kill(pid as number, "SIGKILL")) },
    );
    await expect(call).rejects.toThrow("The MCP server everything stopped (killed by SIGKILL).");
    expect(Date.now() - started).toBeLessThan(3000);
    await until(() => lines.some((line) => line.includes("session ended (the server stopped")), "the session end");
  });

  it("answers with the exit code when the server exits, and with a sentence when it cannot start", async () => {
    await expect(connect("crash")).rejects.toThrow("The MCP server crash stopped (exit code 3).");
    await expect(connect("missing")).rejects.toThrow(
      'Fawn\'s proxy could not start the MCP server missing: the command "fawn-no-such-command" was not found.',
    );
  });

  it("ends the session and its child on DELETE; the old session id then gets 404", async () => {
    const { transport } = await connect();
    const [pid] = childPids();
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    await until(() => !isAlive(pid as number), "the child to stop");
    const reply = await send(`${proxy.url}/mcp/everything`, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: ORIGIN, "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(reply.status).toBe(404);
    expect(reply.text).toContain("has ended on Fawn's proxy");
  });
});

describe("sessions", () => {
  it("needs initialize to start one: other requests without a session id get 400", async () => {
    const reply = await send(`${proxy.url}/mcp/everything`, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: ORIGIN },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain("Send initialize first");
    expect(childPids()).toEqual([]);
  });

  it("closes the oldest idle session when a server has its maximum", async () => {
    await useProxy({ mcpMaxSessions: 2 });
    const first = await connect();
    await connect();
    await connect();
    await until(() => lines.some((line) => line.includes("session ended (the oldest idle of 2 sessions")), "the close");
    await expect(first.client.listTools()).rejects.toThrow(
      "This MCP session with everything has ended on Fawn's proxy",
    );
  });

  it("refuses a new session with a sentence when every session of the server is busy", async () => {
    await useProxy({ mcpMaxSessions: 1 });
    const { client } = await connect();
    const busy = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.6, steps: 2 } });
    await expect(connect()).rejects.toThrow(
      "The MCP server everything already has 1 busy sessions on Fawn's proxy; try again when one ends, or raise FAWN_PROXY_MCP_MAX_SESSIONS.",
    );
    await busy;
    expect(childPids()).toHaveLength(1);
  });

  it("closes a session that stays idle", async () => {
    await useProxy({ mcpIdleTimeoutMs: 200 });
    await connect();
    const [pid] = childPids();
    await until(() => lines.some((line) => line.includes("session ended (idle for")), "the idle close");
    await until(() => !isAlive(pid as number), "the child to stop");
  });

  it("stops every child when the proxy closes", async () => {
    await connect();
    await connect();
    const pids = childPids();
    expect(pids).toHaveLength(2);
    await closeProxy();
    await until(() => pids.every((pid) => !isAlive(pid)), "the children to stop");
  });
});

describe("access", () => {
  it("lists the configured servers at GET /mcp and 404s an unknown name with a sentence", async () => {
    const list = await send(`${proxy.url}/mcp`, { headers: { origin: ORIGIN } });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.text)).toEqual({ servers: ["everything", "crash", "missing"] });
    expect(list.headers["access-control-allow-origin"]).toBe(ORIGIN);
    const unknown = await send(`${proxy.url}/mcp/nope`, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: ORIGIN },
      body: JSON.stringify(INITIALIZE),
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.message).toBe(
      'Fawn\'s proxy has no MCP server named "nope"; it serves: everything, crash, missing.',
    );
  });

  it("answers the preflight with the MCP methods and headers, and exposes the session id", async () => {
    const reply = await send(`${proxy.url}/mcp/everything`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers["access-control-allow-methods"]).toBe("GET,POST,DELETE,OPTIONS");
    expect(reply.headers["access-control-allow-headers"]).toBe(
      "content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, x-fawn-proxy-token",
    );
    const init = await send(`${proxy.url}/mcp/everything`, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: ORIGIN },
      body: JSON.stringify(INITIALIZE),
    });
    expect(init.status).toBe(200);
    expect(init.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(init.headers["access-control-expose-headers"]).toContain("mcp-session-id");
    expect(init.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a disallowed Origin and a missing one, starting nothing", async () => {
    for (const origin of ["https://evil.example", undefined]) {
      const reply = await send(`${proxy.url}/mcp/everything`, {
        method: "POST",
        headers: { ...MCP_HEADERS, ...(origin === undefined ? {} : { origin }) },
        body: JSON.stringify(INITIALIZE),
      });
      expect(reply.status).toBe(403);
      expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
    }
    expect(childPids()).toEqual([]);
  });

  it("never runs a command a request names", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fawn-mcp-"));
    const marker = path.join(dir, "ran");
    const touch = { command: "touch", args: [marker], env: { X: "1" } };
    try {
      for (const target of [
        "/mcp/..%2F..%2Fbin%2Ftouch",
        "/mcp/touch",
        `/mcp/everything?command=touch&args=${marker}`,
      ]) {
        await send(`${proxy.url}${target}`, {
          method: "POST",
          headers: { ...MCP_HEADERS, origin: ORIGIN, "x-command": `touch ${marker}` },
          body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, ...touch, mcpServers: { t: touch } } }),
        });
      }
      const started = lines.filter((line) => line.includes("session started"));
      expect(started).toHaveLength(1);
      expect(started[0]).toMatch(/^\[fawn-proxy\] mcp everything [0-9a-f]{8}: session started: node \(pid \d+\)$/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm run proxy", () => {
  it("stops its MCP children on SIGTERM", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fawn-mcp-"));
    const file = path.join(dir, "fawn-mcp.json");
    writeFileSync(file, config);
    const tokenFile = path.join(dir, "token");
    const cli = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "proxy/server.ts"], {
      env: { ...process.env, FAWN_PROXY_MCP_CONFIG: file, FAWN_PROXY_PORT: "0", FAWN_PROXY_TOKEN_FILE: tokenFile },
    });
    try {
      let out = "";
      cli.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      cli.stderr.setEncoding("utf8").on("data", (chunk: string) => lines.push(...chunk.trim().split("\n")));
      await until(() => /MCP servers from .*: (http:\/\/\S+)\/mcp\/everything,/.test(out), "the proxy to start");
      const url = /: (http:\/\/127\.0\.0\.1:\d+)\/mcp\/everything,/.exec(out)?.[1] as string;
      const init = await send(`${url}/mcp/everything`, {
        method: "POST",
        headers: { ...MCP_HEADERS, origin: ORIGIN, [PROXY_TOKEN_HEADER]: readFileSync(tokenFile, "utf8").trim() },
        body: JSON.stringify(INITIALIZE),
      });
      expect(init.status).toBe(200);
      const [pid] = childPids();
      expect(isAlive(pid as number)).toBe(true);
      const exited = new Promise((resolve) => cli.once("exit", resolve));
      cli.kill("SIGTERM");
      await exited;
      await until(() => !isAlive(pid as number), "the child to stop");
      expect(lines.some((line) => line.endsWith("session ended (the proxy stopped)"))).toBe(true);
    } finally {
      cli.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the config file", () => {
  it("reads DeerFlow's mcpServers shape: stdio by type, transport or command; skips the rest with a log line", () => {
    const logged: string[] = [];
    const text = JSON.stringify({
      mcpServers: {
        files: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
        git: { transport: "stdio", command: "uvx", args: ["mcp-server-git"], env: { TOKEN: "$TOKEN" } },
        plain: { command: "my-server", env: { URL: "https://${HOST}/api", LITERAL: "a$b" }, cwd: "/srv" },
        off: { command: "never", enabled: false },
        remote: { type: "http", url: "https://mcp.example.com/mcp" },
      },
      skills: {},
    });
    const env = { TOKEN: "secret", HOST: "example.com" };
    expect(mcpServersFromConfig(text, "f.json", env, (line) => logged.push(line))).toEqual([
      { name: "files", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: {} },
      { name: "git", command: "uvx", args: ["mcp-server-git"], env: { TOKEN: "secret" } },
      {
        name: "plain",
        command: "my-server",
        args: [],
        env: { URL: "https://example.com/api", LITERAL: "a$b" },
        cwd: "/srv",
      },
    ]);
    expect(logged).toEqual([
      '[fawn-proxy] MCP server "off" in f.json is disabled; skipped.',
      '[fawn-proxy] MCP server "remote" in f.json is not a stdio server (http); skipped: add it in Fawn by its URL.',
    ]);
  });

  it("refuses a bad file with one sentence naming the problem", () => {
    const bad: [string, string][] = [
      ["{", "The MCP config f.json is not valid JSON"],
      ["[]", "In the MCP config f.json, its top level must be a JSON object."],
      ["{}", 'In the MCP config f.json, mcpServers must be an object of servers by name, as in {"mcpServers": {}}.'],
      [
        '{"mcpServers":{"a":{"command":"x","args":"-v"}}}',
        "In the MCP config f.json, mcpServers.a.args must be a list of strings.",
      ],
      ['{"mcpServers":{"a b":{"command":"x"}}}', 'The MCP server name "a b" in f.json must be 1 to 32 letters'],
      ['{"mcpServers":{"a":{"type":"stdio"}}}', 'The MCP server "a" in f.json is stdio but has no "command".'],
      [
        '{"mcpServers":{"a":{"command":"x","env":{"K":"${NOPE}"}}}}',
        'The MCP server "a" in f.json uses $NOPE, which is not set',
      ],
    ];
    for (const [text, sentence] of bad) {
      expect(() => mcpServersFromConfig(text, "f.json", {})).toThrow(McpConfigError);
      expect(() => mcpServersFromConfig(text, "f.json", {})).toThrow(sentence);
    }
  });

  it("reads FAWN_PROXY_MCP_CONFIG, or ./fawn-mcp.json when it exists", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fawn-mcp-"));
    try {
      expect(mcpServersFromEnv({}, dir)).toEqual({ servers: [] });
      expect(() => mcpServersFromEnv({ FAWN_PROXY_MCP_CONFIG: "gone.json" }, dir)).toThrow(
        `The MCP config ${path.join(dir, "gone.json")} (FAWN_PROXY_MCP_CONFIG) cannot be read: does not exist.`,
      );
      writeFileSync(path.join(dir, "fawn-mcp.json"), '{"mcpServers":{"a":{"command":"x"}}}');
      expect(mcpServersFromEnv({}, dir)).toEqual({
        source: path.join(dir, "fawn-mcp.json"),
        servers: [{ name: "a", command: "x", args: [], env: {} }],
      });
      expect(mcpServersFromEnv({ FAWN_PROXY_MCP_CONFIG: "" }, dir)).toEqual({ servers: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the session limits from the environment", () => {
    const env = { FAWN_PROXY_MCP_MAX_SESSIONS: "2", FAWN_PROXY_MCP_IDLE_TIMEOUT: "30" };
    expect(proxyOptionsFromEnv(env)).toMatchObject({ mcpMaxSessions: 2, mcpIdleTimeoutMs: 30_000 });
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_MCP_MAX_SESSIONS: "0" })).toThrow(
      'FAWN_PROXY_MCP_MAX_SESSIONS must be a whole number above 0, got "0"',
    );
  });

  it("stops `npm run proxy` at start with one sentence when the file is bad", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fawn-mcp-"));
    const file = path.join(dir, "bad.json");
    writeFileSync(file, '{"mcpServers":{"a":{"command":"x","args":"-v"}}}');
    try {
      const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "proxy/server.ts"], {
        env: {
          ...process.env,
          FAWN_PROXY_MCP_CONFIG: file,
          FAWN_PROXY_PORT: "0",
          FAWN_PROXY_TOKEN_FILE: path.join(dir, "token"),
        },
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const code = await new Promise((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        `Fawn proxy failed to start: In the MCP config ${file}, mcpServers.a.args must be a list of strings.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
