// Fawn's RunEvents as the parts of LangGraph's run stream (docs/architecture.md#d13-workspaces): the stream modes Fawn
// answers, the event name each mode's parts carry, and a RunEvent as the part LangGraph's server sends. The Fawn
// server writes its SSE with it (server/langgraph/sse.ts); the server workspace reads parts back with
// langgraph-stream-events.ts, which takes its names from here. Kept tiny: it is in the agent worker's bundle.
import type { RunEvent } from "../../protocol/index.ts";

/** The stream modes Fawn's runs answer; the SDK's `messages-tuple` arrives as the `messages` event. */
export const STREAM_MODES = ["values", "messages-tuple", "updates", "custom"] as const;

/** The SSE event name a stream mode's parts carry. */
export function eventNameOfMode(mode: string): string {
  return mode === "messages-tuple" ? "messages" : mode;
}

/** One part of LangGraph's run stream (`event:` and `data:`). */
export interface StreamPart {
  event: string;
  data: unknown;
}

/** A RunEvent as the part LangGraph's server sends; `end` has none (the stream closing is the end). */
export function streamPartOf(event: { event: RunEvent["event"]; data: unknown }): StreamPart | undefined {
  if (event.event === "end") return undefined;
  return { event: event.event, data: event.data };
}
