// Scenario table of the mock LLM: pure functions from a normalized chat request to a scripted reply.
import { crashDrill } from "./crash-drill.ts";

export const MODEL_IDS = ["mock-model", "mock-thinking", "mock-vision"] as const;
export const DEFAULT_MODEL = "mock-model";
export const THINKING_MODEL = "mock-thinking";

export interface ChatMessage {
  role: string;
  /** String content, or the text parts of array content joined by newlines. */
  text: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  toolNames: string[];
  stream: boolean;
  includeUsage: boolean;
}

export interface OpenAiError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

export interface ToolCallScript {
  name: string;
  /** JSON text, sent verbatim as `function.arguments`. */
  arguments: string;
}

export type Script =
  | { kind: "text"; chunks: string[]; delayMs: number }
  /** `argumentParts`: how many pieces each call's arguments stream in (3 unless said). */
  | { kind: "tool_calls"; calls: ToolCallScript[]; delayMs: number; argumentParts?: number }
  | { kind: "error"; status: number; error: OpenAiError; headers?: Record<string, string> };

export interface ScenarioContext {
  /** True the first time `key` is seen since the last reset (for "fail once, then succeed" scripts). */
  firstTime(key: string): boolean;
}

export interface Scenario {
  name: string;
  /** What to type to get this scenario (shown by the CLI and the README). */
  trigger: string;
  /** What the mock answers. */
  reply: string;
  matches(request: ChatRequest): boolean;
  respond(request: ChatRequest, context: ScenarioContext): Script;
}

export const HELLO_TEXT = "Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.";
export const TITLE_TEXT = "Mock conversation title";
export const RATE_LIMIT_RECOVERED_TEXT = "Recovered after a rate limit.";
export const LONG_TEXT = Array.from({ length: 50 }, (_, i) => `Sentence ${i + 1} of a long reply.`).join(" ");
export const REASONING_CHUNKS = [
  "Let me think about this step by step. ",
  "The user sent a message, ",
  "and my script already knows the answer. ",
  "I will reply now.",
];

export const MARKDOWN_TEXT = [
  "## Mock markdown reply",
  "",
  "A list:",
  "",
  "- **bold** item",
  "- *italic* item",
  "- `inline code` item",
  "",
  "| Name | Value |",
  "| ---- | ----: |",
  "| alpha | 1 |",
  "| beta | 2 |",
  "",
  "```ts",
  "export function greet(name: string): string {",
  "  return `Hello, ${name}!`;",
  "}",
  "```",
  "",
  "Raw HTML that must be sanitized: <img src=x onerror=alert(1)> (if an alert pops up, sanitizing failed).",
].join("\n");

/**
 * The "draw a diagram" reply: a Mermaid flowchart with hostile bits (a script in a label, a javascript: link, a
 * callback), then a Mermaid block that does not parse.
 */
export const DIAGRAM_TEXT = [
  "Here is the flow:",
  "",
  "```mermaid",
  '%%{init: {"themeCSS": ".app { visibility: hidden; }", "fontFamily": "x; } .app { display: none"}}%%',
  "flowchart TD",
  '  A["Start <script>alert(1)</script>"] --> B{Ready?}',
  "  B -->|yes| C[Ship it]",
  "  B -->|no| D[Fix it]",
  '  click C "javascript:alert(2)" "Run"',
  "  click D callback",
  "```",
  "",
  "And one that does not parse:",
  "",
  "```mermaid",
  "flowchart TD",
  "  A --> --> B ((",
  "```",
  "",
  "Done.",
].join("\n");

/** The "math and code" reply: GFM table, a Python block, inline and display math, dollar amounts and a TeX trick. */
export const MATH_AND_CODE_TEXT = [
  "## Results",
  "",
  "| Run | Loss |",
  "| --- | ---: |",
  "| first | 0.42 |",
  "| second | 0.17 |",
  "",
  "```python",
  "def loss(x):",
  "    return x ** 2  # squared",
  "```",
  "",
  "The energy is $E = mc^2$, and the area under the curve is",
  "",
  "$$",
  "\\int_0^1 x^2 \\, dx = \\frac{1}{3}",
  "$$",
  "",
  "Each run costs $5 and $10 with a GPU. A link in TeX must not run: $\\href{javascript:alert(1)}{click}$ done.",
].join("\n");

/** The plan the "plan demo" scenario walks through, one write_todos call per step. */
export const PLAN_DEMO_STEPS = [
  ["in_progress", "pending", "pending"],
  ["completed", "in_progress", "pending"],
  ["completed", "completed", "completed"],
] as const;
export const PLAN_DEMO_TASKS = ["Gather the facts", "Draft the answer", "Check the result"] as const;
export const PLAN_DEMO_DONE_TEXT = "All three steps of the plan are done.";

/** The report the "report demo" scenario writes to /mnt/user-data/outputs/q3-report.md. */
export const REPORT_DEMO_PATH = "/mnt/user-data/outputs/q3-report.md";
export const REPORT_DEMO_TEXT = [
  "# Q3 sales",
  "",
  "East led the quarter with **$143,900**, ahead of North and South.",
  "",
  "| Region | Revenue |",
  "| --- | ---: |",
  "| East | 143,900 |",
  "| North | 120,400 |",
  "| South | 95,150 |",
  "",
].join("\n");
export const REPORT_DEMO_DONE_TEXT =
  "The report is ready: **East** led Q3 with $143,900, North followed with $120,400 and South with $95,150, " +
  "above the regional benchmark [citation:Q3 retail sales by region](https://www.example.com/retail/q3-by-region). " +
  "I put it in the Artifacts panel as `q3-report.md`.";
export const FORECAST_QUESTION = "Which format should the Q4 forecast take?";
export const FORECAST_OPTIONS = ["A slide deck", "A one-page report", "A spreadsheet"] as const;

/** The file the "write slowly" scenario writes, in 60 pieces 80 ms apart (about 5 s). */
export const SLOW_WRITE_PATH = "/mnt/user-data/outputs/live-notes.md";
export const SLOW_WRITE_TEXT = [
  "# Live notes",
  "",
  ...Array.from({ length: 24 }, (_, i) => `- Note ${i + 1}: written while you watch.`),
  "",
].join("\n");

/** The "stream bench" reply: 2,000 tokens of 10 characters (20,000 characters), one every 5 ms (200 tokens/s). */
export const STREAM_BENCH_TOKENS = Array.from({ length: 2000 }, (_, i) => `w${String(i).padStart(8, "0")} `);
export const STREAM_BENCH_DELAY_MS = 5;

/** A reply as models write them: sections with headings, paragraphs, lists and code, about 20,000 characters. */
function benchMarkdown(): string {
  const sentence = (i: number) => `Sentence ${i} explains a point about the data, with **bold** words and \`code\`.`;
  const parts: string[] = [];
  for (let section = 0; parts.join("\n").length < 19_800; section++) {
    parts.push(`## Section ${section + 1}`, "");
    parts.push(Array.from({ length: 4 }, (_, i) => sentence(section * 10 + i)).join(" "), "");
    parts.push(
      ...Array.from(
        { length: 4 },
        (_, i) => `- Item ${i + 1} of section ${section + 1}, with a [link](https://example.com/${i})`,
      ),
      "",
    );
    if (section % 2 === 1)
      parts.push("```ts", `const total${section} = rows.reduce((sum, row) => sum + row.value, 0);`, "```", "");
  }
  return parts.join("\n").slice(0, 20_000);
}

/** The "stream bench markdown" reply: `benchMarkdown()` in 2,000 tokens of 10 characters, at 200 tokens/s. */
const STREAM_BENCH_MARKDOWN = benchMarkdown();
export const STREAM_BENCH_MARKDOWN_TOKENS = Array.from({ length: 2000 }, (_, i) =>
  STREAM_BENCH_MARKDOWN.slice(i * 10, i * 10 + 10),
);

/** The marker line of Fawn's memory-update prompt (src/agent/memory/memory-prompt.ts). */
export const MEMORY_UPDATE_MARKER = "You maintain Fawn's long-term memory of the user.";
/** The first line of Fawn's follow-up suggestions prompt (src/agent/suggestions.ts). */
export const SUGGESTIONS_MARKER = "You propose follow-up questions for Fawn's user.";
/** The start of Fawn's summarization prompt (src/agent/middlewares/summarization.ts), which /compact uses too. */
export const SUMMARY_MARKER = "Condense this conversation between a user and an AI agent";
export const SUMMARY_TEXT = "Mock summary: the user and the assistant talked; nothing is left to do.";

/**
 * The three follow-up questions the mock proposes, about the last thing the user said in the quoted conversation
 * (its first 40 characters), so that a test finds its own.
 */
export function suggestionsFor(request: ChatRequest): string[] {
  const prompt = request.messages.find((m) => m.role === "system" && m.text.includes(SUGGESTIONS_MARKER))?.text ?? "";
  const users = [...prompt.matchAll(/^User: (.*)$/gm)].map((match) => match[1] ?? "");
  const topic = (users.at(-1) ?? "this").trim().slice(0, 40).trim();
  return [`Tell me more about ${topic}`, `What could go wrong with ${topic}?`, `Give an example of ${topic}`];
}

/** The three subtasks the "fan out" scenario delegates, in order. */
export const FAN_OUT_SUBTASKS = [
  { description: "Count the apples", name: "alpha" },
  { description: "Count the pears", name: "beta" },
  { description: "Count the plums", name: "gamma" },
] as const;
/** Ends a subtask's prompt when its subagent should take 30 s (for tests that stop it while it runs). */
const SLOW_SUBTASK = "Take your time.";
export const SUBTASK_DONE_TEXT = (name: string) => `Subtask ${name} is complete: 3 found.`;

const PREFERENCE = /\b(i prefer|i like|i love|i use|i work (?:on|at|as|with)|my name is|call me)\s+([^.!?\n<]{2,80})/gi;
const FACT_VERB: Record<string, string> = {
  "i prefer": "User prefers",
  "i like": "User likes",
  "i love": "User loves",
  "i use": "User uses",
  "my name is": "User's name is",
  "call me": "User wants to be called",
};

/**
 * The memory update the mock "learns": one fact per preference-like sentence the user wrote in the
 * `<conversation>` ("I prefer dark roast coffee" → "User prefers dark roast coffee", confidence 0.95).
 */
export function memoryUpdateFor(request: ChatRequest): string {
  const body = lastMessage(request).text;
  const conversation = /<conversation>([\s\S]*?)<\/conversation>/.exec(body)?.[1] ?? body;
  const newFacts: { content: string; category: string; confidence: number }[] = [];
  for (const line of conversation.split("\n")) {
    if (!/^\s*User:/i.test(line)) continue;
    for (const match of line.matchAll(PREFERENCE)) {
      const verb = (match[1] ?? "").toLowerCase();
      const rest = (match[2] ?? "").trim();
      const lead = FACT_VERB[verb] ?? `User ${verb.replace(/^i /, "")}s`;
      newFacts.push({ content: `${lead} ${rest}`, category: "preference", confidence: 0.95 });
    }
  }
  return JSON.stringify({
    user: {
      topOfMind: { summary: newFacts.length > 0 ? "Shared some preferences." : "", shouldUpdate: newFacts.length > 0 },
    },
    newFacts,
    factsToRemove: [],
  });
}

/** Messages after the last user message (this turn's tool calls and results). */
function sinceLastUser(request: ChatRequest): ChatMessage[] {
  const index = request.messages.map((m) => m.role).lastIndexOf("user");
  return index < 0 ? [] : request.messages.slice(index + 1);
}

function lastUserText(request: ChatRequest): string {
  return request.messages.findLast((m) => m.role === "user")?.text.toLowerCase() ?? "";
}

const TITLE_REQUEST =
  /\b(generate|create|write|suggest)\b[^.\n]{0,40}\btitle\b|\btitle for (this|the) (conversation|chat)\b/i;
const CALL_TOOL = /call tools?\b/i;

/** Splits text into word-sized chunks, each word keeping its trailing whitespace, so the chunks join back exactly. */
export function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function lastMessage(request: ChatRequest): ChatMessage {
  return request.messages.at(-1) ?? { role: "user", text: "" };
}

function lastText(request: ChatRequest): string {
  return lastMessage(request).text.toLowerCase();
}

function says(phrase: string): (request: ChatRequest) => boolean {
  return (request) => lastMessage(request).role !== "tool" && lastText(request).includes(phrase);
}

function text(reply: string, delayMs: number): Script {
  return { kind: "text", chunks: words(reply), delayMs };
}

function asksForTitle(request: ChatRequest): boolean {
  const prompts = request.messages.filter((m) => m.role === "system" || m.role === "developer");
  return [...prompts, lastMessage(request)].some((m) => TITLE_REQUEST.test(m.text));
}

/** Index just past the brace that closes the `{` at `source[0]`, skipping braces inside JSON strings. */
function endOfObject(source: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i + 1;
  }
  return source.length;
}

/** Valid JSON is re-serialized compactly; anything else is passed through so apps can be tested on broken args. */
function normalizeArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function readCallSpec(source: string): { call: ToolCallScript; rest: string } {
  const nameMatch = /^\s*([A-Za-z_][\w.-]*)?\s*/.exec(source);
  let rest = source.slice(nameMatch?.[0].length ?? 0);
  let args = "{}";
  if (rest.startsWith("{")) {
    const end = endOfObject(rest);
    args = normalizeArguments(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return { call: { name: nameMatch?.[1] ?? "", arguments: args }, rest };
}

function resolveToolName(name: string, toolNames: string[]): string {
  const wanted = name.toLowerCase();
  return toolNames.find((tool) => tool === name) ?? toolNames.find((tool) => tool.toLowerCase() === wanted) ?? "";
}

/** Parses `call tool NAME {json}` or `call tools A {..}; B {..}`; unknown or missing names fall back to the first tool. */
export function parseToolCalls(message: string, toolNames: string[]): ToolCallScript[] {
  const match = CALL_TOOL.exec(message);
  const firstTool = toolNames[0];
  if (!match || firstTool === undefined) return [];
  const calls: ToolCallScript[] = [];
  let rest = message.slice(match.index + match[0].length);
  for (;;) {
    const spec = readCallSpec(rest);
    calls.push({ ...spec.call, name: resolveToolName(spec.call.name, toolNames) || firstTool });
    rest = spec.rest.trimStart();
    if (!rest.startsWith(";")) return calls;
    rest = rest.slice(1);
  }
}

/** Checked in order; the first match wins, and the last entry matches everything. */
export const scenarios: readonly Scenario[] = [
  {
    name: "suggestions",
    trigger: "Fawn's follow-up suggestions prompt (system message)",
    reply:
      'a JSON array of three questions: "Tell me more about T", "What could go wrong with T?", "Give an example of T"',
    matches: (request) => request.messages.some((m) => m.role === "system" && m.text.includes(SUGGESTIONS_MARKER)),
    respond: (request) => ({ kind: "text", chunks: [JSON.stringify(suggestionsFor(request))], delayMs: 10 }),
  },
  {
    name: "summary",
    trigger: "Fawn's summarization prompt (summarization past its trigger, and /compact)",
    reply: `"${SUMMARY_TEXT}"`,
    matches: (request) => lastMessage(request).role === "user" && lastMessage(request).text.startsWith(SUMMARY_MARKER),
    respond: () => text(SUMMARY_TEXT, 10),
  },
  {
    name: "memory-update",
    trigger: "Fawn's memory-update prompt (system message)",
    reply: 'a JSON memory update with one fact per "I prefer / I like / I use / my name is …" the user wrote',
    matches: (request) => request.messages.some((m) => m.role === "system" && m.text.includes(MEMORY_UPDATE_MARKER)),
    respond: (request) => ({ kind: "text", chunks: [memoryUpdateFor(request)], delayMs: 10 }),
  },
  {
    name: "fan-out",
    trigger: '"fan out" with the task tool available (Ultra mode)',
    reply:
      'three task calls at once (general-purpose subagents alpha, beta, gamma), slow ones when the message says "stop"; then the tool-result reply',
    matches: (request) =>
      lastUserText(request).includes("fan out") &&
      request.toolNames.includes("task") &&
      lastMessage(request).role === "user",
    respond: (request) => ({
      kind: "tool_calls",
      calls: FAN_OUT_SUBTASKS.map(({ description, name }) => ({
        name: "task",
        arguments: JSON.stringify({
          description,
          // "stop": the user means to stop them, so they must still be running when Stop is pressed, however busy
          // the machine is.
          prompt: `Subtask ${name}: ${description.toLowerCase()} in the basket and report the number.${
            lastUserText(request).includes("stop") ? ` ${SLOW_SUBTASK}` : ""
          }`,
          subagent_type: "general-purpose",
        }),
      })),
      delayMs: 30,
    }),
  },
  {
    name: "subtask",
    trigger: 'a subagent whose task starts with "Subtask NAME:"',
    reply:
      'bash `echo NAME counting` after 600 ms (30 s when the task says "Take your time.") (when it has bash), then "Subtask NAME is complete: 3 found."',
    matches: (request) => /^subtask \w+:/.test(lastUserText(request)),
    respond: (request) => {
      const name = /^subtask (\w+):/.exec(lastUserText(request))?.[1] ?? "unknown";
      const ranTool = sinceLastUser(request).some((m) => m.role === "tool");
      if (!ranTool && request.toolNames.includes("bash")) {
        return {
          kind: "tool_calls",
          calls: [
            { name: "bash", arguments: JSON.stringify({ description: "Count", command: `echo ${name} counting` }) },
          ],
          delayMs: lastUserText(request).includes(SLOW_SUBTASK.toLowerCase()) ? 30_000 : 600,
        };
      }
      return text(SUBTASK_DONE_TEXT(name), 60);
    },
  },
  {
    name: "plan-demo",
    trigger: '"plan demo" with write_todos available (plan mode)',
    reply: "write_todos three times, 1.5 s apart, moving through three steps; then a closing sentence",
    matches: (request) => lastUserText(request).includes("plan demo") && request.toolNames.includes("write_todos"),
    respond: (request) => {
      const step = sinceLastUser(request).filter((m) => m.role === "tool").length;
      const statuses = PLAN_DEMO_STEPS[step];
      if (!statuses) return text(PLAN_DEMO_DONE_TEXT, 20);
      const todos = PLAN_DEMO_TASKS.map((content, i) => ({ content, status: statuses[i] }));
      return {
        kind: "tool_calls",
        calls: [{ name: "write_todos", arguments: JSON.stringify({ todos }) }],
        delayMs: step === 0 ? 30 : 1500,
      };
    },
  },
  crashDrill,
  {
    name: "slow-write",
    trigger: '"write slowly" with write_file and present_files available',
    reply: "write_file live-notes.md streamed in 60 pieces 80 ms apart (~5 s), then present_files, then a sentence",
    matches: (request) =>
      lastUserText(request).includes("write slowly") &&
      request.toolNames.includes("write_file") &&
      request.toolNames.includes("present_files"),
    respond: (request) => {
      const round = sinceLastUser(request).filter((m) => m.role === "assistant").length;
      if (round === 0) {
        const args = { description: "Write the notes", path: SLOW_WRITE_PATH, content: SLOW_WRITE_TEXT };
        return {
          kind: "tool_calls",
          calls: [{ name: "write_file", arguments: JSON.stringify(args) }],
          delayMs: 80,
          argumentParts: 60,
        };
      }
      if (round === 1) {
        return {
          kind: "tool_calls",
          calls: [{ name: "present_files", arguments: JSON.stringify({ filepaths: [SLOW_WRITE_PATH] }) }],
          delayMs: 20,
        };
      }
      return text("The notes are written.", 20);
    },
  },
  {
    name: "report-demo",
    trigger: '"write up the q3 report" with bash, web_search, write_file and present_files available',
    reply: "bash and web_search at once, then write_file q3-report.md, then present_files, then a short summary",
    matches: (request) =>
      lastUserText(request).includes("write up the q3 report") &&
      ["bash", "web_search", "write_file", "present_files"].every((name) => request.toolNames.includes(name)),
    respond: (request) => {
      const round = sinceLastUser(request).filter((m) => m.role === "assistant").length;
      const call = (name: string, args: Record<string, unknown>): ToolCallScript => ({
        name,
        arguments: JSON.stringify(args),
      });
      const rounds: ToolCallScript[][] = [
        [
          call("bash", {
            description: "Look at the uploaded figures",
            command: "head -5 /mnt/user-data/uploads/*.csv && wc -l /mnt/user-data/uploads/*.csv",
          }),
          call("web_search", { description: "Find regional benchmarks", query: "Q3 retail sales by region" }),
        ],
        [call("write_file", { description: "Write the report", path: REPORT_DEMO_PATH, content: REPORT_DEMO_TEXT })],
        [call("present_files", { filepaths: [REPORT_DEMO_PATH] })],
      ];
      const calls = rounds[round];
      return calls ? { kind: "tool_calls", calls, delayMs: 40 } : text(REPORT_DEMO_DONE_TEXT, 20);
    },
  },
  {
    name: "forecast-question",
    trigger: '"draft the q4 forecast" with ask_clarification available',
    reply: `ask_clarification "${FORECAST_QUESTION}" with three options`,
    matches: (request) =>
      lastUserText(request).includes("draft the q4 forecast") &&
      request.toolNames.includes("ask_clarification") &&
      lastMessage(request).role === "user",
    respond: () => ({
      kind: "tool_calls",
      calls: [
        {
          name: "ask_clarification",
          arguments: JSON.stringify({
            question: FORECAST_QUESTION,
            clarification_type: "approach_choice",
            options: FORECAST_OPTIONS,
          }),
        },
      ],
      delayMs: 30,
    }),
  },
  {
    name: "stream-bench-markdown",
    trigger: '"stream bench markdown"',
    reply: "2,000 tokens of Markdown (headings, paragraphs, lists, code), 10 characters each, one every 5 ms",
    matches: says("stream bench markdown"),
    respond: () => ({ kind: "text", chunks: STREAM_BENCH_MARKDOWN_TOKENS, delayMs: STREAM_BENCH_DELAY_MS }),
  },
  {
    name: "stream-bench",
    trigger: '"stream bench"',
    reply: "2,000 tokens of 10 characters, one every 5 ms (200 tokens/s; for bench/stream-render.ts)",
    matches: says("stream bench"),
    respond: () => ({ kind: "text", chunks: STREAM_BENCH_TOKENS, delayMs: STREAM_BENCH_DELAY_MS }),
  },
  {
    name: "tool-result",
    trigger: 'last message has role "tool"',
    reply: '"The tool returned: <first 200 chars of the tool output>"',
    matches: (request) => lastMessage(request).role === "tool",
    respond: (request) => text(`The tool returned: ${lastMessage(request).text.slice(0, 200)}`, 20),
  },
  {
    name: "title",
    trigger: '"generate a title" / "title for this conversation" (system prompt or last message)',
    reply: `"${TITLE_TEXT}"`,
    matches: asksForTitle,
    respond: () => text(TITLE_TEXT, 10),
  },
  {
    name: "tool-call",
    trigger: "call tool NAME {json}  |  call tools A {json}; B {json}  (request must have tools)",
    reply: 'tool_calls (unknown NAME → first tool, no json → "{}"), finish_reason "tool_calls"',
    matches: (request) => says("call tool")(request) && request.toolNames.length > 0,
    respond: (request) => ({
      kind: "tool_calls",
      calls: parseToolCalls(lastMessage(request).text, request.toolNames),
      delayMs: 30,
    }),
  },
  {
    name: "error-500",
    trigger: '"error 500"',
    reply: "HTTP 500 with an OpenAI error body",
    matches: says("error 500"),
    respond: () => ({
      kind: "error",
      status: 500,
      error: {
        message: "The mock server had an internal error (scripted).",
        type: "server_error",
        param: null,
        code: null,
      },
    }),
  },
  {
    name: "quota-exhausted",
    trigger: '"quota exhausted"',
    reply: "HTTP 429 every time (Anthropic rate_limit_error, Gemini RESOURCE_EXHAUSTED), so retries end in the error",
    matches: says("quota exhausted"),
    respond: () => ({
      kind: "error",
      status: 429,
      error: {
        message: "You exceeded your current quota for the mock model (scripted).",
        type: "rate_limit_exceeded",
        param: null,
        code: "rate_limit_exceeded",
      },
    }),
  },
  {
    name: "overloaded",
    trigger: '"overloaded"',
    reply: "HTTP 529 overloaded_error every time (Gemini: 503 UNAVAILABLE), so retries end in the error",
    matches: says("overloaded"),
    respond: () => ({
      kind: "error",
      status: 529,
      error: { message: "The mock model is overloaded (scripted).", type: "overloaded_error", param: null, code: null },
    }),
  },
  {
    name: "rate-limit",
    trigger: '"rate limit"',
    reply: `HTTP 429 + retry-after: 1 the first time per message text, then "${RATE_LIMIT_RECOVERED_TEXT}"`,
    matches: says("rate limit"),
    respond: (request, context) =>
      context.firstTime(`rate-limit:${lastMessage(request).text}`)
        ? {
            kind: "error",
            status: 429,
            headers: { "retry-after": "1" },
            error: {
              message: "Rate limit reached for the mock model (scripted). Please try again in 1s.",
              type: "rate_limit_exceeded",
              param: null,
              code: "rate_limit_exceeded",
            },
          }
        : text(RATE_LIMIT_RECOVERED_TEXT, 20),
  },
  {
    name: "diagram",
    trigger: '"draw a diagram"',
    reply:
      "a ```mermaid flowchart (a <script> label, a javascript: click, a callback) and a ```mermaid block that does not parse",
    matches: says("draw a diagram"),
    respond: () => text(DIAGRAM_TEXT, 10),
  },
  {
    name: "math-and-code",
    trigger: '"math and code"',
    reply: "GFM table, ```python block, $inline$ and $$display$$ math, dollar amounts and a \\href trick to sanitize",
    matches: says("math and code"),
    respond: () => text(MATH_AND_CODE_TEXT, 25),
  },
  {
    name: "markdown",
    trigger: '"markdown"',
    reply: "heading, list, GFM table, ```ts block and a raw <img onerror> to test sanitizing",
    matches: says("markdown"),
    respond: () => text(MARKDOWN_TEXT, 15),
  },
  {
    name: "long",
    trigger: '"long"',
    reply: "~300 words, one word every 60 ms (~18 s; for testing Stop)",
    matches: says("long"),
    respond: () => text(LONG_TEXT, 60),
  },
  {
    name: "hello",
    trigger: '"hello"',
    reply: `"${HELLO_TEXT}" word by word, 40 ms apart`,
    matches: says("hello"),
    respond: () => text(HELLO_TEXT, 40),
  },
  {
    name: "echo",
    trigger: "anything else",
    reply: '"You said: <your text, first 200 chars>" word by word, 20 ms apart',
    matches: () => true,
    respond: (request) => text(`You said: ${lastMessage(request).text.trim().slice(0, 200)}`, 20),
  },
];

export function pickScenario(request: ChatRequest): Scenario {
  const found = scenarios.find((scenario) => scenario.matches(request));
  if (!found) throw new Error("The scenario table must end with a catch-all entry");
  return found;
}

/** Reasoning chunks streamed before the answer; only the thinking model reasons. */
export function reasoningFor(request: ChatRequest): string[] {
  return request.model === THINKING_MODEL ? REASONING_CHUNKS : [];
}
