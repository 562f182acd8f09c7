// HTTP server of the mock LLM: OpenAI-compatible, Anthropic Messages and Gemini routes over one scenario table, CORS,
// fake auth, request log and SSE streaming.

import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import {
  chunkBody,
  completionBody,
  errorBody,
  framesFor,
  invalidRequest,
  parseChatRequest,
  usageChunkBody,
  usageFor,
  type ReplyMeta,
  type ReplyScript,
} from "./openai.ts";
import {
  anthropicErrorBody,
  anthropicEvents,
  anthropicMessage,
  anthropicModels,
  parseAnthropicRequest,
} from "./anthropic.ts";
import { parseResponsesRequest, responsesBody, responsesEvents } from "./responses.ts";
import { answerWithFault, faultOf, faultRecovered, strikes, type FaultMemory } from "./faults.ts";
import { geminiBadKey, geminiError, geminiFrames, geminiModels, geminiResponse, parseGeminiRequest } from "./gemini.ts";
import {
  MODEL_IDS,
  pickScenario,
  reasoningFor,
  THINKING_MODEL,
  type ChatRequest,
  type OpenAiError,
} from "./scenarios.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  /** Request headers; credentials (authorization, api-key, ...) are masked. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it was not valid JSON. */
  body: unknown;
  /** Scenario that answered, or null when the request failed before one was picked. */
  scenario: string | null;
  /** True when the client hung up before the stream finished (e.g. a Stop button). */
  disconnected: boolean;
  /** HTTP status of the answer (200 once a stream starts, 429 for a rate limit, …); null until answered. */
  status: number | null;
  receivedAt: number;
}

export interface MockLlm {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:11435/v1. */
  url: string;
  port: number;
  /** Chat completion requests in arrival order; cleared in place by reset(). */
  requests: RecordedRequest[];
  /** Streams still being written; drops to 0 once every client got its reply or hung up. */
  activeStreams(): number;
  /** Forgets recorded requests and "fail once" state (rate limits). */
  reset(): void;
  close(): Promise<void>;
}

export interface MockLlmOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

interface State {
  requests: RecordedRequest[];
  seen: Set<string>;
  streams: Set<AbortController>;
  completions: number;
  toolCalls: number;
  /** Faulty answers given per fault and message text (faults.ts). */
  faults: FaultMemory;
}

interface Reply {
  meta: ReplyMeta;
  script: ReplyScript;
  reasoning: string[];
  callIds: string[];
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;
const MODELS_CREATED = 1_700_000_000;
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "api-key", "x-api-key"]);

/** Shows a few characters so a key can be recognized, never enough to be reused. */
export function maskKey(key: string): string {
  return key.length < 12 ? "***" : `${key.slice(0, 3)}***${key.slice(-4)}`;
}

function maskCredential(value: string): string {
  const match = /^(Bearer|Basic)\s+(.*)$/i.exec(value);
  return match ? `${match[1]} ${maskKey(match[2] ?? "")}` : maskKey(value);
}

function recordedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(", ") : value;
    result[name] = SECRET_HEADERS.has(name) ? maskCredential(joined) : joined;
  }
  return result;
}

function setCorsHeaders(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  // The `*` wildcard does not cover Authorization, so it is listed explicitly when nothing is reflected.
  res.setHeader("Access-Control-Allow-Headers", req.headers["access-control-request-headers"] ?? "*, Authorization");
  res.setHeader("Access-Control-Expose-Headers", "Retry-After, X-Mock-Scenario");
}

function sendPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    "Access-Control-Allow-Private-Network": "true",
    "Access-Control-Max-Age": "600",
    Vary: "Access-Control-Request-Headers",
  });
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, error: OpenAiError, headers?: Record<string, string>): void {
  sendJson(res, status, errorBody(error), headers);
}

function authError(req: IncomingMessage): OpenAiError | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const key = /^Bearer\s+(.*)$/i.exec(header)?.[1]?.trim() ?? header;
  if (!/bad|wrong/i.test(key)) return null;
  return invalidRequest(`Incorrect API key provided: ${maskKey(key)}. (mock)`, null, "invalid_api_key");
}

/** Resolves to null when the body is larger than MAX_BODY_BYTES (the rest is drained, not kept). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString("utf8") : null;
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Notes the answer's status in the log once it is sent (a stream's when it starts: openEventStream). */
function recordStatus(record: RecordedRequest, res: ServerResponse): void {
  res.once("close", () => {
    if (res.headersSent) record.status ??= res.statusCode;
  });
}

function firstTime(state: State, key: string): boolean {
  if (state.seen.has(key)) return false;
  state.seen.add(key);
  return true;
}

function resetState(state: State): void {
  state.requests.length = 0;
  state.seen.clear();
  state.faults.clear();
}

function sendModels(req: IncomingMessage, res: ServerResponse): void {
  const auth = authError(req);
  if (auth) return sendError(res, 401, auth);
  const data = MODEL_IDS.map((id) => ({ id, object: "model", created: MODELS_CREATED, owned_by: "fawn-mock" }));
  sendJson(res, 200, { object: "list", data });
}

function newReply(state: State, request: ChatRequest, script: ReplyScript): Reply {
  const calls = script.kind === "tool_calls" ? script.calls : [];
  return {
    meta: { id: `chatcmpl-mock-${++state.completions}`, created: Math.floor(Date.now() / 1000), model: request.model },
    script,
    reasoning: reasoningFor(request),
    callIds: calls.map(() => `call_${++state.toolCalls}`),
  };
}

function writeEvent(res: ServerResponse, body: unknown): void {
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

/**
 * Starts a server-sent event stream; the controller aborts when the client hangs up (a Stop button), so the timers
 * of a long reply do not keep running.
 */
function openEventStream(state: State, res: ServerResponse, record: RecordedRequest): AbortController {
  const controller = new AbortController();
  state.streams.add(controller);
  res.on("close", () => {
    if (!res.writableFinished) record.disconnected = true;
    controller.abort();
  });
  record.status = 200;
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  res.flushHeaders();
  return controller;
}

async function streamReply(
  state: State,
  res: ServerResponse,
  record: RecordedRequest,
  request: ChatRequest,
  reply: Reply,
): Promise<void> {
  const controller = openEventStream(state, res, record);
  try {
    for (const frame of framesFor(reply.script, reply.reasoning, reply.callIds)) {
      if (frame.delayMs > 0) await sleep(frame.delayMs, undefined, { signal: controller.signal });
      writeEvent(res, chunkBody(reply.meta, frame, request.includeUsage));
    }
    if (request.includeUsage)
      writeEvent(res, usageChunkBody(reply.meta, usageFor(request, reply.script, reply.reasoning)));
    res.end("data: [DONE]\n\n");
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    state.streams.delete(controller);
  }
}

async function handleChat(state: State, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const raw = await readBody(req);
  const json = raw === null ? null : parseJson(raw);
  const record: RecordedRequest = {
    method: "POST",
    path,
    headers: recordedHeaders(req.headers),
    body: json?.ok ? json.value : raw,
    scenario: null,
    disconnected: false,
    status: null,
    receivedAt: Date.now(),
  };
  state.requests.push(record);
  recordStatus(record, res);
  const auth = authError(req);
  if (auth) return sendError(res, 401, auth);
  if (json === null) return sendError(res, 413, invalidRequest("The request body is too large. (mock)"));
  if (!json.ok)
    return sendError(res, 400, invalidRequest(`The request body is not valid JSON: ${json.message} (mock)`));
  const parsed = parseChatRequest(json.value);
  if (!parsed.ok) return sendError(res, 400, parsed.error);
  const request = parsed.request;
  const fault = faultOf(request);
  if (fault && strikes(state.faults, fault, request.messages.at(-1)?.text ?? "")) {
    record.scenario = `fault:${fault.name}`;
    const { meta } = newReply(state, request, { kind: "text", chunks: [], delayMs: 0 });
    return answerWithFault(res, fault, meta, state.streams, record);
  }
  const scenario = fault ? faultRecovered : pickScenario(request);
  record.scenario = scenario.name;
  res.setHeader("X-Mock-Scenario", scenario.name);
  const script = scenario.respond(request, { firstTime: (key) => firstTime(state, key) });
  if (script.kind === "error") return sendError(res, script.status, script.error, script.headers);
  const answer = newReply(state, request, script);
  // mock-thinking reasons only when asked to, as real reasoning models on OpenAI-compatible endpoints do.
  const reply = { ...answer, reasoning: parsed.thinking ? answer.reasoning : [] };
  if (request.stream) return streamReply(state, res, record, request, reply);
  const usage = usageFor(request, script, reply.reasoning);
  sendJson(res, 200, completionBody(reply.meta, script, reply.reasoning, reply.callIds, usage));
}

// Anthropic's Messages API (`POST /v1/messages`, key in `x-api-key`) and Gemini's (`POST
// /v1beta/models/{model}:streamGenerateContent?alt=sse`, key in `x-goog-api-key` or `?key=`), answered from the same
// scenarios as the OpenAI route.

/** Reads and records a model request; null when the body is too large, else its JSON (or why it is not JSON). */
async function recordModelRequest(
  state: State,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<{ record: RecordedRequest; json: ReturnType<typeof parseJson> | null }> {
  const raw = await readBody(req);
  const json = raw === null ? null : parseJson(raw);
  const record: RecordedRequest = {
    method: "POST",
    path,
    headers: recordedHeaders(req.headers),
    body: json?.ok ? json.value : raw,
    scenario: null,
    disconnected: false,
    status: null,
    receivedAt: Date.now(),
  };
  state.requests.push(record);
  recordStatus(record, res);
  return { record, json };
}

function headerKey(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

function isBadKey(key: string): boolean {
  return /bad|wrong/i.test(key);
}

function anthropicAuthError(req: IncomingMessage): Record<string, unknown> | null {
  const key = headerKey(req, "x-api-key");
  if (!isBadKey(key)) return null;
  return anthropicErrorBody(401, { message: `invalid x-api-key ${maskKey(key)} (mock)` });
}

/** Streams a reply as SSE frames (`event:` named when given), stopping when the client hangs up. */
async function streamFrames(
  state: State,
  res: ServerResponse,
  record: RecordedRequest,
  frames: { event?: string; data: unknown; delayMs: number }[],
): Promise<void> {
  const controller = openEventStream(state, res, record);
  try {
    for (const frame of frames) {
      if (frame.delayMs > 0) await sleep(frame.delayMs, undefined, { signal: controller.signal });
      res.write(`${frame.event ? `event: ${frame.event}\n` : ""}data: ${JSON.stringify(frame.data)}\n\n`);
    }
    res.end();
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    state.streams.delete(controller);
  }
}

async function handleAnthropic(state: State, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { record, json } = await recordModelRequest(state, req, res, path);
  const auth = anthropicAuthError(req);
  if (auth) return sendJson(res, 401, auth);
  if (json === null) return sendJson(res, 413, anthropicErrorBody(413, { message: "Request too large (mock)" }));
  if (!json.ok) return sendJson(res, 400, anthropicErrorBody(400, { message: `Invalid JSON: ${json.message} (mock)` }));
  const parsed = parseAnthropicRequest(json.value);
  if (!parsed.ok) return sendJson(res, 400, anthropicErrorBody(400, { message: `${parsed.message} (mock)` }));
  const { request, thinking } = parsed.value;
  const scenario = pickScenario(request);
  record.scenario = scenario.name;
  res.setHeader("X-Mock-Scenario", scenario.name);
  const script = scenario.respond(request, { firstTime: (key) => firstTime(state, key) });
  if (script.kind === "error") {
    return sendJson(res, script.status, anthropicErrorBody(script.status, script.error), script.headers);
  }
  const reply = newReply(state, request, script);
  const reasoning = thinking ? reply.reasoning : [];
  const callIds = reply.callIds.map((id) => id.replace(/^call_/, "toolu_mock_"));
  const meta = { ...reply.meta, id: reply.meta.id.replace(/^chatcmpl-mock-/, "msg_mock_") };
  const usage = usageFor(request, script, reasoning);
  if (!request.stream) {
    return sendJson(
      res,
      200,
      anthropicMessage(meta, script, reasoning, callIds, usage.prompt_tokens, usage.completion_tokens),
    );
  }
  const events = anthropicEvents(meta, script, reasoning, callIds, usage.prompt_tokens, usage.completion_tokens);
  return streamFrames(state, res, record, events);
}

/** OpenAI's Responses API (`POST /v1/responses`): the chat route's key and errors, the Responses shapes (responses.ts). */
async function handleResponses(state: State, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { record, json } = await recordModelRequest(state, req, res, path);
  const auth = authError(req);
  if (auth) return sendError(res, 401, auth);
  if (json === null) return sendError(res, 413, invalidRequest("The request body is too large. (mock)"));
  if (!json.ok)
    return sendError(res, 400, invalidRequest(`The request body is not valid JSON: ${json.message} (mock)`));
  const parsed = parseResponsesRequest(json.value);
  if (!parsed.ok) return sendError(res, 400, invalidRequest(`${parsed.message} (mock)`, "input"));
  const { request, summary } = parsed.value;
  const scenario = pickScenario(request);
  record.scenario = scenario.name;
  res.setHeader("X-Mock-Scenario", scenario.name);
  const script = scenario.respond(request, { firstTime: (key) => firstTime(state, key) });
  if (script.kind === "error") return sendError(res, script.status, script.error, script.headers);
  const reply = newReply(state, request, script);
  const meta = { ...reply.meta, id: reply.meta.id.replace(/^chatcmpl-mock-/, "resp_mock_") };
  const reasoning = summary ? reply.reasoning : [];
  const usage = usageFor(request, script, reasoning);
  const answer = [meta, script, reasoning, reply.callIds, usage.prompt_tokens, usage.completion_tokens] as const;
  if (!request.stream) return sendJson(res, 200, responsesBody(...answer));
  return streamFrames(state, res, record, responsesEvents(...answer));
}

const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

async function handleGemini(
  state: State,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: RegExpExecArray,
): Promise<void> {
  const { record, json } = await recordModelRequest(state, req, res, url.pathname);
  const key = headerKey(req, "x-goog-api-key") || (url.searchParams.get("key") ?? "");
  const fail = (answer: { status: number; body: unknown }) => sendJson(res, answer.status, answer.body);
  if (isBadKey(key)) return fail(geminiBadKey());
  if (json === null) return fail(geminiError(413, { message: "Request payload size exceeds the limit (mock)." }));
  if (!json.ok) return fail(geminiError(400, { message: `Invalid JSON payload received. ${json.message} (mock)` }));
  const model = decodeURIComponent(match[1] ?? "");
  const stream = match[2] === "streamGenerateContent";
  const parsed = parseGeminiRequest(model, stream, json.value);
  if (!parsed.ok) return fail(geminiError(400, { message: `${parsed.message} (mock)` }));
  const { request, thinking } = parsed.value;
  const scenario = pickScenario(request);
  record.scenario = scenario.name;
  res.setHeader("X-Mock-Scenario", scenario.name);
  const script = scenario.respond(request, { firstTime: (seen) => firstTime(state, seen) });
  if (script.kind === "error") {
    const answer = geminiError(script.status, script.error);
    return sendJson(res, answer.status, answer.body, script.headers);
  }
  const reasoning = thinking ? reasoningFor(request) : [];
  const usage = usageFor(request, script, []);
  if (!stream) {
    return sendJson(res, 200, geminiResponse(model, script, reasoning, usage.prompt_tokens, usage.completion_tokens));
  }
  const frames = geminiFrames(model, script, reasoning, usage.prompt_tokens, usage.completion_tokens);
  return streamFrames(
    state,
    res,
    record,
    frames.map((frame) => ({ data: frame.body, delayMs: frame.delayMs })),
  );
}

function sendAnthropicModels(req: IncomingMessage, res: ServerResponse): void {
  const auth = anthropicAuthError(req);
  if (auth) return sendJson(res, 401, auth);
  sendJson(res, 200, anthropicModels(MODEL_IDS));
}

function sendGeminiModels(req: IncomingMessage, res: ServerResponse, url: URL): void {
  const key = headerKey(req, "x-goog-api-key") || (url.searchParams.get("key") ?? "");
  if (isBadKey(key)) {
    const answer = geminiBadKey();
    return sendJson(res, answer.status, answer.body);
  }
  sendJson(res, 200, geminiModels(MODEL_IDS, THINKING_MODEL));
}

// Fake web-tool providers, so Settings → Web can point at this server and e2e tests run offline: Tavily
// (`POST /tavily/search`), SearXNG (`GET /searxng/search`), Jina's reader (`GET /jina/<url>`) and web pages
// (`GET /web/<name>.html`). Search results link to pages of this server.

/** The paragraphs of the fake page `name`. */
function mockArticle(name: string): { title: string; paragraphs: string[] } {
  return {
    title: `Mock article: ${name}`,
    paragraphs: [
      `This is the mock article called ${name}. It exists so that web tools can be tested without a network.`,
      "Its second paragraph adds enough text, with commas, clauses, and sentences, for a readability check to keep it.",
      "The navigation, the script and the footer around it are page furniture that a reader should drop.",
    ],
  };
}

function mockSearchResults(req: IncomingMessage, query: string): { title: string; url: string; content: string }[] {
  if (/no results/i.test(query)) return [];
  const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
  return [1, 2, 3].map((n) => ({
    title: `Result ${n} for ${query}`,
    url: `${origin}/web/result-${n}.html`,
    content: `Mock snippet ${n} about ${query}.`,
  }));
}

function sendText(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { "Content-Type": contentType });
  res.end(body);
}

async function handleTavilySearch(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  const key = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim() ?? "";
  if (key === "" || /bad|wrong/i.test(key)) {
    return sendJson(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } });
  }
  const json = raw === null ? null : parseJson(raw);
  const query = json?.ok ? (json.value as { query?: unknown }).query : undefined;
  if (typeof query !== "string" || query.trim() === "") {
    return sendJson(res, 400, { detail: { error: "Query is missing." } });
  }
  const results = mockSearchResults(req, query).map((result) => ({ ...result, score: 0.9, raw_content: null }));
  sendJson(res, 200, { query, answer: null, images: [], results, response_time: 0.01 });
}

function sendSearxng(req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (url.searchParams.get("format") !== "json") return sendText(res, 403, "text/html", "<h1>403 Forbidden</h1>");
  const query = url.searchParams.get("q") ?? "";
  const results = mockSearchResults(req, query).map((result) => ({ ...result, engine: "mock", score: 1 }));
  sendJson(res, 200, { query, number_of_results: results.length, results });
}

function sendWebPage(res: ServerResponse, path: string): void {
  const name = /^\/web\/([\w-]+)\.html$/.exec(path)?.[1];
  if (!name || name === "missing") return sendText(res, 404, "text/html", "<h1>Not found</h1>");
  const { title, paragraphs } = mockArticle(name);
  const html = [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${title}</title><script>window.tracked = true;</script></head>`,
    '<body><nav><a href="/web/home.html">Home</a> <a href="/web/about.html">About</a></nav>',
    `<article><h1>${title}</h1>`,
    ...paragraphs.map((text) => `<p>${text}</p>`),
    '<p>See also <a href="/web/related.html">a related article</a>.</p>',
    "</article><footer>Mock footer</footer></body></html>",
  ].join("\n");
  sendText(res, 200, "text/html; charset=utf-8", html);
}

/** Jina's reader: JSON when asked for it (`{code, status, data: {title, url, content}}`), its text format otherwise. */
function sendJinaPage(req: IncomingMessage, res: ServerResponse): void {
  const target = (req.url ?? "").replace(/^\/jina\//, "");
  if (!/^https?:\/\//.test(target)) {
    return sendJson(res, 400, { data: null, code: 400, name: "ParamValidationError", message: "Invalid URL" });
  }
  const name = /\/web\/([\w-]+)\.html$/.exec(new URL(target).pathname)?.[1] ?? new URL(target).hostname;
  const { title, paragraphs } = mockArticle(name);
  const content = paragraphs.join("\n\n");
  if ((req.headers.accept ?? "").includes("application/json")) {
    return sendJson(res, 200, { code: 200, status: 20000, data: { title, description: "", url: target, content } });
  }
  sendText(
    res,
    200,
    "text/plain; charset=utf-8",
    `Title: ${title}\n\nURL Source: ${target}\n\nMarkdown Content:\n${content}\n`,
  );
}

async function route(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  setCorsHeaders(req, res);
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://mock.invalid");
  const path = url.pathname;
  if (method === "OPTIONS") return sendPreflight(res);
  const gemini = method === "POST" ? GEMINI_PATH.exec(path) : null;
  if (gemini) return handleGemini(state, req, res, url, gemini);
  if (method === "GET" && path.startsWith("/web/")) return sendWebPage(res, path);
  if (method === "GET" && path.startsWith("/jina/")) return sendJinaPage(req, res);
  switch (`${method} ${path}`) {
    case "POST /tavily/search":
      return handleTavilySearch(req, res);
    case "GET /searxng/search":
      return sendSearxng(req, res, new URL(req.url ?? "/", "http://mock.invalid"));
    case "GET /v1/models":
      // Anthropic's client sends its version header (and the key as x-api-key); OpenAI's a bearer token.
      return req.headers["anthropic-version"] || req.headers["x-api-key"]
        ? sendAnthropicModels(req, res)
        : sendModels(req, res);
    case "POST /v1/messages":
      return handleAnthropic(state, req, res, path);
    case "GET /v1beta/models":
      return sendGeminiModels(req, res, url);
    case "POST /v1/chat/completions":
      return handleChat(state, req, res, path);
    case "POST /v1/responses":
      return handleResponses(state, req, res, path);
    case "GET /__mock/requests":
      return sendJson(res, 200, state.requests);
    case "POST /__mock/reset":
      resetState(state);
      return sendJson(res, 200, { ok: true });
    default:
      return sendError(res, 404, invalidRequest(`Invalid URL (${method} ${path}) (mock)`, null, "unknown_url"));
  }
}

function failRequest(res: ServerResponse, error: unknown): void {
  console.error("mock-llm: request failed:", error);
  if (res.headersSent) return void res.destroy();
  sendError(res, 500, {
    message: "The mock server crashed (not scripted).",
    type: "server_error",
    param: null,
    code: null,
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const host = options.host ?? "127.0.0.1";
  const state: State = {
    requests: [],
    seen: new Set(),
    streams: new Set(),
    completions: 0,
    toolCalls: 0,
    faults: new Map(),
  };
  const server = createServer({ noDelay: true }, (req, res) => {
    route(state, req, res).catch((error: unknown) => failRequest(res, error));
  });
  await listen(server, options.port ?? 0, host);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("mock-llm: expected a TCP address");
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${address.port}/v1`,
    port: address.port,
    requests: state.requests,
    activeStreams: () => state.streams.size,
    reset: () => resetState(state),
    close: () => {
      for (const stream of state.streams) stream.abort();
      closing ??= closeServer(server);
      return closing;
    },
  };
}
