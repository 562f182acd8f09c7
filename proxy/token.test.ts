// The proxy's token against the real thing: `npm run proxy` (tsx proxy/server.ts) spawned as a user would start it, in
// a home directory of its own. A local process that forges Fawn's Origin gets nothing without the token file's secret.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APP_ORIGIN } from "./server.ts";
import { sendRequest as send, type Reply } from "./send-request.ts";

const ORIGIN = DEFAULT_APP_ORIGIN;
const TOKEN_HEADER = "x-fawn-proxy-token";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "forger", version: "0" } },
});

interface Cli {
  url: string;
  out: string;
  err: () => string;
  child: ChildProcess;
}

let home: string;
let upstream: http.Server;
let upstreamPort: number;
let upstreamHits: number;
const running: ChildProcess[] = [];

/** `npm run proxy` with HOME and XDG_CONFIG_HOME in a fresh directory, an MCP config, and the upstream allowed. */
async function startCli(env: Record<string, string> = {}): Promise<Cli> {
  const config = path.join(home, "fawn-mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
        },
      },
    }),
  );
  const { FAWN_PROXY_TOKEN_FILE: _inherited, XDG_CONFIG_HOME: _xdg, ...inherited } = process.env;
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "proxy/server.ts"], {
    env: {
      ...inherited,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      FAWN_PROXY_PORT: "0",
      FAWN_PROXY_MCP_CONFIG: config,
      FAWN_PROXY_TARGETS: `*,127.0.0.1:${upstreamPort}`,
      ...env,
    },
  });
  running.push(child);
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const deadline = Date.now() + 20_000;
  while (!/MCP servers from /.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the proxy did not start: ${out}${err}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /Fawn proxy on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1] as string;
  return { url, out, err: () => err, child };
}

/** The exit code and stderr of a proxy that should refuse to start. */
async function failedStart(env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const { FAWN_PROXY_TOKEN_FILE: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "proxy/server.ts"], {
    env: { ...inherited, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), FAWN_PROXY_PORT: "0", ...env },
  });
  running.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stderr: stderr.trim() };
}

const tokenFile = (): string => path.join(home, ".config", "fawn-proxy", "token");

function forward(cli: Cli, headers: Record<string, string>): Promise<Reply> {
  return send(`${cli.url}/forward/http://127.0.0.1:${upstreamPort}/v1/models`, {
    headers: { origin: ORIGIN, ...headers },
  });
}

function initialize(cli: Cli, headers: Record<string, string>): Promise<Reply> {
  return send(`${cli.url}/mcp/everything`, {
    method: "POST",
    headers: { ...MCP_HEADERS, origin: ORIGIN, ...headers },
    body: INITIALIZE,
  });
}

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "fawn-proxy-home-"));
  upstreamHits = 0;
  upstream = http.createServer((_req, res) => {
    upstreamHits += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"data":[]}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamPort = (upstream.address() as { port: number }).port;
});

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(home, { recursive: true, force: true });
});

describe("npm run proxy and its token", () => {
  it("refuses a local process that forges Fawn's Origin without the token, on /forward and on the stdio bridge", async () => {
    const cli = await startCli();
    // Soft: on the code before the token, each of these was accepted, and each failure is worth seeing.
    const forged = await forward(cli, {});
    expect.soft(forged.status, "/forward with a forged Origin and no token").toBe(401);
    expect.soft(upstreamHits, "requests that reached the target").toBe(0);
    const bridge = await initialize(cli, {});
    expect.soft(bridge.status, "/mcp/everything initialize with a forged Origin and no token").toBe(401);
    expect.soft(bridge.text, "what the bridge answered").not.toContain("serverInfo");
    const wrong = await forward(cli, { [TOKEN_HEADER]: "0".repeat(43) });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toEqual({
      error: {
        type: "proxy_token",
        message:
          "Fawn's proxy needs its token: the request carried no token or a wrong one. Paste the token from the " +
          `proxy's token file (${tokenFile()}) into Settings → Web → Proxy token.`,
      },
    });
    // Fawn's page can read the refusal (CORS headers), so it can say what is wrong.
    expect(wrong.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(upstreamHits).toBe(0);
  });

  it("makes a token of 256 random bits at first start, in a file only the user can read, and never prints it", async () => {
    const cli = await startCli();
    const file = tokenFile();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const token = readFileSync(file, "utf8").trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cli.out).toContain(`Token: ${file} (made now). Paste it into Fawn: Settings → Web → Proxy token.`);
    expect(cli.out + cli.err()).not.toContain(token);

    // With the token, forwarding and the bridge work.
    const forwarded = await forward(cli, { [TOKEN_HEADER]: token });
    expect(forwarded.status).toBe(200);
    expect(forwarded.text).toBe('{"data":[]}');
    expect(upstreamHits).toBe(1);
    const bridge = await initialize(cli, { [TOKEN_HEADER]: token });
    expect(bridge.status).toBe(200);
    expect(bridge.text).toContain('"serverInfo"');
    // The token is the proxy's own: it is not passed on to the target.
    const health = await send(`${cli.url}/health`, { headers: { origin: ORIGIN, [TOKEN_HEADER]: token } });
    expect(health.status).toBe(200);
  });

  it("keeps the token across restarts, and the preflight lets Fawn send it", async () => {
    const first = await startCli();
    const token = readFileSync(tokenFile(), "utf8").trim();
    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const second = await startCli();
    expect(readFileSync(tokenFile(), "utf8").trim()).toBe(token);
    expect(second.out).toContain(`Token: ${tokenFile()}. Paste it into Fawn: Settings → Web → Proxy token.`);
    for (const target of [`/forward/http://127.0.0.1:${upstreamPort}/v1/chat/completions`, "/mcp/everything"]) {
      const preflight = await send(`${second.url}${target}`, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": `authorization, content-type, ${TOKEN_HEADER}`,
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers["access-control-allow-headers"]?.toLowerCase()).toContain(TOKEN_HEADER);
    }
    expect((await forward(second, { [TOKEN_HEADER]: token })).status).toBe(200);
  });

  it("takes the file FAWN_PROXY_TOKEN_FILE names, and refuses to start with a token file others can read", async () => {
    const own = path.join(home, "elsewhere", "proxy-token");
    const cli = await startCli({ FAWN_PROXY_TOKEN_FILE: own });
    expect(statSync(own).mode & 0o777).toBe(0o600);
    expect(existsSync(tokenFile())).toBe(false);
    expect((await forward(cli, { [TOKEN_HEADER]: readFileSync(own, "utf8").trim() })).status).toBe(200);

    const loose = path.join(home, "loose-token");
    writeFileSync(loose, `${"a".repeat(43)}\n`);
    chmodSync(loose, 0o644);
    expect(await failedStart({ FAWN_PROXY_TOKEN_FILE: loose })).toEqual({
      code: 1,
      stderr:
        `Fawn proxy failed to start: the token file ${loose} can be read by other users (mode 644). ` +
        `Run chmod 600 ${loose}, or delete it to have a new token made.`,
    });

    const short = path.join(home, "short-token");
    mkdirSync(path.dirname(short), { recursive: true });
    writeFileSync(short, "guessable\n", { mode: 0o600 });
    expect(await failedStart({ FAWN_PROXY_TOKEN_FILE: short })).toEqual({
      code: 1,
      stderr:
        `Fawn proxy failed to start: the token file ${short} does not hold a token (at least 22 letters, digits, ` +
        `"-" or "_"). Delete it to have a new token made.`,
    });
  });
});
