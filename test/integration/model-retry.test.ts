// Model errors during a run: a rate limit or a server hiccup is retried with backoff before the user hears of it.
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_RECOVERED_TEXT } from "../mock-llm/scenarios.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("model-retry-test");

describe("model retries", () => {
  it("retries a 429 transparently: the reply arrives and no error is shown", async () => {
    const thread = await harness.gateway.createThread();
    const events = await runThread(harness.gateway, thread.thread_id, "please rate limit me");
    expect(events.filter((event) => event.event === "error")).toEqual([]);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const last = (await harness.gateway.getThread(thread.thread_id))?.entries.at(-1);
    expect(last?.kind === "message" && last.message.content).toBe(RATE_LIMIT_RECOVERED_TEXT);
    const chats = harness.mock.requests.filter((request) => request.path.endsWith("/chat/completions"));
    expect(chats).toHaveLength(2);
  });
});
