// Turns provider and network failures into one clear sentence and a code the UI can act on.
import type { RunError } from "../protocol/index.ts";

function field(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** The `type` of the error body Fawn's proxy answers with (proxy/server.ts) when it will not forward a request. */
const PROXY_ERROR_TYPE = "proxy_error";

/** The provider's own message without LangChain's appended troubleshooting link. */
function providerMessage(error: unknown): string {
  const message = field(error, "message");
  if (typeof message !== "string") return String(error);
  return message.split("\n\nTroubleshooting URL:")[0]!.trim();
}

function isConnectionError(error: unknown, message: string): boolean {
  if (field(error, "status") !== undefined) return false;
  return /connection error|failed to fetch|fetch failed|networkerror|load failed|econnrefused/i.test(message);
}

/** The provider's error inside langchain's MiddlewareError (an agent middleware rethrows it with it as the cause). */
function unwrap(error: unknown): unknown {
  let current = error;
  while (field(current, "~brand") === "MiddlewareError" && typeof field(current, "cause") === "object") {
    current = field(current, "cause");
  }
  return current;
}

/**
 * True for failures worth another try: a rate limit (429), a server error (5xx, 408), a timeout, or a dropped
 * connection. A refused key, a wrong model name or a bad request would fail again.
 */
export function isRetryableModelError(wrapped: unknown): boolean {
  const error = unwrap(wrapped);
  if (field(error, "name") === "AbortError") return false;
  const status = field(error, "status");
  if (typeof status === "number") return status === 408 || status === 429 || status >= 500;
  const message = providerMessage(error);
  return isConnectionError(error, message) || /timed? ?out|socket hang up|econnreset|network/i.test(message);
}

/**
 * Describes why a call to the model endpoint at `baseUrl` failed, in words a user can act on. `endpoint` names it as
 * Settings → Models does, so that a blocked request (CORS) says which endpoint needs "Use the proxy".
 */
export function describeModelError(
  wrapped: unknown,
  baseUrl: string,
  options: { proxied?: boolean; endpoint?: string } = {},
): RunError {
  const error = unwrap(wrapped);
  const status = field(error, "status");
  const message = providerMessage(error);
  // Fawn's own relay said no (its error body's type): the provider never saw the request, so the key is not at fault.
  if (field(error, "type") === PROXY_ERROR_TYPE) {
    const own = field(field(error, "error"), "message");
    return {
      error: "proxy_refused",
      message: `Fawn's proxy refused to forward the request (${String(status)}): ${typeof own === "string" ? own : message}`,
    };
  }
  if (status === 401 || status === 403) {
    return {
      error: "authentication",
      message: `The model endpoint refused the API key (${status}): ${message} Check the API key in Settings → Models.`,
    };
  }
  if (status === 404) {
    return {
      error: "not_found",
      message: `The model endpoint answered 404: ${message} Check the Base URL and the Model name in Settings → Models.`,
    };
  }
  if (status === 429) {
    return { error: "rate_limited", message: `The model endpoint is rate limiting requests (429): ${message}` };
  }
  if (typeof status === "number" && status >= 500) {
    return { error: "server_error", message: `The model endpoint had a server error (${status}): ${message}` };
  }
  if (typeof status === "number" && status >= 400) {
    return { error: "bad_request", message: `The model endpoint rejected the request (${status}): ${message}` };
  }
  if (isConnectionError(error, message)) {
    return {
      error: "unreachable",
      message:
        `Could not reach the model endpoint at ${baseUrl}. ` +
        (options.proxied
          ? "It goes through Fawn's proxy: check that the proxy is running (npm run proxy) and that the Base URL is right."
          : "Check the Base URL, that the server is running, and that it allows requests from this page (CORS); " +
            `a provider that blocks browsers works with "Use the proxy" switched on for ` +
            `${options.endpoint ? `the endpoint ${options.endpoint}` : "its endpoint"} in Settings → Models ` +
            "(and npm run proxy running)."),
    };
  }
  return { error: "unknown", message: `The run failed: ${message}` };
}
