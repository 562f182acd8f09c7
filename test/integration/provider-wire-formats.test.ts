// Real providers' wire formats: streams recorded from OpenAI, Anthropic, Gemini, DeepSeek and Ollama (their SDKs' test
// fixtures and documentation; test/fixtures/provider-streams/SOURCES.md names each) replayed byte for byte through
// Fawn's real provider and agent path — whole, one event per write, and cut at awkward bytes (inside UTF-8 characters
// and CRLFs). What the user sees must come through: each reply's text, its reasoning (live and saved), every tool call
// with its arguments, and each turn's token usage. Every recording × chunking is one case of the "wire-formats" suite
// (docs/reliability.md); quick and full runs are the same size.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelEntry, ModelProvider, RunEvent, WireMessage } from "../../src/protocol/index.ts";
import { recordCase } from "../support/reliability.ts";
import {
  CHUNKINGS,
  chunksOf,
  readRecording,
  startProviderReplay,
  type Chunking,
  type ProviderReplay,
} from "../support/provider-replay.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

/** One AI message the run must save, as the user reads it. */
interface Turn {
  text: string;
  reasoning?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
  /** Input, output and total tokens. */
  usage: [number, number, number];
}

interface Recording {
  name: string;
  provider: ModelProvider;
  /** What Settings → Models' Base URL adds to the server's origin. */
  basePath: "/v1" | "";
  model: ModelEntry;
  mode?: "thinking";
  /** The recordings answering the run's model requests, in order (a tool call's turn, then the next). */
  replies: string[];
  /** Where every request of the run must go. */
  requestPath: string;
  turns: Turn[];
  /** What the API needs to see again in the run's next request (it refuses the request without it). */
  sentBack?: { what: string; found: (nextBody: unknown) => boolean };
}

/** The JSON of a request body, for looking something up in it. */
const jsonOf = (body: unknown): string => JSON.stringify(body ?? null);

/** The reasoning DeepSeek streamed in `deepseek-reasoning.sse`, read straight from its `data:` lines. */
function deepSeekReasoning(file: string): string {
  return readRecording(file)
    .toString("utf8")
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => {
      const chunk = JSON.parse(line.slice(6)) as { choices: { delta: { reasoning_content?: string | null } }[] };
      return chunk.choices[0]?.delta.reasoning_content ?? "";
    })
    .join("");
}

const CALCULATOR_SUMMARY =
  "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and " +
  "finally multiply that by 10, reporting the final product.";

const RECORDINGS: Recording[] = [
  {
    name: "OpenAI chat completions: two tool calls streamed as deltas at once, then a reply, with usage",
    provider: "openai-compatible",
    basePath: "/v1",
    model: { id: "gpt-4o-2024-08-06" },
    replies: ["openai-chat-parallel-tool-calls.sse", "openai-chat-text-usage.sse"],
    requestPath: "/v1/chat/completions",
    turns: [
      {
        text: "",
        toolCalls: [
          { name: "GetWeatherArgs", args: { city: "Edinburgh", country: "GB", units: "c" } },
          { name: "get_stock_price", args: { ticker: "AAPL", exchange: "NASDAQ" } },
        ],
        usage: [149, 60, 209],
      },
      { text: '{"city":"San Francisco","temperature":61,"units":"f"}', usage: [79, 14, 93] },
    ],
  },
  {
    name: "OpenAI chat completions: a refusal streamed in `refusal` deltas",
    provider: "openai-compatible",
    basePath: "/v1",
    model: { id: "gpt-4o-2024-08-06" },
    replies: ["openai-chat-refusal.sse"],
    requestPath: "/v1/chat/completions",
    turns: [{ text: "I'm sorry, I can't assist with that request.", usage: [79, 11, 90] }],
  },
  {
    name: "OpenAI Responses API: a reasoning summary, three function calls in turn, then the answer",
    provider: "openai-compatible",
    basePath: "/v1",
    // The recording asked for a detailed summary; a user asks for one with the extra body when thinking.
    model: {
      id: "gpt-5.1-codex-max",
      thinking: true,
      responsesApi: true,
      thinkingExtraBody: { reasoning: { effort: "high", summary: "detailed" } },
    },
    mode: "thinking",
    replies: [1, 2, 3, 4].map((step) => `openai-responses-step${step}.sse`),
    requestPath: "/v1/responses",
    sentBack: {
      what: "the reasoning item with its encrypted content",
      found: (body) => jsonOf(body).includes('"encrypted_content":"gAAAAABpPDIV'),
    },
    turns: [
      {
        text: "",
        reasoning: CALCULATOR_SUMMARY,
        toolCalls: [{ name: "calculator", args: { a: 12, b: 7, op: "add" } }],
        usage: [134, 28, 162],
      },
      { text: "", toolCalls: [{ name: "calculator", args: { a: 19, b: 3, op: "multiply" } }], usage: [221, 26, 247] },
      { text: "", toolCalls: [{ name: "calculator", args: { a: 57, b: 10, op: "multiply" } }], usage: [260, 26, 286] },
      { text: "The final result is **570**.", usage: [299, 12, 311] },
    ],
  },
  {
    name: "Anthropic Messages: extended thinking (thinking and signature deltas), then text",
    provider: "anthropic",
    basePath: "",
    model: { id: "claude-sonnet-4-5-20250929", thinking: true },
    mode: "thinking",
    replies: ["anthropic-thinking.sse"],
    requestPath: "/v1/messages",
    turns: [
      {
        text: "925 ÷ 5 = 185",
        reasoning: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
        usage: [69, 53, 122],
      },
    ],
  },
  {
    name: "Anthropic Messages: text, then a tool_use block streamed as partial JSON, then a reply",
    provider: "anthropic",
    basePath: "",
    model: { id: "claude-sonnet-4-20250514" },
    replies: ["anthropic-tool-use.sse", "anthropic-text.sse"],
    requestPath: "/v1/messages",
    turns: [
      {
        text: "I'll check the current weather in Paris for you.",
        toolCalls: [{ name: "get_weather", args: { location: "Paris" } }],
        usage: [377, 65, 442],
      },
      { text: "Hello there!", usage: [11, 6, 17] },
    ],
  },
  {
    name: "Gemini: a function call with a thought signature, then a reply (SSE with CRLF)",
    provider: "gemini",
    basePath: "",
    model: { id: "gemini-3-pro-preview" },
    replies: ["gemini-function-call.sse", "gemini-text.sse"],
    requestPath: "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    sentBack: {
      what: "the function call's thought signature",
      found: (body) => jsonOf(body).includes('"thoughtSignature":"EqUCCqICAb4+9vsh8Pd5taZVoPzSvjWWwzBrvhEQ'),
    },
    turns: [
      { text: "", toolCalls: [{ name: "weather", args: { location: "San Francisco" } }], usage: [29, 15, 89] },
      {
        text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
        usage: [9, 29, 294],
      },
    ],
  },
  {
    name: "DeepSeek: reasoning_content, a tool call, then reasoning and a reply",
    provider: "openai-compatible",
    basePath: "/v1",
    model: { id: "deepseek-reasoner", thinking: true },
    mode: "thinking",
    replies: ["deepseek-reasoning-tool-call.sse", "deepseek-reasoning.sse"],
    requestPath: "/v1/chat/completions",
    sentBack: {
      what: "the reasoning of the turn that called a tool, as reasoning_content",
      found: (body) =>
        ((body as { messages?: Record<string, unknown>[] }).messages ?? []).some(
          (message) =>
            message.role === "assistant" &&
            Array.isArray(message.tool_calls) &&
            message.reasoning_content === deepSeekReasoning("deepseek-reasoning-tool-call.sse"),
        ),
    },
    turns: [
      {
        text: "",
        reasoning: deepSeekReasoning("deepseek-reasoning-tool-call.sse"),
        toolCalls: [{ name: "weather", args: { location: "San Francisco" } }],
        usage: [339, 83, 422],
      },
      {
        text: 'The word "strawberry" contains three "r"s.',
        reasoning: deepSeekReasoning("deepseek-reasoning.sse"),
        usage: [18, 219, 237],
      },
    ],
  },
  {
    name: "Ollama's OpenAI-compatible endpoint: reasoning in `reasoning` deltas, a whole tool call, then a reply",
    provider: "openai-compatible",
    basePath: "/v1",
    model: { id: "qwen3:8b", thinking: true },
    mode: "thinking",
    replies: ["ollama-openai-thinking-tool-call.sse", "ollama-openai-text.sse"],
    requestPath: "/v1/chat/completions",
    turns: [
      {
        text: "",
        reasoning: "Okay, the user wants the weather in Paris. I should call get_weather with city Paris.",
        toolCalls: [{ name: "get_weather", args: { city: "Paris" } }],
        usage: [182, 41, 223],
      },
      { text: "It’s 18 °C and sunny in Paris.", usage: [240, 12, 252] },
    ],
  },
];

/** The text of a saved message, as the conversation shows it. */
function textOf(message: WireMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The reasoning the user watched stream in, by message id. */
function streamedReasoning(events: RunEvent[]): Map<string, string> {
  const byId = new Map<string, string>();
  for (const event of events) {
    if (event.event !== "messages" || event.data[0].type !== "AIMessageChunk") continue;
    const chunk = event.data[0];
    if (chunk.reasoning) byId.set(chunk.id, (byId.get(chunk.id) ?? "") + chunk.reasoning);
  }
  return byId;
}

/** Everything the user would miss or misread after the run: one line per item; empty when all came through. */
function problemsOf(recording: Recording, events: RunEvent[], saved: WireMessage[], replay: ProviderReplay): string[] {
  const problems: string[] = [];
  const error = events.find((event) => event.event === "error");
  if (error) problems.push(`the run failed: ${JSON.stringify(error.data)}`);
  const end = events.at(-1);
  if (end?.event !== "end" || end.data.status !== "success") problems.push(`the run ended ${JSON.stringify(end)}`);
  const paths = replay.requests.map((request) => request.path);
  if (paths.some((path) => path !== recording.requestPath) || paths.length !== recording.replies.length) {
    problems.push(`requests went to ${JSON.stringify(paths)}`);
  }
  if (recording.sentBack && !recording.sentBack.found(replay.requests[1]?.body)) {
    problems.push(`the next request lacks ${recording.sentBack.what}`);
  }
  const replies = saved.filter((message) => message.type === "ai");
  if (replies.length !== recording.turns.length) problems.push(`${replies.length} replies saved`);
  const live = streamedReasoning(events);
  recording.turns.forEach((turn, index) => {
    const reply = replies[index];
    if (!reply || reply.type !== "ai") return;
    const at = `reply ${index + 1}`;
    if (textOf(reply) !== turn.text) problems.push(`${at} reads ${JSON.stringify(textOf(reply))}`);
    if ((reply.reasoning ?? undefined) !== turn.reasoning) {
      problems.push(`${at} saved reasoning ${JSON.stringify(reply.reasoning?.slice(0, 80))}`);
    }
    if (turn.reasoning && live.get(reply.id) !== turn.reasoning) {
      problems.push(`${at} streamed reasoning ${JSON.stringify(live.get(reply.id)?.slice(0, 80))}`);
    }
    const calls = (reply.tool_calls ?? []).map(({ name, args }) => ({ name, args }));
    if (JSON.stringify(calls) !== JSON.stringify(turn.toolCalls ?? [])) {
      problems.push(`${at} calls ${JSON.stringify(calls)}`);
    }
    for (const call of reply.tool_calls ?? []) {
      const answered = saved.some((message) => message.type === "tool" && message.tool_call_id === call.id);
      if (!answered) problems.push(`${at}: the call ${call.name} (${call.id}) has no tool result`);
    }
    const usage = reply.usage_metadata;
    const figures = usage && [usage.input_tokens, usage.output_tokens, usage.total_tokens];
    if (JSON.stringify(figures) !== JSON.stringify(turn.usage)) problems.push(`${at} usage ${JSON.stringify(figures)}`);
  });
  return problems;
}

const harness = useGatewayHarness("provider-wire-formats");
let replay: ProviderReplay;
beforeAll(async () => {
  replay = await startProviderReplay();
});
afterAll(async () => {
  await replay.close();
});

describe("the replay server", () => {
  it("cuts a recording into pieces that join back to its bytes, splitting characters and CRLFs when awkward", () => {
    for (const file of ["anthropic-thinking.sse", "gemini-text.sse", "ollama-openai-text.sse"]) {
      const bytes = readRecording(file);
      for (const chunking of CHUNKINGS) expect(Buffer.concat(chunksOf(bytes, chunking))).toEqual(bytes);
    }
    const awkward = chunksOf(readRecording("anthropic-thinking.sse"), "awkward");
    // "÷" is two bytes: some piece starts with its second byte.
    expect(awkward.some((piece) => piece[0] === 0xb7)).toBe(true);
    const crlf = chunksOf(readRecording("gemini-text.sse"), "awkward");
    expect(crlf.some((piece) => piece[0] === 0x0a && piece.length > 0)).toBe(true);
    expect(
      chunksOf(readRecording("openai-chat-refusal.sse"), "by-event").every((piece) =>
        piece.toString().endsWith("\n\n"),
      ),
    ).toBe(true);
  });
});

describe.each(RECORDINGS)("$name", (recording) => {
  it.each(CHUNKINGS)("comes through whole with the stream written %s", async (chunking: Chunking) => {
    replay.load(
      recording.replies.map((file) => ({ file })),
      chunking,
      CHUNKINGS.indexOf(chunking) + 1,
    );
    const settings = modelSettings({
      baseUrl: `${replay.origin}${recording.basePath}`,
      apiKey: "sk-replay",
      model: recording.model.id,
      models: [recording.model],
    });
    settings.endpoints[0]!.provider = recording.provider;
    await harness.gateway.settings.saveModels(settings);
    // Only the run's own requests reach the replay: no memory update asks the model later.
    await harness.gateway.memory.saveSettings({ ...(await harness.gateway.memory.getSettings()), enabled: false });
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "What's the weather in Paris?", undefined, {
      ...(recording.mode && { mode: recording.mode }),
    });
    const detail = await harness.gateway.threads.get(thread.thread_id);
    const saved = (detail?.entries ?? []).flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
    const problems = problemsOf(recording, events, saved, replay);
    recordCase("wire-formats", {
      case: `${recording.replies[0]}${recording.replies.length > 1 ? ` (+${recording.replies.length - 1})` : ""}, ${chunking}`,
      survived: problems.length === 0,
      lost: problems.length,
      ...(problems.length > 0 && { detail: problems.join("; ") }),
    });
    expect(problems).toEqual([]);
  });
});
