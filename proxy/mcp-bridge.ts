// Local stdio MCP servers listed in the proxy's config file, each served as Streamable HTTP at /mcp/<name>.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type ProgressToken,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpStdioServer } from "./mcp-config-file.ts";

/** Sessions (each one child process) per configured server: a few Fawn tabs, not a crowd of children. */
export const DEFAULT_MCP_MAX_SESSIONS = 4;
/** A session with no request and nothing in flight for this long closes, and its child with it. */
export const DEFAULT_MCP_IDLE_TIMEOUT_MS = 10 * 60_000;
/** What the browser may send to /mcp/<name> (CORS preflight answer). */
export const MCP_ALLOWED_METHODS = "GET,POST,DELETE,OPTIONS";
export const MCP_ALLOWED_HEADERS =
  "content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, x-fawn-proxy-token";

/** JSON-RPC code the SDK clients read as "connection closed"; used for a child that stopped or never started. */
const CONNECTION_CLOSED = -32000;

export interface McpBridgeOptions {
  servers: readonly McpStdioServer[];
  /** Default DEFAULT_MCP_MAX_SESSIONS. */
  maxSessionsPerServer?: number;
  /** Default DEFAULT_MCP_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** Larger request bodies get 413. */
  maxRequestBytes: number;
  /** Sessions starting and ending, each child's stderr (prefixed with its server's name), cancellations. */
  log: (line: string) => void;
}

function jsonRpcError(id: RequestId | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as JSONRPCMessage;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(text);
}

type Body = { ok: true; value: unknown } | { ok: false; status: number; message: string };

function readJson(req: http.IncomingMessage, maxBytes: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on("error", () => resolve({ ok: false, status: 400, message: "The request body could not be read." }));
    req.on("end", () => {
      if (size > maxBytes) {
        const message = "The request body is larger than Fawn's proxy accepts; raise FAWN_PROXY_MAX_REQUEST_BYTES.";
        resolve({ ok: false, status: 413, message });
        return;
      }
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch {
        resolve({ ok: false, status: 400, message: "Parse error: the request body is not JSON." });
      }
    });
  });
}

/** Where a child's ending is described, e.g. "exit code 1" or "killed by SIGKILL". */
function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return code !== null ? `exit code ${code}` : `killed by ${signal ?? "a signal"}`;
}

/** One MCP session: one child process and the Streamable HTTP endpoint its client talks to. */
class BridgeSession {
  id: string | undefined;
  started = false;
  ended = false;
  lastActive = Date.now();
  exit: string | undefined;
  /** Client requests the child has not answered, oldest first, with the progress token each carries. */
  readonly inFlight = new Map<RequestId, ProgressToken | undefined>();
  readonly progressRequests = new Map<ProgressToken, RequestId>();
  idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly server: McpStdioServer,
    readonly child: StdioClientTransport,
    readonly transport: StreamableHTTPServerTransport,
  ) {}

  get label(): string {
    return `[fawn-proxy] mcp ${this.server.name}${this.id === undefined ? "" : ` ${this.id.slice(0, 8)}`}:`;
  }

  touch(): void {
    this.lastActive = Date.now();
    this.idleTimer?.refresh();
  }

  forget(id: RequestId): void {
    const token = this.inFlight.get(id);
    this.inFlight.delete(id);
    if (token !== undefined) this.progressRequests.delete(token);
  }

  /** The request a server notification or request belongs to: its progress token's request, else the oldest in flight. */
  relatedRequest(message: JSONRPCMessage): RequestId | undefined {
    if (isJSONRPCNotification(message) && message.method === "notifications/progress") {
      const token = (message.params as { progressToken?: ProgressToken } | undefined)?.progressToken;
      return token === undefined ? undefined : this.progressRequests.get(token);
    }
    return this.inFlight.keys().next().value;
  }
}

/**
 * Serves each configured stdio server at /mcp/<name>: one child per MCP session, JSON-RPC relayed unchanged. A new
 * session starts only from a POST initialize without mcp-session-id; the child is always the configured command.
 */
export class McpBridge {
  private readonly servers: ReadonlyMap<string, McpStdioServer>;
  private readonly sessions = new Map<string, BridgeSession[]>();
  private readonly byId = new Map<string, BridgeSession>();
  private readonly maxSessions: number;
  private readonly idleTimeoutMs: number;
  private closed = false;

  constructor(private readonly options: McpBridgeOptions) {
    this.servers = new Map(options.servers.map((server) => [server.name, server]));
    this.maxSessions = options.maxSessionsPerServer ?? DEFAULT_MCP_MAX_SESSIONS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_MCP_IDLE_TIMEOUT_MS;
  }

  names(): string[] {
    return [...this.servers.keys()];
  }

  /**
   * Answers a request to `/mcp` (the servers' names) or `/mcp/<name>`. The caller has checked the Origin; `cors` are
   * the headers to add. Never rejects.
   */
  async handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
    cors: http.OutgoingHttpHeaders,
  ): Promise<void> {
    for (const [name, value] of Object.entries(cors)) if (value !== undefined) res.setHeader(name, value);
    try {
      await this.route(req, res, pathname);
    } catch (err) {
      this.options.log(`[fawn-proxy] mcp ${pathname}: ${(err as Error).message}`);
      if (!res.headersSent)
        sendJson(res, 500, jsonRpcError(null, -32603, "Fawn's proxy failed to relay this request."));
      else res.destroy();
    }
  }

  /** Ends every session and stops every child (SIGTERM, then the SDK's escalation). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.sessions.values()].flat();
    for (const session of all) {
      const pid = session.child.pid;
      if (pid !== null) {
        try {
          process.kill(pid, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
    }
    await Promise.all(all.map((session) => this.end(session, "the proxy stopped")));
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    const method = req.method ?? "GET";
    if (pathname === "/mcp" || pathname === "/mcp/") {
      if (method !== "GET") {
        res.setHeader("allow", "GET, OPTIONS");
        sendJson(res, 405, { error: { message: "Use GET /mcp to list the MCP servers.", type: "proxy_error" } });
        return;
      }
      sendJson(res, 200, { servers: this.names() });
      return;
    }
    const name = pathname.slice("/mcp/".length);
    const server = this.servers.get(name);
    if (server === undefined) {
      const known = this.names().join(", ") || "none (see FAWN_PROXY_MCP_CONFIG)";
      const message = `Fawn's proxy has no MCP server named "${name}"; it serves: ${known}.`;
      sendJson(res, 404, jsonRpcError(null, CONNECTION_CLOSED, message));
      return;
    }
    if (method !== "GET" && method !== "POST" && method !== "DELETE") {
      res.setHeader("allow", "GET, POST, DELETE, OPTIONS");
      sendJson(res, 405, jsonRpcError(null, CONNECTION_CLOSED, `${method} is not an MCP request method.`));
      return;
    }
    let body: unknown;
    if (method === "POST") {
      const read = await readJson(req, this.options.maxRequestBytes);
      if (!read.ok) {
        sendJson(res, read.status, jsonRpcError(null, read.status === 400 ? -32700 : CONNECTION_CLOSED, read.message));
        return;
      }
      body = read.value;
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = this.byId.get(sessionId);
      if (session === undefined || session.server !== server) {
        const message = `This MCP session with ${name} has ended on Fawn's proxy; start a new one.`;
        sendJson(res, 404, jsonRpcError(null, -32001, message));
        return;
      }
      session.touch();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (method !== "POST" || !isJSONRPCRequest(body) || !isInitializeRequest(body)) {
      const message = "Send initialize first: MCP requests other than initialize need an mcp-session-id header.";
      sendJson(res, 400, jsonRpcError(null, CONNECTION_CLOSED, message));
      return;
    }
    await this.open(server, req, res, body);
  }

  /** Starts a session for an initialize request: a fresh child of the configured command, then the relay. */
  private async open(
    server: McpStdioServer,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    initialize: { id: RequestId },
  ): Promise<void> {
    const { log } = this.options;
    const refuse = (message: string) => sendJson(res, 200, jsonRpcError(initialize.id, CONNECTION_CLOSED, message));
    if (this.closed) {
      refuse("Fawn's proxy is stopping.");
      return;
    }
    const list = this.sessions.get(server.name) ?? [];
    this.sessions.set(server.name, list);
    if (list.length >= this.maxSessions) {
      const idle = list.filter((session) => session.inFlight.size === 0).sort((a, b) => a.lastActive - b.lastActive);
      const oldest = idle[0];
      if (oldest === undefined) {
        refuse(
          `The MCP server ${server.name} already has ${this.maxSessions} busy sessions on Fawn's proxy; ` +
            "try again when one ends, or raise FAWN_PROXY_MCP_MAX_SESSIONS.",
        );
        return;
      }
      // Not awaited: the slot is free at once, so a second initialize meanwhile cannot pass the cap too.
      void this.end(oldest, `the oldest idle of ${this.maxSessions} sessions, closed for a new one`);
    }

    const child = new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      env: { ...server.env },
      stderr: "pipe",
      ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.byId.set(id, session);
        log(`${session.label} session started: ${server.command} (pid ${child.pid ?? "?"})`);
      },
      onsessionclosed: () => void this.end(session, "closed by the client"),
    });
    const session = new BridgeSession(server, child, transport);
    list.push(session);

    const stderr = child.stderr as Readable | null;
    if (stderr !== null) {
      createInterface({ input: stderr }).on("line", (line) => log(`${session.label} ${line}`));
    }
    transport.onmessage = (message) => this.fromClient(session, message);
    transport.onclose = () => void this.end(session, "closed");
    child.onmessage = (message) => this.fromServer(session, message);
    child.onerror = (err) => log(`${session.label} ${err.message}`);
    child.onclose = () => void this.childStopped(session);

    try {
      await child.start();
    } catch (err) {
      session.ended = true;
      list.splice(list.indexOf(session), 1);
      const code = (err as NodeJS.ErrnoException).code;
      const reason = code === "ENOENT" ? `the command "${server.command}" was not found` : (err as Error).message;
      log(`${session.label} could not start: ${reason}`);
      refuse(`Fawn's proxy could not start the MCP server ${server.name}: ${reason}.`);
      return;
    }
    session.started = true;
    // StdioClientTransport (sdk 1.32.2) reports a child's end without its exit code; the sentence needs it.
    const process_ = (child as unknown as { _process?: ChildProcess })._process;
    process_?.once("exit", (exitCode, signal) => (session.exit = exitText(exitCode, signal)));
    session.idleTimer = setTimeout(() => this.idle(session), this.idleTimeoutMs).unref();

    await transport.handleRequest(req, res, initialize);
    // The transport refused the initialize (e.g. its Accept header): no session, so no child either.
    if (session.id === undefined) await this.end(session, "not initialized");
  }

  private fromClient(session: BridgeSession, message: JSONRPCMessage): void {
    session.touch();
    if (isJSONRPCRequest(message)) {
      const token = message.params?._meta?.progressToken;
      session.inFlight.set(message.id, token);
      if (token !== undefined) session.progressRequests.set(token, message.id);
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const params = message.params as { requestId?: RequestId; reason?: string } | undefined;
      const reason = params?.reason === undefined ? "" : `: ${params.reason}`;
      this.options.log(`${session.label} the client cancelled request ${String(params?.requestId)}${reason}`);
      if (params?.requestId !== undefined && session.inFlight.has(params.requestId)) {
        session.forget(params.requestId);
        // The server sends no answer to a cancelled request: end its stream so the browser gets the connection back.
        session.transport.closeSSEStream(params.requestId);
      }
    }
    session.child.send(message).catch((err: Error) => this.options.log(`${session.label} ${err.message}`));
  }

  private fromServer(session: BridgeSession, message: JSONRPCMessage): void {
    session.touch();
    let related: RequestId | undefined;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const id = message.id;
      // An answer to a request the client cancelled (or an id the bridge never saw) has no stream to go to.
      if (id === undefined || !session.inFlight.has(id)) return;
      session.forget(id);
    } else {
      related = session.relatedRequest(message);
      const progress = isJSONRPCNotification(message) && message.method === "notifications/progress";
      if (progress && related === undefined) return;
    }
    session.transport
      .send(message, related === undefined ? undefined : { relatedRequestId: related })
      .catch((err: Error) => this.options.log(`${session.label} ${err.message}`));
  }

  /** The child ended on its own: every open request gets one sentence, then the session ends. */
  private async childStopped(session: BridgeSession): Promise<void> {
    if (!session.started || session.ended) return;
    const how = session.exit ?? "it exited";
    const message = `The MCP server ${session.server.name} stopped (${how}).`;
    const pending = [...session.inFlight.keys()];
    session.inFlight.clear();
    session.progressRequests.clear();
    await Promise.allSettled(
      pending.map((id) =>
        session.transport.send(jsonRpcError(id, CONNECTION_CLOSED, message), { relatedRequestId: id }),
      ),
    );
    await this.end(session, `the server stopped (${how})`);
  }

  private idle(session: BridgeSession): void {
    if (session.ended) return;
    if (session.inFlight.size > 0) {
      session.idleTimer?.refresh();
      return;
    }
    void this.end(session, `idle for ${Math.round(this.idleTimeoutMs / 1000)} s`);
  }

  private async end(session: BridgeSession, reason: string): Promise<void> {
    if (session.ended) return;
    session.ended = true;
    clearTimeout(session.idleTimer);
    const list = this.sessions.get(session.server.name);
    list?.splice(list.indexOf(session), 1);
    if (session.id !== undefined) this.byId.delete(session.id);
    await Promise.allSettled([session.transport.close(), session.child.close()]);
    this.options.log(`${session.label} session ended (${reason})`);
  }
}
