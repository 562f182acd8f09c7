// Test harness for the proxy's HTTP tests: a proxy started per test (with its log lines kept) and local upstream
// servers that record what reaches them. Each test file calls useProxyHarness() once at its top.
import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach } from "vitest";
import { sendRequest, type Reply } from "./send-request.ts";
import {
  DEFAULT_APP_ORIGIN,
  PROXY_TOKEN_HEADER,
  startProxy,
  type RunningProxy,
  type StartProxyOptions,
} from "./server.ts";

export const ORIGIN = DEFAULT_APP_ORIGIN;
/** The proxy's token in these tests (the CLI's comes from its token file: token.test.ts). */
export const TOKEN = "test-token-0123456789abcdef";

/** One request carrying the proxy's token, unless its headers name the token header themselves (undefined: none). */
export function send(url: string, init: Parameters<typeof sendRequest>[1] = {}): Promise<Reply> {
  const headers: Record<string, unknown> = { [PROXY_TOKEN_HEADER]: TOKEN, ...init.headers };
  if (headers[PROXY_TOKEN_HEADER] === undefined) delete headers[PROXY_TOKEN_HEADER];
  return sendRequest(url, { ...init, headers: headers as typeof init.headers });
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  base: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void;

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
export async function startUpstream(handler: Handler, readBody = true, host = "127.0.0.1"): Promise<Upstream> {
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
  started.push(server);
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

export function errorOf(reply: Reply): { message: string; type: string } {
  return (JSON.parse(reply.text) as { error: { message: string; type: string } }).error;
}

/** An agent that connects every request to 127.0.0.1:`port`, whatever host the URL names (no DNS, no network). */
export function routeTo(port: number): http.Agent {
  return new (class extends http.Agent {
    override createConnection(): net.Socket {
      return net.createConnection({ host: "127.0.0.1", port });
    }
  })();
}

export function nextEvent<T>(register: (done: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

export let proxy: RunningProxy;
export let logLines: string[];
/** The options of the running proxy, kept when startUpstream restarts it. */
let proxyOptions: Partial<StartProxyOptions>;
/** host:port of every upstream started in this test: the proxy's allowedTargets unless a test sets its own. */
let upstreamTargets: string[];
/** Every upstream server started in this test, closed after it. */
let started: http.Server[];

export async function useProxy(options: Partial<StartProxyOptions> = {}): Promise<void> {
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
/** Starts a proxy before each test of the calling file, and closes it and every upstream after. */
export function useProxyHarness(): void {
  beforeEach(async () => {
    logLines = [];
    proxyOptions = {};
    upstreamTargets = [];
    started = [];
    proxy = await startProxy({ port: 0, token: TOKEN, log: (line) => logLines.push(line) });
  });

  afterEach(async () => {
    await proxy.close();
    await Promise.all(
      started.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
  });
}

export const forwardUrl = (target: string): string => `${proxy.url}/forward/${target}`;
