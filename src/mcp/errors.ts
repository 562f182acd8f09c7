// Every MCP failure as one sentence that names the server: it is down, it cannot be reached, it wants a sign-in, a
// call timed out, a tool failed or does not exist. The agent's tool-errors middleware shows the sentence to the
// model; Settings → Tools shows it to the user. A Stop is not a failure: it stays an AbortError.
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { truncateMiddle } from "../shared/text.ts";
import { quotableName } from "../shared/zip-safety.ts";
import { MCP_SCOPE_STEP_UP_LIMIT } from "./oauth-scopes.ts";

/** What went wrong, as the user would put it. */
export type McpFailureKind =
  "down" | "unreachable" | "sign-in" | "refused" | "timeout" | "tool-failed" | "unknown-tool";

/** The longest tool error text kept in a sentence (a failing tool may answer with pages). */
export const MCP_ERROR_DETAIL_MAX_CHARS = 500;

/** An MCP failure whose message is the one sentence for the model and the user. */
export class McpClientError extends Error {
  override name = "McpClientError";

  constructor(
    message: string,
    readonly kind: McpFailureKind,
    readonly server: string,
  ) {
    super(message);
  }
}

/** What a sentence can name beside the server. */
export interface McpErrorContext {
  server: string;
  url?: string;
  /** The server's own name for the tool being called. */
  tool?: string;
  /** The call's time limit, for "timed out after N s". */
  timeoutSeconds?: number;
  /** The request went through Fawn's proxy (so "Use the proxy" is no advice). */
  viaProxy?: boolean;
}

const quoted = (name: string) => `"${name}"`;

/** The sentence when the server dropped the connection or stopped answering. */
export function serverDown(context: McpErrorContext, detail?: string): McpClientError {
  const why = detail ? ` (${detail})` : "";
  return new McpClientError(
    `The MCP server ${quoted(context.server)} is down: the connection broke and it stopped answering${why}.`,
    "down",
    context.server,
  );
}

/** The sentence for a tool the server does not offer. */
export function unknownTool(context: McpErrorContext & { tool: string }): McpClientError {
  return new McpClientError(
    `The MCP server ${quoted(context.server)} has no tool named ${quoted(context.tool)}.`,
    "unknown-tool",
    context.server,
  );
}

/** The sentence for a result marked `isError`, with the tool's own text (trimmed). */
export function toolFailed(context: McpErrorContext & { tool: string }, text: string): McpClientError {
  const detail = truncateMiddle(text.trim(), MCP_ERROR_DETAIL_MAX_CHARS) || "it gave no reason";
  if (/^(?:MCP error -?\d+: )?Tool \S+ not found\.?$/i.test(text.trim())) return unknownTool(context);
  return new McpClientError(
    `The MCP tool ${quoted(context.tool)} on server ${quoted(context.server)} failed: ${detail}`,
    "tool-failed",
    context.server,
  );
}

function timedOut(context: McpErrorContext, totalCap: boolean): McpClientError {
  const seconds = context.timeoutSeconds === undefined ? "" : ` after ${String(context.timeoutSeconds)} s`;
  const what = context.tool ? `The call to ${quoted(context.tool)} on MCP server` : "The MCP server";
  const tail = totalCap ? " (the longest any call may run, even while it reports progress)" : "";
  const verb = context.tool ? "timed out" : "did not answer";
  return new McpClientError(
    `${what} ${quoted(context.server)} ${verb}${totalCap ? "" : seconds}${tail}.`,
    "timeout",
    context.server,
  );
}

function signIn(context: McpErrorContext, status?: number): McpClientError {
  const answer = status === 403 ? "403 Forbidden" : "401 Unauthorized";
  return new McpClientError(
    `The MCP server ${quoted(context.server)} needs you to sign in (it answered ${answer}); check its token in Settings → Tools.`,
    "sign-in",
    context.server,
  );
}

/** A server that signs in with OAuth and has no tokens that work. */
function oauthSignIn(context: McpErrorContext): McpClientError {
  return new McpClientError(
    `The MCP server ${quoted(context.server)} needs you to sign in: press "Sign in" for it in Settings → Tools.`,
    "sign-in",
    context.server,
  );
}

/** A sign-in that could not begin or finish (discovery, registration or the token exchange failed). */
export function signInFailed(context: McpErrorContext, detail: string): McpClientError {
  return new McpClientError(
    `Signing in to the MCP server ${quoted(context.server)} failed: ${detail.replace(/\.$/, "")}.`,
    "sign-in",
    context.server,
  );
}

function unreachable(context: McpErrorContext, detail: string): McpClientError {
  const where = context.url ? ` at ${context.url}` : "";
  const advice = context.viaProxy
    ? " Check that Fawn's proxy is running and allows this server."
    : ' If the server refuses requests from browsers, turning on "Use the proxy" for it may help.';
  return new McpClientError(
    `The MCP server ${quoted(context.server)} cannot be reached${where} (${detail}).${advice}`,
    "unreachable",
    context.server,
  );
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Fawn's proxy wants its token (its 401 `{"error": {"type": "proxy_token", "message"}}`): raised by the connection's
 * fetch before the SDK could read that 401 as the server asking for a sign-in.
 */
export class ProxyTokenRefused extends Error {
  override name = "ProxyTokenRefused";
}

/**
 * A 403 insufficient_scope, read by the connection's fetch before the SDK could start a sign-in the worker cannot
 * open: `signIn` when a sign-in for the wider `scope` may help (a step-up), else why not.
 */
export class McpScopeRefused extends Error {
  override name = "McpScopeRefused";

  constructor(
    readonly scope: string,
    readonly signIn: boolean,
    readonly reason?: "granted" | "limit",
  ) {
    super(`insufficient_scope: ${scope}`);
  }
}

function scopeRefused(error: McpScopeRefused, context: McpErrorContext): McpClientError {
  const server = quoted(context.server);
  // The scope is the server's own words: shown on one line and briefly.
  const scope = quotableName(error.scope);
  if (error.signIn) {
    return new McpClientError(
      `The MCP server ${server} needs more access for this (${scope}): in Settings → Tools, press "Test connection" and then "Sign in" for it.`,
      "sign-in",
      context.server,
    );
  }
  const why =
    error.reason === "limit"
      ? `it asked for more access again after ${String(MCP_SCOPE_STEP_UP_LIMIT)} sign-ins (${scope}); sign out of it in Settings → Tools and sign in again`
      : `you signed in with the access it asked for (${scope}) and it still says that is not enough`;
  return new McpClientError(`The MCP server ${server} refused this: ${why}.`, "refused", context.server);
}

/** Fawn's proxy's own refusal (`{"error": {"message", "type": "proxy_error"}}`) quoted in an HTTP error, if any. */
function proxyRefusal(error: unknown): string | undefined {
  const text = messageOf(error);
  const start = text.indexOf('{"error"');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown; type?: unknown } };
    return body.error?.type === "proxy_error" && typeof body.error.message === "string"
      ? body.error.message.replace(/\.$/, "")
      : undefined;
  } catch {
    return undefined;
  }
}

/** An error's HTTP status, when a transport saw one. */
function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    return typeof error.code === "number" && error.code >= 100 ? error.code : undefined;
  }
  return undefined;
}

/**
 * Any error from connecting to or calling an MCP server, as one McpClientError. Callers rethrow an abort they asked
 * for before calling this (a Stop and a timeout share the SDK's error code -32001).
 */
export function describeMcpError(error: unknown, context: McpErrorContext): McpClientError {
  if (error instanceof McpClientError) return error;
  // Nor is the proxy wanting its own token (Settings → Web → Proxy token): its sentence says what to do.
  if (error instanceof ProxyTokenRefused) {
    const said = error.message.replace(/\.$/, "");
    return new McpClientError(
      `The MCP server ${quoted(context.server)} cannot be used: ${said}.`,
      "unreachable",
      context.server,
    );
  }
  // The server's guarded fetch refusing a private address (server/outbound.ts): its sentence names who can allow it.
  if (error instanceof Error && error.name === "OutboundRefusedError") {
    return new McpClientError(
      `The MCP server ${quoted(context.server)} cannot be used: ${error.message}`,
      "unreachable",
      context.server,
    );
  }
  if (error instanceof UnauthorizedError) return oauthSignIn(context);
  if (error instanceof McpScopeRefused) return scopeRefused(error, context);
  const status = httpStatus(error);
  // The proxy refusing (an origin or a target it does not allow) is not the server asking for a sign-in.
  const refusal = status === undefined ? undefined : proxyRefusal(error);
  if (refusal) return unreachable(context, `Fawn's proxy refused: ${refusal}`);
  if (status === 401 || status === 403) return signIn(context, status);
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.RequestTimeout)) {
      return timedOut(context, /maximum total timeout/i.test(error.message));
    }
    if (error.code === Number(ErrorCode.ConnectionClosed)) return serverDown(context);
    if (error.code === Number(ErrorCode.MethodNotFound) && context.tool)
      return unknownTool({ ...context, tool: context.tool });
    if (context.tool) return toolFailed({ ...context, tool: context.tool }, error.message);
    return unreachable(context, error.message);
  }
  if (status !== undefined && status >= 500) return serverDown(context, `it answered HTTP ${String(status)}`);
  if (status !== undefined) return unreachable(context, `it answered HTTP ${String(status)}`);
  // fetch's network failure: "Failed to fetch" in browsers, "fetch failed" in Node; CORS refusals look the same.
  if (error instanceof TypeError) return unreachable(context, "no answer, or the browser refused it");
  return unreachable(context, messageOf(error));
}

/** The abort a Stop raises: the signal's own reason when it is an error, else an AbortError. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException(typeof reason === "string" ? reason : "The run was stopped.", "AbortError");
}
