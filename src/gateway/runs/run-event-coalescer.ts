// Run events leave the agent worker in batches, at most one message a frame: a reply streaming at hundreds of tokens
// a second otherwise costs the page a message (and comlink's answer to it) per token. Consecutive pieces of the same
// reply are joined into one, so the page also folds fewer events. While the page is still drawing the last batch (or
// pausing after it, to keep its main thread for the user), the next one waits here: a message it would not show yet
// would cost it time all the same.
import type { AiWireMessageChunk, RunEvent, RunEventBatchListener, WireToolCallChunk } from "../../protocol/index.ts";

/** A frame at 60 Hz: no event waits longer than this in the worker. */
export const RUN_EVENT_BATCH_MS = 16;

/** When a batch leaves; `setTimeout` by default, a fake one in tests. */
export interface BatchTimer {
  set(callback: () => void, ms: number): () => void;
}

const realTimer: BatchTimer = {
  set(callback, ms) {
    const id = setTimeout(callback, ms);
    return () => clearTimeout(id);
  },
};

export interface RunEventCoalescer {
  /**
   * Queues `event`; `error` and `end` send the batch at once, the rest within `RUN_EVENT_BATCH_MS`, or as soon as
   * the listener is ready for more when it was not.
   */
  push(event: RunEvent): void;
  /** Sends what is queued now. */
  flush(): void;
}

/** Tool-call pieces with a later piece of the same call (no id or name of its own) added to its arguments. */
function joinCallChunks(
  first: readonly WireToolCallChunk[],
  second: readonly WireToolCallChunk[],
): WireToolCallChunk[] {
  const joined = [...first];
  for (const piece of second) {
    const last = joined.at(-1);
    if (last && piece.index === last.index && piece.id === undefined && piece.name === undefined) {
      joined[joined.length - 1] = { ...last, args: (last.args ?? "") + (piece.args ?? "") };
    } else joined.push(piece);
  }
  return joined;
}

/** `earlier` and `later` as one piece, when they are consecutive pieces of one reply from the same step. */
function joinChunks(earlier: RunEvent, later: RunEvent): RunEvent | undefined {
  if (earlier.event !== "messages" || later.event !== "messages") return undefined;
  const [first, firstMeta] = earlier.data;
  const [second, secondMeta] = later.data;
  if (first.type !== "AIMessageChunk" || second.type !== "AIMessageChunk" || first.id !== second.id) return undefined;
  if (first.usage_metadata) return undefined; // a reply's usage comes with its last piece
  if (
    firstMeta.langgraph_node !== secondMeta.langgraph_node ||
    firstMeta.langgraph_step !== secondMeta.langgraph_step
  ) {
    return undefined;
  }
  const joined: AiWireMessageChunk = { ...second, content: first.content + second.content };
  const reasoning = (first.reasoning ?? "") + (second.reasoning ?? "");
  if (reasoning) joined.reasoning = reasoning;
  const calls = joinCallChunks(first.tool_call_chunks ?? [], second.tool_call_chunks ?? []);
  if (calls.length > 0) joined.tool_call_chunks = calls;
  else delete joined.tool_call_chunks;
  return { event: "messages", data: [joined, firstMeta] };
}

/**
 * Batches events for `send`, in order: the first event of a batch waits at most `RUN_EVENT_BATCH_MS`, or, while
 * `send`'s promise for the previous batch is pending, until it settles; an error or the end leaves at once with
 * everything before it.
 */
export function createRunEventCoalescer(send: RunEventBatchListener, timer: BatchTimer = realTimer): RunEventCoalescer {
  let queue: RunEvent[] = [];
  let cancel: (() => void) | undefined;
  /** The listener has not settled its promise for the last batch. */
  let busy = false;

  function sendQueue(): void {
    cancel?.();
    cancel = undefined;
    if (queue.length === 0) return;
    const events = queue;
    queue = [];
    const ready: unknown = send(events);
    if (!(ready instanceof Promise)) return;
    busy = true;
    const settled = () => {
      busy = false;
      // What came meanwhile has waited already.
      if (queue.length > 0) sendQueue();
    };
    // A listener that failed (the page went away) is not waited for again.
    ready.then(settled, settled);
  }

  function flushWhenReady(): void {
    cancel = undefined;
    if (!busy) sendQueue();
  }

  return {
    push(event) {
      const last = queue.at(-1);
      const joined = last && joinChunks(last, event);
      if (joined) queue[queue.length - 1] = joined;
      else queue.push(event);
      if (event.event === "end" || event.event === "error") sendQueue();
      else if (!busy) cancel ??= timer.set(flushWhenReady, RUN_EVENT_BATCH_MS);
    },
    flush: sendQueue,
  };
}
