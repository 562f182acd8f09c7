// The stall limit of model requests: a fetch whose answer, or the next bytes of whose streamed body, do not come within
// the limit fails with a ModelStallError (a retryable error with its own sentence: model-errors.ts) instead of waiting
// forever on an endpoint that went quiet.

/** How long a model endpoint may send nothing, before its answer starts or between two pieces of a stream. */
export const MODEL_STALL_MS = 300_000;

/** A model endpoint sent nothing for `stallMs`; the request was abandoned. */
export class ModelStallError extends Error {
  override readonly name = "ModelStallError";
  constructor(readonly stallMs: number) {
    super(`The model endpoint sent nothing for ${Number((stallMs / 1000).toFixed(1))} s.`);
  }
}

function abortOf(signal: AbortSignal | null | undefined, controller: AbortController): void {
  if (!signal) return;
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
}

/** `body`, erroring with a ModelStallError (and cancelling the source) when no chunk comes for `stallMs`. */
function guardedBody(body: ReadableStream<Uint8Array>, stallMs: number, abort: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
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
        } else if (next.done) controller.close();
        else controller.enqueue(next.value);
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
    const guarded = new Response(
      guardedBody(response.body, stallMs, () => controller.abort()),
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
