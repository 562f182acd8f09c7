// Google's Gemini API for the mock LLM: parses `POST /v1beta/models/{model}:streamGenerateContent` (and
// `:generateContent`) into the scenarios' request, renders a script as candidates with parts (thought parts, text,
// functionCall) and usageMetadata, and errors as `{error: {code, message, status}}`.

import { isRecord, type ReplyScript } from "./openai.ts";
import type { ChatMessage, ChatRequest, OpenAiError } from "./scenarios.ts";

export interface GeminiRequest {
  request: ChatRequest;
  /** Thoughts were asked for (`generationConfig.thinkingConfig.includeThoughts`): only then the thinking model thinks. */
  thinking: boolean;
}

export interface GeminiFrame {
  body: Record<string, unknown>;
  delayMs: number;
}

/** Google's canonical status names by HTTP status; an overloaded model is 503 UNAVAILABLE there. */
const STATUSES: Record<number, [number, string]> = {
  400: [400, "INVALID_ARGUMENT"],
  401: [401, "UNAUTHENTICATED"],
  403: [403, "PERMISSION_DENIED"],
  404: [404, "NOT_FOUND"],
  413: [400, "INVALID_ARGUMENT"],
  429: [429, "RESOURCE_EXHAUSTED"],
  500: [500, "INTERNAL"],
  529: [503, "UNAVAILABLE"],
};

/** The HTTP status and `{error: {code, message, status}}` body Gemini would answer for a scripted failure. */
export function geminiError(status: number, error: Pick<OpenAiError, "message">): { status: number; body: unknown } {
  const [code, name] = STATUSES[status] ?? [status, "UNKNOWN"];
  return { status: code, body: { error: { code, message: error.message, status: name } } };
}

/** Gemini's answer to a bad key: 400 INVALID_ARGUMENT with the reason API_KEY_INVALID. */
export function geminiBadKey(): { status: number; body: unknown } {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key. (mock)",
        status: "INVALID_ARGUMENT",
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
        ],
      },
    },
  };
}

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .map((part) => (isRecord(part) && typeof part.text === "string" && part.thought !== true ? part.text : null))
    .filter((text): text is string => text !== null)
    .join("\n");
}

function functionResults(parts: unknown): ChatMessage[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part) => {
    const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
    if (!isRecord(response)) return [];
    const result = "result" in response ? response.result : response;
    return [{ role: "tool", text: typeof result === "string" ? result : JSON.stringify(result) }];
  });
}

export function parseGeminiRequest(
  model: string,
  stream: boolean,
  body: unknown,
): { ok: true; value: GeminiRequest } | { ok: false; message: string } {
  if (!isRecord(body)) return { ok: false, message: "Invalid JSON payload received." };
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return { ok: false, message: "* GenerateContentRequest.contents: contents is not specified" };
  }
  const messages: ChatMessage[] = [];
  const system = isRecord(body.systemInstruction) ? partsText(body.systemInstruction.parts) : "";
  if (system) messages.push({ role: "system", text: system });
  for (const content of body.contents) {
    if (!isRecord(content)) return { ok: false, message: "* GenerateContentRequest.contents: invalid content" };
    const results = functionResults(content.parts);
    if (results.length > 0) messages.push(...results);
    else messages.push({ role: content.role === "model" ? "assistant" : "user", text: partsText(content.parts) });
  }
  const toolNames: string[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    const declarations = isRecord(tool) && Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const declaration of declarations) {
      if (isRecord(declaration) && typeof declaration.name === "string") toolNames.push(declaration.name);
    }
  }
  const config = isRecord(body.generationConfig) ? body.generationConfig.thinkingConfig : undefined;
  return {
    ok: true,
    value: {
      request: { model, messages, toolNames, stream, includeUsage: true },
      thinking: isRecord(config) && config.includeThoughts === true,
    },
  };
}

const REASONING_DELAY_MS = 30;

function candidate(parts: Record<string, unknown>[], finishReason?: string): Record<string, unknown> {
  return { content: { role: "model", parts }, index: 0, ...(finishReason && { finishReason }) };
}

/** The usage Gemini reports on its last chunk. */
function usageMetadata(inputTokens: number, outputTokens: number, thoughtTokens: number): Record<string, unknown> {
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: outputTokens,
    ...(thoughtTokens > 0 && { thoughtsTokenCount: thoughtTokens }),
    totalTokenCount: inputTokens + outputTokens + thoughtTokens,
  };
}

function args(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/**
 * The stream of a reply: thought parts (`thought: true`) first when asked for, then text pieces or every
 * functionCall part at once (Gemini sends calls whole), the last chunk with finishReason STOP and usageMetadata.
 */
export function geminiFrames(
  model: string,
  script: ReplyScript,
  reasoning: string[],
  inputTokens: number,
  outputTokens: number,
): GeminiFrame[] {
  const frames: GeminiFrame[] = reasoning.map((part, index) => ({
    body: { candidates: [candidate([{ text: part, thought: true }])], modelVersion: model },
    delayMs: index === 0 ? 0 : REASONING_DELAY_MS,
  }));
  const thoughtTokens = Math.ceil(reasoning.join("").length / 4);
  const last = (parts: Record<string, unknown>[], delayMs: number): GeminiFrame => ({
    body: {
      candidates: [candidate(parts, "STOP")],
      usageMetadata: usageMetadata(inputTokens, outputTokens, thoughtTokens),
      modelVersion: model,
    },
    delayMs,
  });
  if (script.kind === "text") {
    const chunks = script.chunks;
    chunks.slice(0, -1).forEach((chunk, index) => {
      frames.push({
        body: { candidates: [candidate([{ text: chunk }])], modelVersion: model },
        delayMs: frames.length === 0 && index === 0 ? 0 : script.delayMs,
      });
    });
    frames.push(last([{ text: chunks.at(-1) ?? "" }], script.delayMs));
  } else {
    const calls = script.calls.map((call) => ({ functionCall: { name: call.name, args: args(call.arguments) } }));
    frames.push(last(calls, script.delayMs));
  }
  return frames;
}

/** The whole reply as one `GenerateContentResponse` (`:generateContent`). */
export function geminiResponse(
  model: string,
  script: ReplyScript,
  reasoning: string[],
  inputTokens: number,
  outputTokens: number,
): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (reasoning.length > 0) parts.push({ text: reasoning.join(""), thought: true });
  if (script.kind === "text") parts.push({ text: script.chunks.join("") });
  else for (const call of script.calls) parts.push({ functionCall: { name: call.name, args: args(call.arguments) } });
  const thoughtTokens = Math.ceil(reasoning.join("").length / 4);
  return {
    candidates: [candidate(parts, "STOP")],
    usageMetadata: usageMetadata(inputTokens, outputTokens, thoughtTokens),
    modelVersion: model,
  };
}

/** `GET /v1beta/models` as Gemini answers it: `models/<id>` names, token limits, methods, thinking. */
export function geminiModels(ids: readonly string[], thinkingModel: string): Record<string, unknown> {
  return {
    models: [
      ...ids.map((id) => ({
        name: `models/${id}`,
        version: "001",
        displayName: `Mock ${id}`,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ["generateContent", "countTokens"],
        thinking: id === thinkingModel,
      })),
      {
        name: "models/mock-embedding",
        displayName: "Mock embedding",
        inputTokenLimit: 2_048,
        supportedGenerationMethods: ["embedContent"],
      },
    ],
  };
}
