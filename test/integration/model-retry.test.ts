// Model errors during a run: a rate limit or a server hiccup is retried with backoff before the user hears of it.
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_RECOVERED_TEXT } from "../mock-llm/scenarios.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("model-retry-test");

describe("model retries", () => {
  it("retries a 429 transparently: the reply arrives and no error is shown", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "please rate limit me");
    expect(events.filter((event) => event.event === "error")).toEqual([]);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const last = (await harness.gateway.threads.get(thread.thread_id))?.entries.at(-1);
    expect(last?.kind === "message" && last.message.content).toBe(RATE_LIMIT_RECOVERED_TEXT);
    const chats = harness.mock.requests.filter((request) => request.path.endsWith("/chat/completions"));
    expect(chats).toHaveLength(2);
    // While it waits, the run says why the reply is late.
    const retries = events.flatMap((event) => (event.event === "custom" ? [event.data] : []));
    expect(retries).toEqual([
      { type: "model_retry", attempt: 1, retries: 3, delay_ms: expect.any(Number), reason: "rate_limited" },
    ]);
  });
});

describe("model errors that persist", () => {
  it("retries a 500 three times with backoff, then ends with the provider's reason", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "please error 500 now");
    const chats = harness.mock.requests.filter((request) => request.path.endsWith("/chat/completions"));
    expect(chats).toHaveLength(4);
    const retries = events.flatMap((event) => (event.event === "custom" ? [event.data] : []));
    expect(retries).toEqual(
      // The harness starts the backoff at 10 ms (1 s in the app), doubling each time.
      [10, 20, 40].map((delay, index) => ({
        type: "model_retry",
        attempt: index + 1,
        retries: 3,
        delay_ms: delay,
        reason: "server_error",
      })),
    );
    expect(events.find((event) => event.event === "error")).toEqual({
      event: "error",
      data: {
        error: "server_error",
        message: expect.stringMatching(/server error \(500\).*internal error/),
      },
    });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "error" } });
  });

  it("does not retry a refused key", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "bad-key", model: "mock-model" }),
    );
    const thread = await harness.gateway.threads.create();
    const events = await runThread(harness.gateway, thread.thread_id, "hi there");
    expect(events.filter((event) => event.event === "custom")).toEqual([]);
    expect(harness.mock.requests.filter((request) => request.path.endsWith("/chat/completions"))).toHaveLength(1);
  });
});
