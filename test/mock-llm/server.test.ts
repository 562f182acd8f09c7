// Checks the mock LLM over real HTTP with plain fetch, the way the browser app talks to it.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  HELLO_TEXT,
  LONG_TEXT,
  MARKDOWN_TEXT,
  RATE_LIMIT_RECOVERED_TEXT,
  REASONING_CHUNKS,
  TITLE_TEXT,
  parseToolCalls,
  scenarios,
  words,
} from "./scenarios.ts";
import { maskKey, startMockLlm, type MockLlm } from "./server.ts";

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; reasoning_content?: string; tool_calls?: ToolCallDelta[] };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    message: {
      role: string;
      content: string | null;
      reasoning_content?: string;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

interface ErrorResponse {
  error: { message: string; type: string; param: string | null; code: string | null };
}

interface SseEvent {
  data: string;
  at: number;
}

const TOOLS = [
  { type: "function", function: { name: "web_search", description: "Search", parameters: { type: "object" } } },
  { type: "function", function: { name: "read_file", description: "Read", parameters: { type: "object" } } },
];

let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  mock.reset();
});

function root(): string {
  return mock.url.replace(/\/v1$/, "");
}

function post(path: string, body: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  return fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer sk-test-key-123456", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

function chat(body: Record<string, unknown>, init?: { headers?: Record<string, string>; signal?: AbortSignal }) {
  return post("/chat/completions", { model: "mock-model", ...body }, init);
}

function user(content: unknown): { messages: { role: string; content: unknown }[] } {
  return { messages: [{ role: "user", content }] };
}

/** Yields SSE `data:` payloads with the time each network read delivered them. */
async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) throw new Error("no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = performance.now();
    buffer += value;
    const events = buffer.split("\n\n");
    buffer = events.pop() ?? "";
    for (const event of events) {
      if (event.startsWith("data: ")) yield { data: event.slice("data: ".length), at };
      else throw new Error(`not an SSE data line: ${event}`);
    }
  }
  expect(buffer).toBe("");
}

async function readStream(response: Response): Promise<{ chunks: Chunk[]; times: number[]; done: boolean }> {
  const chunks: Chunk[] = [];
  const times: number[] = [];
  let done = false;
  for await (const event of sseEvents(response)) {
    expect(done).toBe(false);
    if (event.data === "[DONE]") done = true;
    else {
      chunks.push(JSON.parse(event.data) as Chunk);
      times.push(event.at);
    }
  }
  return { chunks, times, done };
}

function contentOf(chunks: Chunk[]): string {
  return chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
}

async function streamText(body: Record<string, unknown>): Promise<string> {
  const response = await chat({ ...body, stream: true });
  expect(response.status).toBe(200);
  return contentOf((await readStream(response)).chunks);
}

async function completion(body: Record<string, unknown>): Promise<Completion> {
  const response = await chat(body);
  expect(response.status).toBe(200);
  return (await response.json()) as Completion;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("HTTP surface", () => {
  it("lists the mock models in the OpenAI list shape", async () => {
    const response = await fetch(`${mock.url}/models`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await response.json()) as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe("list");
    expect(body.data.map((model) => model.id)).toEqual(["mock-model", "mock-thinking", "mock-vision"]);
    for (const model of body.data) {
      expect(model).toMatchObject({ object: "model", owned_by: "fawn-mock" });
      expect(typeof model.created).toBe("number");
    }
  });

  it("answers CORS preflights with 204, reflected headers and private network access", async () => {
    const response = await fetch(`${mock.url}/chat/completions`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:4173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,x-stainless-os",
        "Access-Control-Request-Private-Network": "true",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization,content-type,x-stainless-os");
    expect(response.headers.get("access-control-allow-private-network")).toBe("true");
  });

  it("allows any header, Authorization included, when nothing is reflected", async () => {
    const response = await fetch(`${mock.url}/models`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toBe("*, Authorization");
  });

  it("returns a JSON 404 with CORS headers for unknown paths", async () => {
    for (const path of ["/v1/nope", "/", "/v1/chat/completions"]) {
      const response = await fetch(`${root()}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const body = (await response.json()) as ErrorResponse;
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toContain(path);
    }
  });

  it("rejects a body that is not JSON with an OpenAI-style 400", async () => {
    const response = await post("/chat/completions", "{not json");
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await response.json()) as ErrorResponse;
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: null });
    expect(mock.requests[0]?.body).toBe("{not json");
  });

  it("rejects a request without messages with a 400 naming the param", async () => {
    const response = await chat({ messages: [] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorResponse).error.param).toBe("messages");
  });
});

describe("auth", () => {
  it.each(["sk-bad-key-0123456789", "WRONG-key-9876543210", "bad"])("rejects key %s with a masked 401", async (key) => {
    for (const response of [
      await chat(user("hello"), { headers: { Authorization: `Bearer ${key}` } }),
      await fetch(`${mock.url}/models`, { headers: { Authorization: `Bearer ${key}` } }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const body = (await response.json()) as ErrorResponse;
      expect(body.error).toEqual({
        message: `Incorrect API key provided: ${maskKey(key)}. (mock)`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      });
      expect(body.error.message).not.toContain(key);
    }
  });

  it("accepts a missing key", async () => {
    const response = await fetch(`${mock.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "mock-model", ...user("hi") }),
    });
    expect(response.status).toBe(200);
  });

  it("never shows a key in full", () => {
    expect(maskKey("sk-proj-abcdefghijklmnop")).toBe("sk-***mnop");
    expect(maskKey("short-key")).toBe("***");
  });
});

describe("streaming format", () => {
  it("streams hello word by word, spread over time, with OpenAI chunk objects", async () => {
    const started = performance.now();
    const response = await chat({ ...user("Well, HELLO there"), stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const { chunks, times, done } = await readStream(response);
    expect(done).toBe(true);
    expect(contentOf(chunks)).toBe(HELLO_TEXT);
    const contentChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(contentChunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(words(HELLO_TEXT));
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.slice(1).every((chunk) => chunk.choices[0]?.delta.role === undefined)).toBe(true);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ object: "chat.completion.chunk", model: "mock-model", id: chunks[0]?.id });
      expect(chunk.id).toMatch(/^chatcmpl-mock-\d+$/);
      expect(chunk.choices[0]?.index).toBe(0);
      expect(chunk.usage).toBeUndefined();
    }
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
    // 15 words 40 ms apart: the first arrives at once, the rest trickle in instead of arriving buffered.
    expect((times[0] ?? Infinity) - started).toBeLessThan(300);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(400);
  });

  it("ends with a usage chunk when stream_options.include_usage is set", async () => {
    const prompt = "please echo this back";
    const response = await chat({ ...user(prompt), stream: true, stream_options: { include_usage: true } });
    const { chunks, done } = await readStream(response);
    expect(done).toBe(true);
    const last = chunks.at(-1);
    const reply = `You said: ${prompt}`;
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: Math.ceil(prompt.length / 4),
      completion_tokens: Math.ceil(reply.length / 4),
      total_tokens: Math.ceil(prompt.length / 4) + Math.ceil(reply.length / 4),
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("answers non-streamed requests with a chat.completion object", async () => {
    const body = await completion({ ...user("hello"), model: "mock-vision" });
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "mock-vision",
      choices: [{ index: 0, message: { role: "assistant", content: HELLO_TEXT }, finish_reason: "stop" }],
    });
    expect(body.id).toMatch(/^chatcmpl-mock-\d+$/);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.choices[0]?.message.tool_calls).toBeUndefined();
  });
});

describe("scenarios", () => {
  it("echoes anything else, trimmed to 200 chars, using the text parts of array content", async () => {
    expect(await streamText(user("  just some words  "))).toBe("You said: just some words");
    expect(await streamText(user("x".repeat(300)))).toBe(`You said: ${"x".repeat(200)}`);
    const parts = [
      { type: "text", text: "describe" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      { type: "text", text: "this image" },
    ];
    expect((await completion({ ...user(parts), model: "mock-vision" })).choices[0]?.message.content).toBe(
      "You said: describe\nthis image",
    );
  });

  it("picks the scenario from the last message only", async () => {
    const messages = [
      { role: "user", content: "hello" },
      { role: "assistant", content: HELLO_TEXT },
      { role: "user", content: "thanks" },
    ];
    expect(await streamText({ messages })).toBe("You said: thanks");
  });

  it("streams a long reply of ~300 words and stops writing when the client hangs up", async () => {
    expect(LONG_TEXT.split(" ")).toHaveLength(300);
    expect(LONG_TEXT.startsWith("Sentence 1 of a long reply. Sentence 2")).toBe(true);
    const controller = new AbortController();
    const response = await chat({ ...user("tell me something long"), stream: true }, { signal: controller.signal });
    const received: string[] = [];
    const stopped = (async () => {
      try {
        for await (const event of sseEvents(response)) {
          received.push(event.data);
          if (received.length === 3) controller.abort();
        }
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(await stopped).toBeInstanceOf(Error);
    expect(received.length).toBeLessThan(6);
    await until(() => mock.activeStreams() === 0, 1000);
    expect(mock.requests[0]).toMatchObject({ scenario: "long", disconnected: true });
  });

  it("replies with markdown that includes a table, a code block and raw HTML to sanitize", async () => {
    const text = await streamText(user("Show me some Markdown"));
    expect(text).toBe(MARKDOWN_TEXT);
    expect(text).toMatch(/^## /m);
    expect(text).toMatch(/^- /m);
    expect(text).toContain("| ---- | ----: |");
    expect(text).toContain("```ts\n");
    expect(text).toContain("<img src=x onerror=alert(1)>");
  });

  it("fails with a scripted 500", async () => {
    const response = await chat({ ...user("trigger error 500 please"), stream: true });
    expect(response.status).toBe(500);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await response.json()) as ErrorResponse).error).toMatchObject({
      message: "The mock server had an internal error (scripted).",
      type: "server_error",
    });
  });

  it("rate limits the first request per message text, then recovers", async () => {
    const first = await chat({ ...user("test the rate limit"), stream: true });
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(first.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(((await first.json()) as ErrorResponse).error.type).toBe("rate_limit_exceeded");
    expect(await streamText(user("test the rate limit"))).toBe(RATE_LIMIT_RECOVERED_TEXT);
    expect((await chat(user("another rate limit"))).status).toBe(429);
    // The log keeps what each request was answered with, so a test can prove the 429 was served.
    expect(mock.requests.map((request) => request.status)).toEqual([429, 200, 429]);

    mock.reset();
    expect((await chat(user("test the rate limit"))).status).toBe(429);
    expect((await fetch(`${root()}/__mock/reset`, { method: "POST" })).status).toBe(200);
    expect((await chat(user("test the rate limit"))).status).toBe(429);
  });

  it("streams a tool call the way OpenAI does", async () => {
    const response = await chat({
      ...user('Please call tool read_file {"path": "/notes/todo.md"}'),
      tools: TOOLS,
      stream: true,
    });
    const { chunks, done } = await readStream(response);
    expect(done).toBe(true);
    const [first, ...rest] = chunks;
    expect(first?.choices[0]?.delta).toMatchObject({
      role: "assistant",
      tool_calls: [{ index: 0, type: "function", function: { name: "read_file", arguments: "" } }],
    });
    expect(first?.choices[0]?.delta.tool_calls?.[0]?.id).toMatch(/^call_\d+$/);
    const fragments = rest.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    expect(fragments.length).toBeLessThanOrEqual(3);
    expect(fragments.every((fragment) => fragment.index === 0 && fragment.id === undefined)).toBe(true);
    expect(JSON.parse(fragments.map((fragment) => fragment.function.arguments).join(""))).toEqual({
      path: "/notes/todo.md",
    });
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
  });

  it("returns several tool calls, falling back to the first tool for unknown names", async () => {
    const body = await completion({
      ...user('call tools web_search {"q": "a; b"}; no_such_tool; READ_FILE {"path": "x"}'),
      tools: TOOLS,
    });
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls?.map((call) => [call.type, call.function.name, call.function.arguments])).toEqual(
      [
        ["function", "web_search", '{"q":"a; b"}'],
        ["function", "web_search", "{}"],
        ["function", "read_file", '{"path":"x"}'],
      ],
    );
    const ids = choice?.message.tool_calls?.map((call) => call.id) ?? [];
    expect(new Set(ids).size).toBe(3);
  });

  it("streams several tool calls with indexes 0..n-1", async () => {
    const response = await chat({ ...user("call tools web_search; read_file"), tools: TOOLS, stream: true });
    const { chunks } = await readStream(response);
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const headers = deltas.filter((delta) => delta.id !== undefined);
    expect(headers.map((delta) => [delta.index, delta.function.name])).toEqual([
      [0, "web_search"],
      [1, "read_file"],
    ]);
  });

  it("does not call tools when the request has none", async () => {
    expect(await streamText(user("call tool web_search"))).toBe("You said: call tool web_search");
  });

  it("summarizes a tool result when the last message comes from a tool", async () => {
    const output = `hello ${"r".repeat(300)}`;
    const messages = [
      { role: "user", content: "call tool web_search" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "web_search", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: output },
    ];
    expect(await streamText({ messages, tools: TOOLS })).toBe(`The tool returned: ${output.slice(0, 200)}`);
  });

  it("streams reasoning before the answer for mock-thinking when the request asks for it", async () => {
    const response = await chat({ ...user("hello"), model: "mock-thinking", reasoning_effort: "low", stream: true });
    const { chunks } = await readStream(response);
    const kinds = chunks.map((chunk) => (chunk.choices[0]?.delta.reasoning_content ? "reasoning" : "other"));
    const reasoning = chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? "");
    expect(reasoning.join("")).toBe(REASONING_CHUNKS.join(""));
    expect(kinds.slice(0, REASONING_CHUNKS.length).every((kind) => kind === "reasoning")).toBe(true);
    expect(kinds.slice(REASONING_CHUNKS.length).every((kind) => kind === "other")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(contentOf(chunks)).toBe(HELLO_TEXT);

    const body = await completion({ ...user("hello"), model: "mock-thinking", enable_thinking: true });
    expect(body.choices[0]?.message).toMatchObject({
      content: HELLO_TEXT,
      reasoning_content: REASONING_CHUNKS.join(""),
    });
    const extraBody = await completion({ ...user("hello"), model: "mock-thinking", thinking: { type: "enabled" } });
    expect(extraBody.choices[0]?.message.reasoning_content).toBe(REASONING_CHUNKS.join(""));
  });

  it("does not reason for mock-thinking when the request does not ask for it", async () => {
    const { chunks } = await readStream(await chat({ ...user("hello"), model: "mock-thinking", stream: true }));
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.reasoning_content !== undefined)).toBe(false);
    expect(contentOf(chunks)).toBe(HELLO_TEXT);
    for (const off of [
      {},
      { reasoning_effort: "none" },
      { enable_thinking: false },
      { thinking: { type: "disabled" } },
    ]) {
      const body = await completion({ ...user("hello"), model: "mock-thinking", ...off });
      expect(body.choices[0]?.message).not.toHaveProperty("reasoning_content");
    }
  });

  it("answers title requests with a short title", async () => {
    const messages = [
      { role: "system", content: "Generate a title for this conversation in at most six words." },
      { role: "user", content: "User: hello\nAssistant: Hi! Tell me something long." },
    ];
    expect(await streamText({ messages })).toBe(TITLE_TEXT);
    expect(
      (await completion(user("Write a short title for this conversation: hello"))).choices[0]?.message.content,
    ).toBe(TITLE_TEXT);
  });
});

describe("request log", () => {
  it("records chat requests with masked credentials and serves them over HTTP", async () => {
    await chat({ ...user("hello"), stream: true, tools: TOOLS }).then(readStream);
    expect(mock.requests).toHaveLength(1);
    const [record] = mock.requests;
    expect(record).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      scenario: "hello",
      disconnected: false,
      body: { model: "mock-model", stream: true, tools: TOOLS },
    });
    expect(record?.headers.authorization).toBe(`Bearer ${maskKey("sk-test-key-123456")}`);
    expect(record?.headers["content-type"]).toBe("application/json");

    const served = await fetch(`${root()}/__mock/requests`);
    expect(served.headers.get("access-control-allow-origin")).toBe("*");
    expect(await served.json()).toEqual(JSON.parse(JSON.stringify(mock.requests)));
    expect(JSON.stringify(mock.requests)).not.toContain("sk-test-key-123456");

    const reset = await fetch(`${root()}/__mock/reset`, { method: "POST" });
    expect(reset.status).toBe(200);
    expect(mock.requests).toHaveLength(0);
  });
});

describe("scenario table", () => {
  it("ends with a catch-all and has unique names", () => {
    expect(scenarios.at(-1)?.name).toBe("echo");
    expect(new Set(scenarios.map((scenario) => scenario.name)).size).toBe(scenarios.length);
  });

  it("is documented in the README", () => {
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    for (const scenario of scenarios) expect(readme).toContain(`\`${scenario.name}\``);
  });

  it("parses tool call syntax", () => {
    expect(parseToolCalls("call tool", ["a", "b"])).toEqual([{ name: "a", arguments: "{}" }]);
    expect(parseToolCalls('call tool b {"x": {"y": "}"}} thanks', ["a", "b"])).toEqual([
      { name: "b", arguments: '{"x":{"y":"}"}}' },
    ]);
    expect(parseToolCalls("call tool b {broken", ["a", "b"])).toEqual([{ name: "b", arguments: "{broken" }]);
    expect(parseToolCalls("call tool b", [])).toEqual([]);
  });
});

describe("fake web providers", () => {
  it("answers Tavily searches with three results echoing the query, linking to its own pages", async () => {
    const response = await fetch(`${root()}/tavily/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer tvly-test-key" },
      body: JSON.stringify({ query: "deer migration", max_results: 5 }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await response.json()) as {
      query: string;
      results: { title: string; url: string; content: string }[];
    };
    expect(body.query).toBe("deer migration");
    expect(body.results.map((result) => result.title)).toEqual([
      "Result 1 for deer migration",
      "Result 2 for deer migration",
      "Result 3 for deer migration",
    ]);
    expect(body.results[0]!.url).toBe(`${root()}/web/result-1.html`);
    expect(body.results[0]!.content).toContain("deer migration");
  });

  it("refuses Tavily searches without a key or with a bad one, and finds nothing for 'no results'", async () => {
    const search = (headers: Record<string, string>, query = "x") =>
      fetch(`${root()}/tavily/search`, { method: "POST", headers, body: JSON.stringify({ query }) });
    expect((await search({})).status).toBe(401);
    const bad = await search({ Authorization: "Bearer tvly-bad-key" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ detail: { error: "Unauthorized: missing or invalid API key." } });
    const empty = await search({ Authorization: "Bearer tvly-good" }, "no results please");
    expect(((await empty.json()) as { results: unknown[] }).results).toEqual([]);
  });

  it("answers SearXNG JSON searches and refuses other formats with 403", async () => {
    const ok = await fetch(`${root()}/searxng/search?q=fawns&format=json`);
    const body = (await ok.json()) as { results: { title: string }[] };
    expect(body.results).toHaveLength(3);
    expect(body.results[1]!.title).toBe("Result 2 for fawns");
    expect((await fetch(`${root()}/searxng/search?q=fawns`)).status).toBe(403);
  });

  it("serves HTML articles with navigation, a script and a footer around them, with CORS headers", async () => {
    const response = await fetch(`${root()}/web/spring.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const html = await response.text();
    expect(html).toContain("<title>Mock article: spring</title>");
    expect(html).toContain("<nav>");
    expect(html).toContain("<script>");
    expect((await fetch(`${root()}/web/missing.html`)).status).toBe(404);
  });

  it("reads pages like Jina's reader: JSON when asked, its text format otherwise", async () => {
    const target = `${root()}/web/spring.html`;
    const json = await fetch(`${root()}/jina/${target}`, { headers: { Accept: "application/json" } });
    const body = (await json.json()) as { code: number; data: { title: string; url: string; content: string } };
    expect(body.code).toBe(200);
    expect(body.data.title).toBe("Mock article: spring");
    expect(body.data.url).toBe(target);
    expect(body.data.content).toContain("mock article called spring");
    const text = await (await fetch(`${root()}/jina/${target}`)).text();
    expect(text).toMatch(
      /^Title: Mock article: spring\n\nURL Source: .*\n\nMarkdown Content:\nThis is the mock article/,
    );
    expect((await fetch(`${root()}/jina/not-a-url`)).status).toBe(400);
  });
});

describe("shutdown", () => {
  it("closes promptly even while a stream is open", async () => {
    const other = await startMockLlm();
    const response = await fetch(`${other.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "mock-model", stream: true, ...user("long") }),
    });
    expect(response.status).toBe(200);
    await until(() => other.activeStreams() === 1, 1000);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(other.activeStreams()).toBe(0);
    await expect(response.text()).rejects.toThrow();
  });
});
