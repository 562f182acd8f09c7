// Turns provider and network failures into one clear sentence and a code the UI can act on.
import type { RunError } from "../protocol/index.ts";
import { PROXY_TOKEN_ERROR_TYPE, PROXY_TOKEN_SENTENCE } from "../shared/proxy-token.ts";

function field(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** The `type` of the error body Fawn's proxy answers with (proxy/server.ts) when it will not forward a request. */
const PROXY_ERROR_TYPE = "proxy_error";

/** What the provider said in its error body, whichever of the three shapes it has. */
interface ProviderSays {
  /** OpenAI's `error.type`, Anthropic's `error.error.type` (`overloaded_error`), Fawn's proxy's `proxy_error`. */
  type?: string;
  /** Gemini's `error.status` (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`) or an `ErrorInfo` reason (`API_KEY_INVALID`). */
  status?: string;
  message?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The provider's error body as each SDK keeps it: OpenAI's and Anthropic's `error` (Anthropic's nests another
 * `error`), Gemini's message `Error fetching from <url>: [429 Too Many Requests] <message> [<details>]` with
 * `errorDetails`, or the whole body on a model-list request.
 */
function providerSays(error: unknown): ProviderSays {
  const body = field(error, "error");
  const nested = field(body, "error");
  const said = typeof field(nested, "message") === "string" ? nested : body;
  const details = field(error, "errorDetails") ?? field(said, "details");
  const reason = Array.isArray(details)
    ? details.map((detail) => text(field(detail, "reason"))).find((found) => found !== undefined)
    : undefined;
  const gemini = /Error fetching from \S+: \[\d{3}[^\]]*\]\s*([\s\S]*?)(\s\[\{[\s\S]*\])?$/.exec(
    text(field(error, "message")) ?? "",
  );
  const type = text(field(said, "type")) ?? text(field(error, "type"));
  const status = reason ?? text(field(said, "status"));
  const message = text(field(said, "message")) ?? text(gemini?.[1]);
  return { ...(type && { type }), ...(status && { status }), ...(message && { message }) };
}

/** The provider's own message without LangChain's appended troubleshooting link, nor a key in a URL's query. */
function providerMessage(error: unknown): string {
  const said = providerSays(error).message;
  const message = said ?? field(error, "message");
  if (typeof message !== "string") return String(error);
  return message
    .split("\n\nTroubleshooting URL:")[0]!
    .replace(/([?&]key=)[^&\s]+/g, "$1[redacted key]")
    .trim();
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

/** The server's guarded fetch refusing a private address (server/outbound.ts), the SDKs wrap it as a cause. */
function outboundRefusal(error: unknown): Error | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if (current instanceof Error && current.name === "OutboundRefusedError") return current;
    current = field(current, "cause");
  }
  return undefined;
}

/** How a reply broke after the endpoint accepted the request: no status, and the SDKs' own words (or our stall error). */
type BrokenReply = "stalled" | "dropped" | "malformed" | "empty";

/** The errors `error` wraps (an SDK's connection error keeps the fetch's as `cause`), itself first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; chain.length < 5 && typeof current === "object" && current !== null;) {
    chain.push(current);
    current = field(current, "cause");
  }
  return chain;
}

/**
 * A reply that broke mid-way: the stall limit (stall-guard.ts), a connection dropped while the body streamed (undici's
 * "terminated", Chromium's "network error", Firefox's "Error in input stream", Safari's "network connection was lost"),
 * a stream with malformed JSON (OpenAI's, Anthropic's and Gemini's SDKs' words), or no reply at all (langchain's).
 */
function brokenReply(error: unknown): BrokenReply | undefined {
  if (field(error, "status") !== undefined) return undefined;
  const chain = causes(error);
  if (chain.some((cause) => field(cause, "name") === "ModelStallError")) return "stalled";
  if (chain.some((cause) => field(cause, "name") === "ModelReplyCutError")) return "dropped";
  const messages = chain.map((cause) => String(field(cause, "message") ?? ""));
  const said = (pattern: RegExp) => messages.some((message) => pattern.test(message));
  if (said(/^terminated$|^network error$|error in (the )?input stream|network connection was lost|other side closed/i))
    return "dropped";
  if (said(/malformed server-sent event|could not parse message into json|failed to parse stream/i)) return "malformed";
  if (said(/^received empty response from chat model call/i)) return "empty";
  return undefined;
}

function brokenReplySentence(broken: BrokenReply, error: unknown): string {
  switch (broken) {
    case "stalled": {
      const stallMs = causes(error)
        .map((cause) => field(cause, "stallMs"))
        .find((ms) => typeof ms === "number");
      return `The model endpoint sent nothing for ${Number((Number(stallMs ?? 0) / 1000).toFixed(1))} s, so Fawn stopped waiting for its reply; try again in a moment.`;
    }
    case "dropped":
      return "The connection to the model endpoint dropped in the middle of its reply; try again in a moment.";
    case "malformed":
      return "The model endpoint sent a reply Fawn could not read (malformed JSON in its stream); try again, and if it keeps happening check the endpoint or the proxy in front of it.";
    case "empty":
      return "The model endpoint sent an empty reply, with no text and no tool call; try again, and if it keeps happening check the model in Settings → Models.";
  }
}

/**
 * True for failures worth another try: a rate limit (429), a server error (5xx, 408; Anthropic's 529 overloaded), a
 * timeout, a dropped connection, or a reply that broke mid-way (brokenReply). A refused key, a wrong model name or a bad request would fail again.
 */
export function isRetryableModelError(wrapped: unknown): boolean {
  const error = unwrap(wrapped);
  if (field(error, "name") === "AbortError" || outboundRefusal(error)) return false;
  if (brokenReply(error)) return true;
  const status = field(error, "status");
  if (typeof status === "number") return status === 408 || status === 429 || status >= 500;
  if (providerSays(error).type === "overloaded_error") return true;
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
  const refused = outboundRefusal(error);
  if (refused)
    return { error: "unreachable", message: `The model endpoint ${baseUrl} cannot be used: ${refused.message}` };
  const broken = brokenReply(error);
  if (broken) return { error: "server_error", message: brokenReplySentence(broken, error) };
  const said = providerSays(error);
  const status = field(error, "status");
  const message = providerMessage(error);
  // The relay wants its token (missing or wrong): its sentence says where the token is and where it goes.
  // (Gemini's SDK keeps only the message of an error body, so the proxy's sentence is recognised by its words too.)
  if (said.type === PROXY_TOKEN_ERROR_TYPE || said.message?.startsWith(PROXY_TOKEN_SENTENCE)) {
    return {
      error: "proxy_refused",
      message: said.message ?? "Fawn's proxy needs its token: paste it into Settings → Web → Proxy token.",
    };
  }
  // Fawn's own relay said no (its error body's type): the provider never saw the request, so the key is not at fault.
  if (said.type === PROXY_ERROR_TYPE) {
    return {
      error: "proxy_refused",
      message: `Fawn's proxy refused to forward the request (${String(status)}): ${message}`,
    };
  }
  // Gemini answers a bad key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID.
  const badKey = said.type === "authentication_error" || said.status === "API_KEY_INVALID";
  if (status === 401 || status === 403 || (status === 400 && badKey)) {
    return {
      error: "authentication",
      message: `The model endpoint refused the API key (${String(status)}): ${message} Check the API key in Settings → Models.`,
    };
  }
  // Anthropic's 529 (and an overloaded_error sent inside a stream, which has no status).
  if (status === 529 || said.type === "overloaded_error") {
    return {
      error: "server_error",
      message: `The model provider is overloaded (${String(status ?? 529)}): ${message} Try again in a moment.`,
    };
  }
  if (status === 503 || said.status === "UNAVAILABLE") {
    return {
      error: "server_error",
      message: `The model provider is unavailable right now (${String(status ?? 503)}): ${message} Try again in a moment.`,
    };
  }
  if (status === 404) {
    return {
      error: "not_found",
      message: `The model endpoint answered 404: ${message} Check the Base URL and the Model name in Settings → Models.`,
    };
  }
  if (status === 429 || said.type === "rate_limit_error" || said.status === "RESOURCE_EXHAUSTED") {
    return {
      error: "rate_limited",
      message: `The model endpoint is rate limiting requests (429): ${message} Wait a little, or check the plan and quota of this API key.`,
    };
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
          ? "It goes through Fawn's proxy: check that the proxy is running on this computer (Settings → Web, " +
            "Proxy URL) and that the Base URL is right."
          : "Check the Base URL, that the server is running, and that it allows requests from this page (CORS); " +
            `a provider that blocks browsers works with "Use the proxy" switched on for ` +
            `${options.endpoint ? `the endpoint ${options.endpoint}` : "its endpoint"} in Settings → Models ` +
            "(with Fawn's proxy running on this computer)."),
    };
  }
  return { error: "unknown", message: `The run failed: ${message}` };
}
