// One HTTP request of a web provider: the proxy prefix, the time limit joined with the run's signal, and every
// failure (HTTP status, time-out, network or CORS) turned into a WebToolError a user can act on, with no key in it.
// Also what every search provider shares: its endpoint and the reading of its hits.
import type { WebProviderInfo } from "../../../protocol/index.ts";
import { readCappedText } from "../../../shared/capped-text.ts";
import { PROXY_TOKEN_ERROR_TYPE, PROXY_TOKEN_HEADER } from "../../../shared/proxy-token.ts";
import { redactSecrets } from "../../../shared/redact.ts";
import { formatBytes } from "../../../shared/text.ts";
import { WEB_SEARCH_TIMEOUT_MS, WebToolError, type WebProviderOptions, type WebSearchResult } from "./web-provider.ts";

/** Bodies larger than this are refused rather than read. */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Longest excerpt of a service's own error message that is quoted. */
const MAX_DETAIL_CHARS = 300;

export interface WebEndpoint {
  /** Who answers, for messages: "Tavily", "Jina Reader", or a page's host. */
  service: string;
  /** False when the service refuses browser requests (CORS): then the proxy is used when one is set. */
  browserCors: boolean;
  fetchImpl?: typeof fetch | undefined;
  proxyUrl?: string | undefined;
  /** Sent only with requests routed through the proxy: a page the model names never gets it, the proxy's or not. */
  proxyToken?: string | undefined;
  timeoutMs: number;
  /** Values that must never appear in a message (API keys). */
  secrets?: readonly (string | undefined)[];
  /** Sentences added to a message by HTTP status, e.g. where to fix a refused key. */
  statusHints?: Readonly<Record<number, string>>;
  /** Added when the service cannot be reached without the proxy. */
  unreachableHint?: string;
  /** Looks at a 2xx answer before its body is read; a message refuses it (e.g. a PDF where a page was wanted). */
  refuse?: (response: Response) => string | undefined;
}

export interface WebResponse {
  response: Response;
  /** The body as text (the caller parses it). */
  body: string;
}

const defaultFetch: typeof fetch = (input, init) => fetch(input, init);

/** `target` through the proxy when the endpoint needs it and one is set. */
function routedUrl(endpoint: Pick<WebEndpoint, "browserCors" | "proxyUrl">, target: string): string {
  return !endpoint.browserCors && endpoint.proxyUrl ? `${endpoint.proxyUrl}${target}` : target;
}

/** Replaces every secret in `text` by `[redacted key]` (shared/redact.ts). */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  return redactSecrets(text, secrets);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? String(Math.round(ms / 1000)) : String(ms / 1000);
}

/** A sentence: `head`, then `: detail` when there is one, ending with one period. */
function sentence(head: string, detail?: string): string {
  const text = detail ? `${head}: ${detail}` : head;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The value at `key` of an object, or undefined. */
export function property(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The message a service put in its error body (Tavily, Brave, Jina, OpenAI-style and Fawn's proxy shapes). */
function errorDetail(body: string): { detail?: string; fromProxy: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const text = body
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return { ...(text && text.length <= MAX_DETAIL_CHARS && { detail: text }), fromProxy: false };
  }
  const error = property(json, "error");
  const detail = property(json, "detail");
  const candidates = [
    property(error, "message"),
    property(error, "detail"),
    property(detail, "error"),
    detail,
    error,
    property(json, "readableMessage"),
    property(json, "message"),
  ];
  const found = candidates.find((candidate): candidate is string => typeof candidate === "string" && candidate !== "");
  const fromProxy = property(error, "type") === "proxy_error" || property(error, "type") === PROXY_TOKEN_ERROR_TYPE;
  if (found === undefined) return { fromProxy };
  const trimmed = found.replace(/\s+/g, " ").trim();
  return {
    detail: trimmed.length > MAX_DETAIL_CHARS ? `${trimmed.slice(0, MAX_DETAIL_CHARS)}…` : trimmed,
    fromProxy,
  };
}

function statusMessage(endpoint: WebEndpoint, response: Response, body: string): string {
  const { status } = response;
  const { detail, fromProxy } = errorDetail(body);
  // The proxy wants its token: its own sentence says where the token is and where it goes.
  if (
    fromProxy &&
    status === 401 &&
    detail &&
    property(property(JSON.parse(body), "error"), "type") === PROXY_TOKEN_ERROR_TYPE
  ) {
    return detail;
  }
  if (fromProxy) return sentence(`Fawn's proxy could not forward the request (HTTP ${status})`, detail);
  const service = endpoint.service;
  const hint = endpoint.statusHints?.[status];
  let message: string;
  if (status === 401 || status === 403) {
    message = sentence(`${service} refused the request (HTTP ${status})`, detail);
  } else if (status === 429) {
    const retry = response.headers.get("retry-after");
    const wait = retry && /^\d+$/.test(retry) ? ` (retry after ${retry} s)` : "";
    message = sentence(`${service} is limiting requests (HTTP 429${wait})`, detail);
  } else if (status >= 500) {
    message = sentence(`${service} had a server error (HTTP ${status})`, detail);
  } else {
    const reason = response.statusText ? ` ${response.statusText}` : "";
    message = sentence(`${service} answered HTTP ${status}${reason}`, detail);
  }
  return hint ? `${message} ${hint}` : message;
}

function unreachableMessage(endpoint: WebEndpoint, url: string, viaProxy: boolean): string {
  if (viaProxy && endpoint.proxyUrl) {
    return (
      `Could not reach Fawn's proxy at ${originOf(endpoint.proxyUrl)}: it is not running on this computer, ` +
      "or the Proxy URL in Settings → Web is wrong."
    );
  }
  const host = hostOf(url);
  const who = host === endpoint.service ? host : `${endpoint.service} (${host})`;
  if (endpoint.browserCors) {
    return `Could not reach ${who}. Check the connection and the address in Settings → Web.`;
  }
  return (
    `Could not reach ${who}: the network failed, or it refuses requests from web pages (CORS). ` +
    "It works through Fawn's proxy, a helper that runs on your computer: set its Proxy URL in Settings → Web" +
    (endpoint.unreachableHint ? `, ${endpoint.unreachableHint}` : "") +
    "."
  );
}

/**
 * Sends one request to `target` (through the proxy when the endpoint refuses browsers and one is set) and reads
 * the body, within `endpoint.timeoutMs` and until `signal` aborts. Resolves only for a 2xx answer.
 */
export async function webRequest(
  endpoint: WebEndpoint,
  target: string,
  init: RequestInit = {},
  signal?: AbortSignal,
): Promise<WebResponse> {
  const url = routedUrl(endpoint, target);
  const fail = (message: string): never => {
    throw new WebToolError(redact(message, endpoint.secrets));
  };
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const aborted = (): string | undefined => {
    if (signal?.aborted) return "The request was cancelled.";
    if (timeout.aborted) return `${endpoint.service} did not answer within ${seconds(endpoint.timeoutMs)} s.`;
    return undefined;
  };
  let headers = init.headers;
  if (url !== target && endpoint.proxyToken) {
    const withToken = new Headers(init.headers);
    withToken.set(PROXY_TOKEN_HEADER, endpoint.proxyToken);
    headers = withToken;
  }
  let response: Response;
  try {
    response = await (endpoint.fetchImpl ?? defaultFetch)(url, {
      ...init,
      ...(headers !== undefined && { headers }),
      signal: combined,
    });
  } catch (error) {
    // The server's guarded fetch refusing a private target (server/outbound.ts): its sentence says who can allow it.
    if (error instanceof Error && error.name === "OutboundRefusedError") return fail(error.message);
    return fail(aborted() ?? unreachableMessage(endpoint, target, url !== target));
  }
  const tooLarge = `${endpoint.service} sent more than the ${formatBytes(MAX_RESPONSE_BYTES)} web tools read.`;
  const declared = Number(response.headers.get("content-length") ?? "0");
  const refused = declared > MAX_RESPONSE_BYTES ? tooLarge : response.ok ? endpoint.refuse?.(response) : undefined;
  if (refused !== undefined) {
    void response.body?.cancel().catch(() => undefined);
    return fail(refused);
  }
  let body: string | undefined;
  try {
    body = await readCappedText(response, MAX_RESPONSE_BYTES);
  } catch {
    return fail(aborted() ?? `The connection to ${endpoint.service} broke while reading its answer.`);
  }
  if (body === undefined) return fail(tooLarge);
  if (!response.ok) return fail(statusMessage(endpoint, response, body));
  return { response, body };
}

/** `webRequest`, then the body parsed as JSON. */
export async function webRequestJson(
  endpoint: WebEndpoint,
  target: string,
  init: RequestInit = {},
  signal?: AbortSignal,
): Promise<unknown> {
  const { body } = await webRequest(endpoint, target, init, signal);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new WebToolError(
      `${endpoint.service} answered with something other than JSON. Check its address in Settings → Web.`,
    );
  }
}

/** `value` when it is a string, else "". */
export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Where to fix a search key the service refused. */
export const SEARCH_KEY_HINT = "Check the search API key in Settings → Web.";

/** The endpoint of the service `info`, built from the user's `options`; its key never shows in a message. */
export function serviceEndpoint(
  info: WebProviderInfo,
  options: WebProviderOptions,
  defaultTimeoutMs: number,
  more: Pick<WebEndpoint, "statusHints" | "unreachableHint"> = {},
): WebEndpoint {
  return {
    service: info.label,
    browserCors: info.browserCors,
    fetchImpl: options.fetchImpl,
    proxyUrl: options.proxyUrl,
    proxyToken: options.proxyToken,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    secrets: [options.apiKey],
    ...more,
  };
}

/**
 * The endpoint of the search service `info`. Services that take a key get `SEARCH_KEY_HINT` on HTTP 401 and 403;
 * `more` adds or overrides hints.
 */
export function searchEndpoint(
  info: WebProviderInfo,
  options: WebProviderOptions,
  more: Pick<WebEndpoint, "statusHints" | "unreachableHint"> = {},
): WebEndpoint {
  const keyHints: Record<number, string> = info.apiKey === "none" ? {} : { 401: SEARCH_KEY_HINT, 403: SEARCH_KEY_HINT };
  return serviceEndpoint(info, options, WEB_SEARCH_TIMEOUT_MS, {
    ...more,
    statusHints: { ...keyHints, ...more.statusHints },
  });
}

/** How a service names the parts of a hit; `title` and `url` are the same everywhere. */
export interface SearchResultFields {
  /** Fields that may hold the snippet, in order: the first non-empty one is used. Default `["content"]`. */
  content?: readonly string[];
  /** Applied to the title and the snippet, e.g. to strip a service's HTML highlights. */
  clean?: (text: string) => string;
}

/** The first `maxResults` of a service's hits that have a url, or none when `items` is not an array. */
export function searchResults(
  items: unknown,
  maxResults: number,
  { content = ["content"], clean = (value) => value }: SearchResultFields = {},
): WebSearchResult[] {
  if (!Array.isArray(items)) return [];
  return items
    .map((item: unknown) => ({
      title: clean(text(property(item, "title"))),
      url: text(property(item, "url")),
      content: clean(content.map((key) => text(property(item, key))).find((value) => value !== "") ?? ""),
    }))
    .filter((result) => result.url !== "")
    .slice(0, maxResults);
}
