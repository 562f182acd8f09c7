// Fault injection for the mock LLM's OpenAI-compatible chat route: `fault:NAME` in the last user message makes the
// reply fail the way real endpoints and networks do (HTTP errors, cut, stalled or malformed streams, oversized or badly
// encoded replies, a call to a tool that does not exist). test/integration/model-faults.test.ts drives every one.
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { chunkBody, framesFor, type ReplyMeta } from "./openai.ts";
import { words, type ChatRequest, type Scenario } from "./scenarios.ts";

export const FAULT_NAMES = [
  "http-429",
  "http-500",
  "http-503",
  "cut-token",
  "cut-tool-json",
  "end-early",
  "malformed-json",
  "empty-choices",
  "stall",
  "huge-reply",
  "bad-utf8",
  "unknown-tool",
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

export interface Fault {
  name: FaultName;
  /** Where in the stream the fault strikes, in thousandths of its region (the text, or the tool call's arguments). */
  at: number;
  /** Faulty answers before a normal one, per message text ("always": every time). */
  times: number;
  /** Seconds sent as `Retry-After` with an HTTP error; none when absent. */
  retryAfter?: number;
}

/** The reply a request gets once its fault has struck `times` times, and the text around every faulty stream. */
export const FAULT_REPLY_TEXT =
  "This reply came through whole after the fault: every word of it, from the first to the last one here.";
/** The tool a `unknown-tool` fault calls; no agent offers it. */
export const MISSING_TOOL = "no_such_tool";
/** The size of a `huge-reply`, in characters of text (10 MB). */
export const HUGE_REPLY_CHARS = 10 * 1024 * 1024;
/** Bytes a `bad-utf8` reply carries inside its text: never valid UTF-8. */
export const BAD_UTF8_BYTES = Buffer.from([0xff, 0xfe, 0xc3]);

const FAULT = /\bfault:([a-z0-9-]+)((?:\s+[a-z-]+=[\w.]+)*)/i;

/** What a faulted request gets once its fault has struck `times` times: FAULT_REPLY_TEXT, word by word. */
export const faultRecovered: Scenario = {
  name: "fault-recovered",
  trigger: "fault:NAME, once it has struck `times` times",
  reply: "FAULT_REPLY_TEXT",
  matches: (request) => faultOf(request) !== null,
  respond: () => ({ kind: "text", chunks: words(FAULT_REPLY_TEXT), delayMs: 5 }),
};

/** Counts the faulty answers given per fault and message text; cleared by the mock's reset. */
export type FaultMemory = Map<string, number>;

/** The fault the request asks for: the agent's own call (it offers tools) whose last message is the user's. */
export function faultOf(request: ChatRequest): Fault | null {
  const last = request.messages.at(-1);
  if (!last || last.role !== "user" || request.toolNames.length === 0 || !request.stream) return null;
  const match = FAULT.exec(last.text);
  const name = match?.[1]?.toLowerCase() as FaultName | undefined;
  if (!match || !name || !FAULT_NAMES.includes(name)) return null;
  const params = new Map(
    [...(match[2] ?? "").matchAll(/([a-z-]+)=([\w.]+)/gi)].map((pair) => [pair[1]!.toLowerCase(), pair[2]!]),
  );
  const times = params.get("times");
  const retryAfter = params.get("retry-after");
  return {
    name,
    at: Math.min(999, Math.max(1, Number(params.get("at") ?? 500) || 500)),
    times: times === "always" ? Number.POSITIVE_INFINITY : Number(times ?? 1) || 1,
    ...(retryAfter !== undefined && { retryAfter: Number(retryAfter) }),
  };
}

/** True while the fault should still strike for this text; counts the strike. */
export function strikes(memory: FaultMemory, fault: Fault, text: string): boolean {
  const key = `${fault.name}\n${text}`;
  const count = memory.get(key) ?? 0;
  if (count >= fault.times) return false;
  memory.set(key, count + 1);
  return true;
}

/** One piece of the SSE body; `region` marks the bytes a fault's `at` points into. */
interface Piece {
  bytes: Buffer;
  region?: boolean;
}

function sse(body: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(body)}\n\n`);
}

function textPieces(meta: ReplyMeta, chunks: string[]): Piece[] {
  const frames = framesFor({ kind: "text", chunks, delayMs: 0 }, [], []);
  return frames.map((frame) => ({
    bytes: sse(chunkBody(meta, frame, false)),
    region: frame.delta.content !== undefined,
  }));
}

function toolPieces(meta: ReplyMeta, name: string, args: string): Piece[] {
  const frames = framesFor(
    { kind: "tool_calls", calls: [{ name, arguments: args }], delayMs: 0, argumentParts: 8 },
    [],
    [`call_fault_${meta.id}`],
  );
  return frames.map((frame) => ({
    bytes: sse(chunkBody(meta, frame, false)),
    region: frame.delta.tool_calls?.[0]?.function.arguments !== undefined && frame.delta.tool_calls[0].id === undefined,
  }));
}

/** The byte offset `at` thousandths into the region, strictly inside it (never on its edges). */
function cutOffset(pieces: Piece[], at: number): number {
  let offset = 0;
  let start = -1;
  let end = 0;
  for (const piece of pieces) {
    if (piece.region && start < 0) start = offset;
    offset += piece.bytes.length;
    if (piece.region) end = offset;
  }
  const span = Math.max(2, end - start);
  return start + Math.min(span - 1, Math.max(1, Math.floor((span * at) / 1000)));
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" });
  res.flushHeaders();
}

/** Writes pieces a few ms apart (so the client reads them as a stream), up to `limit` bytes in all. */
async function writePieces(res: ServerResponse, pieces: Piece[], signal: AbortSignal, limit = Infinity): Promise<void> {
  let written = 0;
  for (const piece of pieces) {
    if (written >= limit || signal.aborted) return;
    const bytes = piece.bytes.subarray(0, Math.max(0, limit - written));
    res.write(bytes);
    written += bytes.length;
    await sleep(2, undefined, { signal });
  }
}

const DONE = Buffer.from("data: [DONE]\n\n");

function sendHttpError(res: ServerResponse, fault: Fault): void {
  const status = Number(fault.name.slice("http-".length));
  const type = status === 429 ? "rate_limit_error" : "server_error";
  const message =
    status === 429 ? "Rate limit reached for requests (fault)." : `The upstream answered ${status} (fault).`;
  res.writeHead(status, {
    "Content-Type": "application/json",
    ...(fault.retryAfter !== undefined && { "Retry-After": String(fault.retryAfter) }),
  });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

/**
 * Answers with `fault`; `streams` holds its controller while it lasts (the mock's close aborts it), and `record` is
 * marked when the client hangs up first. Resolves once the response is over (ended or destroyed).
 */
export async function answerWithFault(
  res: ServerResponse,
  fault: Fault,
  meta: ReplyMeta,
  streams: Set<AbortController>,
  record: { disconnected: boolean },
): Promise<void> {
  const controller = new AbortController();
  streams.add(controller);
  res.on("close", () => {
    if (!res.writableFinished) record.disconnected = true;
    controller.abort();
  });
  try {
    await serveFault(res, fault, meta, controller.signal);
  } finally {
    streams.delete(controller);
  }
}

async function serveFault(res: ServerResponse, fault: Fault, meta: ReplyMeta, signal: AbortSignal): Promise<void> {
  if (fault.name.startsWith("http-")) return sendHttpError(res, fault);
  openStream(res);
  const reply = textPieces(meta, words(FAULT_REPLY_TEXT));
  try {
    switch (fault.name) {
      case "cut-token":
        await writePieces(res, reply, signal, cutOffset(reply, fault.at));
        return void res.destroy();
      case "end-early": {
        // Whole chunks, then the response ends cleanly with no finish reason and no [DONE] (a proxy timing out politely).
        const count = 1 + Math.floor((fault.at / 1000) * (reply.length - 2));
        return await writePieces(res, reply.slice(0, count), signal);
      }
      case "cut-tool-json": {
        const args = JSON.stringify({ path: "/mnt/user-data/outputs/cut.md", content: FAULT_REPLY_TEXT.repeat(3) });
        const pieces = toolPieces(meta, "write_file", args);
        await writePieces(res, pieces, signal, cutOffset(pieces, fault.at));
        return void res.destroy();
      }
      case "malformed-json": {
        const cut = reply.findIndex((piece) => piece.region) + Math.floor((fault.at / 1000) * (reply.length - 2));
        const broken = { bytes: Buffer.from('data: {"choices":[{"delta":{"content":"half\n\n') };
        return await writePieces(res, [...reply.slice(0, cut), broken, ...reply.slice(cut), { bytes: DONE }], signal);
      }
      case "empty-choices": {
        const empty = sse({
          id: meta.id,
          object: "chat.completion.chunk",
          created: meta.created,
          model: meta.model,
          choices: [],
        });
        return await writePieces(res, [{ bytes: empty }, { bytes: empty }, { bytes: DONE }], signal);
      }
      case "stall":
        await writePieces(res, reply, signal, cutOffset(reply, fault.at));
        // No byte more until the client gives up (or the mock closes); then the socket goes.
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        return void res.destroy();
      case "huge-reply": {
        const chunk = "0123456789abcdef ".repeat(4096).slice(0, 64 * 1024);
        const chunks = Array.from({ length: HUGE_REPLY_CHARS / chunk.length }, () => chunk);
        return await writePieces(res, [...textPieces(meta, chunks), { bytes: DONE }], signal);
      }
      case "bad-utf8": {
        const at = Math.floor((fault.at / 1000) * FAULT_REPLY_TEXT.length);
        const frame = sse(
          chunkBody(meta, { delta: { content: "\u0000MARK\u0000" }, finishReason: null, delayMs: 0 }, false),
        );
        const marker = frame.indexOf("\\u0000MARK\\u0000");
        const bad = Buffer.concat([frame.subarray(0, marker), BAD_UTF8_BYTES, frame.subarray(marker + 16)]);
        const before = textPieces(meta, [FAULT_REPLY_TEXT.slice(0, at)]);
        const after = textPieces(meta, [FAULT_REPLY_TEXT.slice(at)]);
        const pieces = [...before.slice(0, -1), { bytes: bad }, ...after, { bytes: DONE }];
        return await writePieces(res, pieces, signal);
      }
      case "unknown-tool":
        return await writePieces(
          res,
          [...toolPieces(meta, MISSING_TOOL, '{"query":"anything"}'), { bytes: DONE }],
          signal,
        );
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    if (!res.destroyed && !res.writableEnded) res.end();
  }
}
