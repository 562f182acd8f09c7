// Model-error handling: rate limits, server errors and dropped connections are retried with exponential backoff
// (honouring Retry-After) before the run ends with a clear message. Built on langchain's modelRetryMiddleware.
import { modelRetryMiddleware } from "langchain";
import { describeModelError, isRetryableModelError } from "../../models/index.ts";
import type { ModelRetryEvent } from "../../protocol/index.ts";

export const MODEL_RETRY_DEFAULTS = {
  /** Tries after the first: 1 s, 2 s, 4 s (or what Retry-After asks, up to maxDelayMs). */
  maxRetries: 3,
  initialDelayMs: 1_000,
  backoffFactor: 2,
  maxDelayMs: 20_000,
} as const;

export interface ModelErrorOptions {
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** The wait a `Retry-After` header asks for (seconds or an HTTP date), in ms; undefined without one. */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  let value: unknown;
  if (headers instanceof Headers) value = headers.get("retry-after");
  else if (typeof headers === "object" && headers !== null) value = (headers as Record<string, unknown>)["retry-after"];
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Retries what is worth retrying; anything else, or the last failure, is rethrown so the run ends with the
 * provider's reason in words (describeModelError). Each failure that will be retried is announced on the run's
 * custom stream (a `model_retry` event), so the user sees why the reply is late instead of a silent wait.
 */
export function modelErrorMiddleware(options: ModelErrorOptions = {}) {
  const maxDelayMs = options.maxDelayMs ?? MODEL_RETRY_DEFAULTS.maxDelayMs;
  const maxRetries = options.maxRetries ?? MODEL_RETRY_DEFAULTS.maxRetries;
  const initialDelayMs = options.initialDelayMs ?? MODEL_RETRY_DEFAULTS.initialDelayMs;
  const retry = modelRetryMiddleware({
    maxRetries,
    initialDelayMs,
    backoffFactor: MODEL_RETRY_DEFAULTS.backoffFactor,
    maxDelayMs,
    jitter: true,
    retryOn: (error: Error) => {
      if (!isRetryableModelError(error)) return false;
      // langchain waits at least `retryAfterMs` when the error carries it; we cap what a server may ask for.
      const wait = retryAfterMs(error);
      if (wait !== undefined) Object.assign(error, { retryAfterMs: Math.min(wait, maxDelayMs) });
      return true;
    },
    onFailure: "error",
  });
  const retryCall = retry.wrapModelCall;
  if (!retryCall) return retry;
  return {
    ...retry,
    wrapModelCall: ((request, handler) => {
      const writer = (request.runtime as { writer?: (chunk: unknown) => void } | undefined)?.writer;
      let attempt = 0;
      return retryCall(request, async (tried) => {
        try {
          return await handler(tried);
        } catch (error) {
          if (attempt < maxRetries && isRetryableModelError(error)) {
            // The wait langchain is about to take, without its jitter (a server's Retry-After wins, capped).
            const backoff = Math.min(initialDelayMs * MODEL_RETRY_DEFAULTS.backoffFactor ** attempt, maxDelayMs);
            const event: ModelRetryEvent = {
              type: "model_retry",
              attempt: attempt + 1,
              retries: maxRetries,
              delay_ms: Math.round(Math.max(backoff, Math.min(retryAfterMs(error) ?? 0, maxDelayMs))),
              reason: describeModelError(error, "").error,
            };
            writer?.(event);
          }
          attempt++;
          throw error;
        }
      });
    }) satisfies typeof retryCall,
  };
}
