// A run's stream: the lead agent's LangGraph output (`values`, `messages`, `updates`, `custom`) turned into RunEvents,
// structured-clone-safe, with what was streamed so far kept so a Stop can save the partial answer.
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toWireChunk, toWireMessage, type LeadAgent } from "../../agent/index.ts";
import type { AiWireMessage, RunEvent, WireMessage } from "../../protocol/index.ts";
import { isMessage } from "../checkpoint-views.ts";

/** Where a run's events go (the run's recorder, then the page). */
export type Emit = (event: RunEvent) => void;

/** Structured-clone-safe copy of a stream payload: LangChain messages become wire messages. */
export function toWireValue(value: unknown): unknown {
  if (isMessage(value)) return toWireMessage(value);
  if (Array.isArray(value)) return value.map(toWireValue);
  if (typeof value === "object" && value !== null) {
    const plain: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (typeof item !== "function") plain[key] = toWireValue(item);
    return plain;
  }
  return value;
}

/** How the agent's stream is opened: where it starts, and what stops it. */
export interface RunStreamConfig {
  configurable: { thread_id: string; checkpoint_id?: string };
  signal: AbortSignal;
}

/**
 * One run's events, in the order LangGraph gives them. What the stream carried stays readable after it ends or
 * throws: the replies streamed so far, the messages the run added, and the last saved state's messages.
 */
export class RunStream {
  /** Text and reasoning streamed so far per message id, to keep a partial answer when the user presses Stop. */
  private readonly partial = new Map<string, { content: string; reasoning: string }>();
  /** The messages the run added, as of the last `values`. */
  private produced: WireMessage[] = [];
  /** The last `values`' messages: with durability "sync" that is the saved state. */
  finalMessages: BaseMessage[] | undefined;

  /**
   * @param runId names the pieces of a reply that come without an id.
   * @param before how many messages the thread's history had before the run's own (its new user message included).
   */
  constructor(
    private readonly runId: string,
    private readonly before: number,
    private readonly emit: Emit,
  ) {}

  /** Streams the agent from `input` (null: resume where the last saved step left off), emitting each event. */
  async run(agent: LeadAgent, input: { messages: BaseMessage[] } | null, config: RunStreamConfig): Promise<void> {
    const stream = await agent.stream(input, {
      ...config,
      streamMode: ["values", "messages", "updates", "custom"],
      recursionLimit: 100,
      // Each step is saved before the next starts: a page closed mid-run loses at most the step in flight.
      durability: "sync",
    });
    for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) this.forward(mode, payload);
  }

  /** Streamed replies the saved state does not hold yet, as messages (tool calls dropped: no result follows). */
  partialReplies(): AiWireMessage[] {
    const savedIds = new Set(this.produced.map((message) => message.id));
    const replies: AiWireMessage[] = [];
    for (const [id, { content, reasoning }] of this.partial) {
      if (savedIds.has(id) || (content.length === 0 && reasoning.length === 0)) continue;
      replies.push({ type: "ai", id, content, ...(reasoning ? { reasoning } : {}) });
    }
    return replies;
  }

  private forward(mode: string, payload: unknown): void {
    if (mode === "messages") {
      const [chunk, metadata] = payload as [BaseMessage, Record<string, unknown>];
      const meta = toWireValue(metadata) as Record<string, unknown>;
      // A tool's result comes through whole as soon as its call ends, before the other calls of its step: sent as
      // what it is (as LangGraph's messages-tuple does), so its step shows done while the others still run.
      if (ToolMessage.isInstance(chunk)) {
        const result = toWireMessage(chunk);
        if (result.type === "tool") this.emit({ event: "messages", data: [result, meta] });
        return;
      }
      if (!AIMessageChunk.isInstance(chunk) && !AIMessage.isInstance(chunk)) return;
      const wire = toWireChunk(chunk, `run-${this.runId}`);
      const sofar = this.partial.get(wire.id) ?? { content: "", reasoning: "" };
      this.partial.set(wire.id, {
        content: sofar.content + wire.content,
        reasoning: sofar.reasoning + (wire.reasoning ?? ""),
      });
      this.emit({ event: "messages", data: [wire, meta] });
    } else if (mode === "values") {
      this.finalMessages = (payload as { messages: BaseMessage[] }).messages;
      const values = toWireValue(payload) as { messages: WireMessage[] };
      this.produced = values.messages.slice(this.before);
      this.emit({ event: "values", data: values });
    } else if (mode === "updates") {
      this.emit({ event: "updates", data: toWireValue(payload) as Record<string, unknown> });
    } else if (mode === "custom") {
      this.emit({ event: "custom", data: toWireValue(payload) });
    }
  }
}
