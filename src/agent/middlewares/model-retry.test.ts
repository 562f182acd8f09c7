import { describe, expect, it } from "vitest";
import { isRetryableModelError } from "../../models/index.ts";
import { retryAfterMs } from "./model-retry.ts";

const withStatus = (status: number) => Object.assign(new Error(`status ${status}`), { status });

describe("model-error handling", () => {
  it("retries rate limits, server errors and dropped connections, not a refused key or a bad request", () => {
    expect([429, 500, 502, 503, 408].map((status) => isRetryableModelError(withStatus(status)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([400, 401, 403, 404, 422].some((status) => isRetryableModelError(withStatus(status)))).toBe(false);
    expect(isRetryableModelError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isRetryableModelError(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(false);
  });

  it("reads Retry-After in seconds or as a date", () => {
    expect(retryAfterMs({ headers: { "retry-after": "2" } })).toBe(2000);
    expect(retryAfterMs({ headers: new Headers({ "retry-after": "0.5" }) })).toBe(500);
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(retryAfterMs({ headers: { "retry-after": "Mon, 23 Nov 2026 10:00:03 GMT" } }, now)).toBe(3000);
    expect(retryAfterMs({ headers: {} })).toBeUndefined();
    expect(retryAfterMs(new Error("no headers"))).toBeUndefined();
  });
});
