// Checking a server before it is stored (Settings → Servers, `servers.check`/`connect`): does anything answer at the
// URL, is it a Fawn server, a LangGraph server or a DeerFlow deployment, does it take the access token, and which of
// the routes the workspace uses does it offer — said in one sentence the UI shows as it is. Every answer is untrusted:
// only a few fields are read, each checked, and nothing a server sends is quoted but a short version number. A check
// that names a kind but is not authorized failed on the token (refused, missing, or not let through with one): the
// UI shows it under "Access token", any other failure under "Server URL".
import type { ServerCheck, ServerConnectInput, ServerFeatures, ServerKind } from "../../protocol/index.ts";
import { readCappedText } from "../../shared/capped-text.ts";
import { deerflowSession } from "./deerflow-session.ts";
import { normalizeServerUrl, serverBases, serverFetch } from "./server-urls.ts";

export interface ProbeOptions {
  /** How long each request may take before the server counts as not answering. */
  timeoutMs?: number;
  /** The page's scheme (`location.protocol` by default): an https page cannot call an http server but on this machine. */
  pageProtocol?: string;
}

/** What the probe found, with the parts connect's sentence is made of. */
export interface ProbeResult extends ServerCheck {
  /** The URL the server answered at (the entered one, or it without a trailing `/api` or `/api/langgraph`). */
  url?: string;
  /** How sentences name the server: its host (and path), never its token. */
  label: string;
  /** "Fawn server 0.1.0", "LangGraph server 1.0.2", "DeerFlow". */
  kindLabel?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Hosts an https page may still call over http (the browser counts them as secure). */
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;
/** The largest answer read (an info, an empty search, a memory, skill or model list: small answers). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A version as a server may state one; anything else is left out of the sentence. */
const VERSION = /^v?\d+(\.[0-9A-Za-z-]+){0,3}$/;
const NO_FEATURES: ServerFeatures = {
  fawn: false,
  uploads: false,
  artifacts: false,
  memory: false,
  skills: false,
  models: false,
};

/** An answer as the probe reads it: its status and JSON body, or why there was none. */
type Answer = { status: number; json: unknown } | { failed: "network" | "timeout" };

/** Checks the server at `input.url` with `input.token`; never throws, never stores. */
export async function probeServer(
  input: ServerConnectInput,
  fetcher: typeof fetch = fetch,
  options: ProbeOptions = {},
): Promise<ProbeResult> {
  const url = normalizeServerUrl(input.url);
  if (!url) {
    return {
      reachable: false,
      authorized: false,
      label: input.url.trim(),
      sentence: "That is not a server address: enter its URL, starting with https:// or http://.",
    };
  }
  const pageProtocol = options.pageProtocol ?? (globalThis as { location?: { protocol?: string } }).location?.protocol;
  if (pageProtocol === "https:" && url.startsWith("http:") && !LOOPBACK.test(new URL(url).hostname)) {
    const label = labelOf(url);
    return {
      reachable: false,
      authorized: false,
      label,
      sentence: `This page is served over https, so the browser does not let it call ${label} over http: give the server an https:// address.`,
    };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const get = (target: string) => answerOf((signal) => fetcher(target, { signal }), timeoutMs);

  let identified: Identified | undefined;
  let anyAnswer = false;
  for (const candidate of candidates(url)) {
    const found = await identify(candidate, get);
    anyAnswer ||= found.answered;
    if (found.identified) {
      identified = found.identified;
      break;
    }
  }
  const label = labelOf(identified?.url ?? url);
  if (!identified) {
    return anyAnswer
      ? { reachable: true, authorized: false, label, sentence: `${label} answered, but not as a LangGraph server.` }
      : {
          reachable: false,
          authorized: false,
          label,
          sentence: `Nothing answers at ${label}, or it does not take calls from this page.`,
        };
  }

  const { kind, kindLabel } = identified;
  const found = { reachable: true, kind, label, kindLabel, url: identified.url };
  const using = byKind(kind, fetcher);
  const bases = serverBases(identified.url, kind);
  const token = input.token?.trim() || undefined;
  const langgraph = serverFetch(bases.langgraph, token, using);
  const threads = await answerOf(
    (signal) =>
      langgraph("/threads/search", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ limit: 1 }),
        signal,
      }),
    timeoutMs,
  );
  if ("failed" in threads) {
    // It answered without a token; a request with one (a CORS preflight) did not get through.
    return {
      ...found,
      authorized: false,
      sentence: `${label} answers, but not to calls with an access token from this page (its allowed origins).`,
    };
  }
  if (threads.status === 401 || threads.status === 403) {
    return {
      ...found,
      authorized: false,
      sentence: token ? `${label} refused the access token.` : `${label} needs an access token.`,
    };
  }
  // Past the token question the kind is left out: a failure here is the server's, not the token's.
  if (threads.status >= 500) {
    return {
      reachable: true,
      authorized: false,
      label,
      sentence: `${label} failed to answer (HTTP ${threads.status}).`,
    };
  }
  if (threads.status !== 200 || !Array.isArray(threads.json)) {
    return { reachable: true, authorized: false, label, sentence: `${label} answered, but not as a LangGraph server.` };
  }

  const features = await featuresOf(kind, bases.rest, token, using, timeoutMs);
  return {
    ...found,
    authorized: true,
    features,
    sentence: `Found ${kindLabel} at ${label}: ${offered(features)}`,
  };
}

/**
 * The fetch for the kind found, before the token is tried: DeerFlow's session cookie and CSRF header for a DeerFlow
 * deployment (deerflow-session.ts), as its workspace sends them.
 */
function byKind(kind: ServerKind, fetcher: typeof fetch): typeof fetch {
  return kind === "deerflow" ? deerflowSession()(fetcher) : fetcher;
}

/** The sentence `connect` answers with: "Connected to fawn.example (Fawn server 0.1.0): threads, runs, …". */
export function connectedSentence(result: ProbeResult): string {
  return `Connected to ${result.label} (${result.kindLabel ?? "LangGraph server"}): ${offered(result.features ?? NO_FEATURES)}`;
}

/** "threads, runs, uploads, artifacts, memory and skills." — and what is missing, when something is. */
function offered(features: ServerFeatures): string {
  const parts = { uploads: "uploads", artifacts: "artifacts", memory: "memory", skills: "skills" } as const;
  const names = Object.keys(parts) as (keyof typeof parts)[];
  const has = ["threads", "runs", ...names.filter((name) => features[name]).map((name) => parts[name])];
  const lacks = names.filter((name) => !features[name]).map((name) => parts[name]);
  const list = (words: string[]) =>
    words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)!}` : (words[0] ?? "");
  return lacks.length === 0
    ? `${list(has)}.`
    : `${list(has)}; ${list(lacks)} ${lacks.length > 1 ? "are" : "is"} not available there.`;
}

interface Identified {
  url: string;
  kind: ServerKind;
  kindLabel: string;
}

/**
 * The URL as entered, and before it the same without a trailing `/api` or `/api/langgraph`: the start banner and
 * DeerFlow's frontend name those as the SDK's base, and users paste them.
 */
function candidates(url: string): string[] {
  const base = url.replace(/\/api(\/langgraph)?$/, "");
  return base !== url && /^https?:\/\/[^/]+/.test(base) ? [base, url] : [url];
}

/** What answers at `url`: Fawn (`/api/info` names it), DeerFlow (its gateway's `/health`), or LangGraph (`/info`). */
async function identify(
  url: string,
  get: (target: string) => Promise<Answer>,
): Promise<{ answered: boolean; identified?: Identified }> {
  const [apiInfo, info, health, langgraphInfo] = await Promise.all([
    get(`${url}/api/info`),
    get(`${url}/info`),
    get(`${url}/health`),
    get(`${url}/api/langgraph/info`),
  ]);
  const answered = [apiInfo, info, health, langgraphInfo].some((each) => !("failed" in each));
  const fawn = fieldsOf(apiInfo);
  if (fawn?.name === "fawn")
    return { answered, identified: { url, kind: "fawn", kindLabel: withVersion("Fawn server", fawn) } };
  const deerflow = fieldsOf(health);
  if (deerflow?.service === "deer-flow-gateway" || isLangGraphInfo(fieldsOf(langgraphInfo))) {
    return { answered, identified: { url, kind: "deerflow", kindLabel: "DeerFlow" } };
  }
  const langgraph = fieldsOf(info);
  if (isLangGraphInfo(langgraph)) {
    return { answered, identified: { url, kind: "langgraph", kindLabel: withVersion("LangGraph server", langgraph!) } };
  }
  return { answered };
}

/** LangGraph's `/info`: an object with `flags` (langgraph-api, LangGraph Platform) or LangGraph.js's version. */
function isLangGraphInfo(fields: Record<string, unknown> | undefined): boolean {
  if (!fields) return false;
  const flags = fields.flags;
  return (typeof flags === "object" && flags !== null && !Array.isArray(flags)) || "langgraph_js_version" in fields;
}

function withVersion(name: string, fields: Record<string, unknown>): string {
  const version = fields.version;
  return typeof version === "string" && VERSION.test(version) ? `${name} ${version.replace(/^v/, "")}` : name;
}

/** The features a kind can have, each route the workspace uses tried once (a DeerFlow thread's routes cannot be). */
async function featuresOf(
  kind: ServerKind,
  rest: string | undefined,
  token: string | undefined,
  fetcher: typeof fetch,
  timeoutMs: number,
): Promise<ServerFeatures> {
  if (!rest) return NO_FEATURES;
  const request = serverFetch(rest, token, fetcher);
  const works = async (path: string, isShape: (json: unknown) => boolean, init: RequestInit = {}) => {
    const got = await answerOf((signal) => request(path, { ...init, signal }), timeoutMs);
    return !("failed" in got) && got.status === 200 && isShape(got.json);
  };
  const isObject = (json: unknown) => typeof json === "object" && json !== null && !Array.isArray(json);
  const [fawn, memory, skills, models] = await Promise.all([
    // One empty search, not the whole thread list: it answers a few bytes however many threads the user holds.
    kind === "fawn"
      ? works("/fawn/threads/search", (json) => isObject(json) && Array.isArray((json as { hits?: unknown }).hits), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "", limit: 1 }),
        })
      : Promise.resolve(false),
    works("/memory", isObject),
    works("/skills", (json) => isObject(json) && Array.isArray((json as { skills?: unknown }).skills)),
    works("/models", (json) => isObject(json) && Array.isArray((json as { models?: unknown }).models)),
  ]);
  // Uploads and artifacts are routes of a thread: DeerFlow's and Fawn's REST routes have both.
  return { fawn, uploads: true, artifacts: true, memory, skills, models };
}

/** Sends the request with a deadline for it and its body; reads the body as JSON (undefined when it is not JSON). */
async function answerOf(send: (signal: AbortSignal) => Promise<Response>, timeoutMs: number): Promise<Answer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await send(signal);
    // Past MAX_BODY_BYTES the body is left unread and counts as not JSON (a server may send anything).
    const text = (await readCappedText(response, MAX_BODY_BYTES)) ?? "";
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  } catch {
    return { failed: signal.aborted ? "timeout" : "network" };
  }
}

function fieldsOf(got: Answer): Record<string, unknown> | undefined {
  if ("failed" in got || got.status !== 200) return undefined;
  const json = got.json;
  return typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

/** The server as sentences name it: host and path, no scheme. */
function labelOf(url: string): string {
  return url.replace(/^https?:\/\//, "");
}
