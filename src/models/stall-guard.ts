// The stall limit of model requests: a fetch whose answer, or the next bytes of whose streamed body, do not come within
// the limit fails with a ModelStallError (a retryable error with its own sentence: model-errors.ts) instead of waiting
// forever on an endpoint that went quiet. An OpenAI-compatible stream that ends without saying it is done fails with a
// ModelReplyCutError instead of passing for a whole reply.

/** How long a model endpoint may send nothing, before its answer starts or between two pieces of a stream. */
export const MODEL_STALL_MS = 300_000;

/** A model endpoint sent nothing for `stallMs`; the request was abandoned. */
export class ModelStallError extends Error {
  override readonly name = "ModelStallError";
  constructor(readonly stallMs: number) {
    super(`The model endpoint sent nothing for ${Number((stallMs / 1000).toFixed(1))} s.`);
  }
}

/**
 * A stream that stopped between two chunks (a proxy timing out politely) with neither a `finish_reason` nor `[DONE]`
 * (chat completions), nor a `response.completed`/`.incomplete`/`.failed` event (the Responses API): the SDK would take
 * the half reply for a whole one.
 */
export class ModelReplyCutError extends Error {
  override readonly name = "ModelReplyCutError";
  constructor() {
    super("The model's reply stopped before the model said it was done.");
  }
}

/** What an OpenAI-compatible stream sends when it is done, by the request's path; none for other APIs. */
function doneMarker(input: Parameters<typeof fetch>[0]): RegExp | undefined {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const path = url.split("?")[0] ?? "";
  if (path.endsWith("/chat/completions")) return /"finish_reason"\s*:\s*"|data: ?\[DONE\]/;
  if (path.endsWith("/responses")) return /"type"\s*:\s*"response\.(completed|incomplete|failed)"/;
  return undefined;
}

function abortOf(signal: AbortSignal | null | undefined, controller: AbortController): void {
  if (!signal) return;
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
}

/**
 * `body`, erroring with a ModelStallError (and cancelling the source) when no chunk comes for `stallMs`, and with a
 * ModelReplyCutError when it ends without `done` having shown (when given).
 */
function guardedBody(
  body: ReadableStream<Uint8Array>,
  stallMs: number,
  abort: () => void,
  done: RegExp | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = done === undefined;
  // The last bytes read, so that a marker split across two chunks is still found.
  let tail = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<"stalled">((resolve) => (timer = setTimeout(() => resolve("stalled"), stallMs)));
      try {
        const next = await Promise.race([reader.read(), stalled]);
        if (next === "stalled") {
          abort();
          void reader.cancel().catch(() => undefined);
          controller.error(new ModelStallError(stallMs));
        } else if (next.done) {
          if (seen) controller.close();
          else controller.error(new ModelReplyCutError());
        } else {
          if (!seen && done) {
            const text = tail + decoder.decode(next.value, { stream: true });
            seen = done.test(text);
            tail = text.slice(-64);
          }
          controller.enqueue(next.value);
        }
      } catch (error) {
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * `fetchImpl` with the stall limit: the response must start within `stallMs`, and its body may not pause longer than
 * that between two chunks. The caller's abort signal still works.
 */
export function stallGuardedFetch(fetchImpl: typeof fetch, stallMs = MODEL_STALL_MS): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    abortOf(init?.signal, controller);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Rejected before the abort, so the race ends with this error rather than the fetch's AbortError.
        reject(new ModelStallError(stallMs));
        controller.abort();
      }, stallMs);
    });
    let response: Response;
    try {
      response = await Promise.race([fetchImpl(input, { ...init, signal: controller.signal }), stalled]);
    } finally {
      clearTimeout(timer);
    }
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const streamed = response.ok && response.headers.get("content-type")?.includes("text/event-stream");
    const guarded = new Response(
      guardedBody(response.body, stallMs, () => controller.abort(), streamed ? doneMarker(input) : undefined),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
    Object.defineProperty(guarded, "url", { value: response.url });
    return guarded;
  };
}
