// What both of Fawn's writers of LangGraph's run stream share (docs/architecture.md#d13-workspaces): the stream modes a
// run can be asked for and the SSE event name each mode's parts carry. The Fawn server (server/langgraph/sse.ts) and
// the Gateway's DeerFlow-compatible routes (src/gateway/http/thread-routes.ts) write a RunEvent as `event:` its name
// and `data:` its data; the server workspace asks for these modes and reads the parts back with
// langgraph-stream-events.ts. Kept tiny: it is in the agent worker's bundle.

/** The stream modes Fawn's runs answer; the SDK's `messages-tuple` arrives as the `messages` event. */
export const STREAM_MODES = ["values", "messages-tuple", "updates", "custom"] as const;

export type FawnStreamMode = (typeof STREAM_MODES)[number];

/** The SSE event name a stream mode's parts carry (the RunEvent's own name). */
export function eventNameOfMode(mode: FawnStreamMode): "values" | "messages" | "updates" | "custom" {
  return mode === "messages-tuple" ? "messages" : mode;
}
