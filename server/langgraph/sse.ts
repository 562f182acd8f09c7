// Server-sent events as LangGraph's server writes them: `id:`, `event:` and `data:` lines per event, the run's stream
// modes picked out of its stored events (`messages-tuple` is sent as `messages`), pulled one event at a time so a
// slow client holds back reading rather than filling memory, and stopped when the client goes away.
// The modes and their event names are shared with the Gateway's routes and the server workspace's reader
// (src/gateway/runs/langgraph-stream-parts.ts), so every side agrees on them.
import { eventNameOfMode, STREAM_MODES, type FawnStreamMode } from "../../src/gateway/index.ts";
import type { StoredRunEvent } from "../runs/index.ts";
import { HttpProblem } from "./http.ts";

/**
 * Every stream mode LangGraph's API names. Those Fawn does not produce are accepted and send nothing, as a graph that
 * never writes them would: the SDK's `useStream` asks for `tools` or `events` as soon as a page reads them.
 */
const LANGGRAPH_STREAM_MODES = [
  ...STREAM_MODES,
  "messages",
  "events",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
] as const;
export type StreamMode = (typeof LANGGRAPH_STREAM_MODES)[number];

/** The stream modes asked for (`values` when none), or a 422 naming one LangGraph's API does not know. */
export function streamModes(asked: string | readonly string[] | undefined): StreamMode[] {
  const modes = asked === undefined ? [] : typeof asked === "string" ? [asked] : [...asked];
  for (const mode of modes) {
    if (!(LANGGRAPH_STREAM_MODES as readonly string[]).includes(mode)) {
      throw new HttpProblem(422, `Stream mode '${mode}' is unknown; Fawn streams ${STREAM_MODES.join(", ")}.`);
    }
  }
  return modes.length === 0 ? ["values"] : (modes as StreamMode[]);
}

/** The stored events a client asking for `modes` is sent: those, with `metadata` and `error` always; never `end`. */
export function eventFilter(modes: readonly StreamMode[]): (event: StoredRunEvent) => boolean {
  const wanted = new Set<string>(["metadata", "error"]);
  for (const mode of modes) {
    if ((STREAM_MODES as readonly string[]).includes(mode)) wanted.add(eventNameOfMode(mode as FawnStreamMode));
  }
  return (event) => wanted.has(event.event);
}

/** One event in SSE's wire form. */
export function sseFrame(event: StoredRunEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\nid: ${event.seq}\n\n`;
}

/**
 * A `text/event-stream` response of `events` (those `keep` lets through). `abort` stops the source when the client
 * disconnects; `onDisconnect` is then called too (a run started with `on_disconnect: "cancel"` is cancelled there).
 */
export function sseResponse(
  events: AsyncIterable<StoredRunEvent>,
  options: {
    keep: (event: StoredRunEvent) => boolean;
    abort: AbortController;
    headers?: Record<string, string>;
    onDisconnect?: () => void;
  },
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let finished = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            finished = true;
            controller.close();
            return;
          }
          if (options.keep(next.value)) {
            controller.enqueue(encoder.encode(sseFrame(next.value)));
            return;
          }
        }
      } catch (error) {
        finished = true;
        if (options.abort.signal.aborted) {
          controller.close();
          return;
        }
        // The stream is already 200: the failure goes out as LangGraph's `error` event.
        const message = error instanceof Error ? error.message : String(error);
        const frame = { seq: 0, event: "error" as const, data: { error: "Error", message } };
        controller.enqueue(encoder.encode(sseFrame(frame).replace("id: 0\n", "")));
        controller.close();
      }
    },
    async cancel() {
      if (finished) return;
      options.abort.abort();
      options.onDisconnect?.();
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      // No `connection` header: Node manages that hop-by-hop header, and a keep-alive the client did not ask for
      // (it sent `Connection: close`) makes its next request on the socket a bare 400.
      ...options.headers,
    },
  });
}
