// The stall limit of model requests: an endpoint that goes quiet fails the request instead of hanging it forever.
import { describe, expect, it } from "vitest";
import { describeModelError, isRetryableModelError } from "./model-errors.ts";
import { ModelStallError, stallGuardedFetch } from "./stall-guard.ts";

const encoder = new TextEncoder();

/** A body that sends `parts` `gapMs` apart, then (if `hang`) nothing more and never ends. */
function body(parts: string[], gapMs: number, hang = false): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      if (index < parts.length) controller.enqueue(encoder.encode(parts[index++]));
      else if (hang) await new Promise(() => undefined);
      else controller.close();
    },
  });
}

describe("stallGuardedFetch", () => {
  it("passes a stream that keeps coming, however long it lasts in all", async () => {
    const guarded = stallGuardedFetch(async () => new Response(body(["a", "b", "c", "d", "e"], 20)), 60);
    expect(await (await guarded("http://model.invalid")).text()).toBe("abcde");
  });

  it("fails a stream that goes quiet mid-way with a retryable error and its sentence", async () => {
    const guarded = stallGuardedFetch(async () => new Response(body(["a", "b"], 5, true)), 200);
    const error = await (await guarded("http://model.invalid")).text().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelStallError);
    expect(isRetryableModelError(error)).toBe(true);
    expect(describeModelError(error, "http://model.invalid").message).toBe(
      "The model endpoint sent nothing for 0.2 s, so Fawn stopped waiting for its reply; try again in a moment.",
    );
  });

  it("fails an OpenAI-compatible stream that ends before it says it is done, and passes one that says so", async () => {
    const events = (parts: string[]) =>
      stallGuardedFetch(
        async () => new Response(body(parts, 1), { headers: { "Content-Type": "text/event-stream" } }),
        1_000,
      );
    const half = ['data: {"choices":[{"delta":{"content":"Half"},"finish_reason":null}]}\n\n'];
    const cut = events(half);
    const error = await (
      await cut("http://model.invalid/v1/chat/completions")
    )
      .text()
      .catch((caught: unknown) => caught);
    expect(describeModelError(error, "").message).toBe(
      "The connection to the model endpoint dropped in the middle of its reply; try again in a moment.",
    );
    expect(isRetryableModelError(error)).toBe(true);
    // The marker may come split across two chunks.
    const whole = events([...half, "data: [DO", "NE]\n\n"]);
    expect(await (await whole("http://model.invalid/v1/chat/completions")).text()).toContain("[DONE]");
    // Other APIs end as their SDKs read them.
    expect(await (await events(half)("http://model.invalid/v1/messages")).text()).toContain("Half");
  });

  it("fails a request whose answer never starts, and aborts it", async () => {
    let aborted = false;
    const guarded = stallGuardedFetch(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => {
            aborted = true;
            reject(new DOMException("aborted", "AbortError"));
          }),
        ),
      30,
    );
    await expect(guarded("http://model.invalid")).rejects.toBeInstanceOf(ModelStallError);
    expect(aborted).toBe(true);
  });

  it("still lets the caller stop the request (Stop)", async () => {
    const stop = new AbortController();
    const guarded = stallGuardedFetch(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new DOMException("stopped", "AbortError"))),
        ),
      10_000,
    );
    const request = guarded("http://model.invalid", { signal: stop.signal });
    stop.abort();
    await expect(request).rejects.toMatchObject({ name: "AbortError" });
  });
});
