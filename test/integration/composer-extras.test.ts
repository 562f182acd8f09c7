// The Gateway's composer services end to end in Node: follow-up suggestions, context usage and /compact, against the
// scripted mock model and the real IndexedDB checkpointer.
import { describe, expect, it } from "vitest";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("composer-extras-test");

/** The mock model's requests whose last message, from the user, starts with `text`. */
function requestsEndingWith(text: string) {
  return harness.mock.requests.filter((request) => {
    const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
    const last = messages.at(-1);
    return last?.role === "user" && typeof last.content === "string" && last.content.startsWith(text);
  });
}

describe("gateway.suggestions.suggest", () => {
  it("proposes three questions after a reply, with a capped answer length, and saves nothing", async () => {
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "olive oil tasting");
    const before = await harness.gateway.threads.get(thread.thread_id);
    const questions = await harness.gateway.suggestions.suggest(thread.thread_id);
    expect(questions).toEqual([
      "Tell me more about olive oil tasting",
      "What could go wrong with olive oil tasting?",
      "Give an example of olive oil tasting",
    ]);
    const asked = harness.mock.requests.at(-1)?.body as { max_tokens?: number; max_completion_tokens?: number };
    expect(asked.max_tokens ?? asked.max_completion_tokens).toBe(512);
    expect((await harness.gateway.threads.get(thread.thread_id))?.entries).toEqual(before?.entries);
    expect(await harness.gateway.runs.list(thread.thread_id)).toHaveLength(1);
  });

  it("gives none for a thread without a reply, and none when the model fails", async () => {
    const thread = await harness.gateway.threads.create();
    expect(await harness.gateway.suggestions.suggest(thread.thread_id)).toEqual([]);
    await runThread(harness.gateway, thread.thread_id, "hello");
    await harness.gateway.settings.saveModels({
      endpoints: [{ id: "main", name: "Main", baseUrl: "http://127.0.0.1:9/v1", apiKey: "", models: [{ id: "m" }] }],
      defaultModel: { endpoint: "main", model: "m" },
    });
    expect(await harness.gateway.suggestions.suggest(thread.thread_id)).toEqual([]);
  });
});

describe("gateway.context.compact", () => {
  it("sends the summary instead of older messages from then on, and the thread still holds them all", async () => {
    const thread = await harness.gateway.threads.create();
    const long = `first step ${"pebble ".repeat(200)}`;
    for (const text of [long, "second step", "third step"]) await runThread(harness.gateway, thread.thread_id, text);
    const before = await harness.gateway.context.usage(thread.thread_id);
    expect(before.window).toBe(128_000);

    const result = await harness.gateway.context.compact(thread.thread_id);
    expect(result).toMatchObject({ compacted: true, folded: 2 });
    expect(result.usage.tokens).toBeLessThan(before.tokens);
    expect((await harness.gateway.context.usage(thread.thread_id)).tokens).toBe(result.usage.tokens);

    await runThread(harness.gateway, thread.thread_id, "fourth step");
    const [sent] = requestsEndingWith("fourth step");
    const contents = ((sent?.body as { messages: { content: unknown }[] }).messages ?? []).map((m) =>
      String(m.content),
    );
    expect(contents.some((content) => content.includes("first step"))).toBe(false);
    expect(contents.some((content) => content.includes("Mock summary:"))).toBe(true);
    expect((await harness.gateway.threads.get(thread.thread_id))?.entries).toHaveLength(8);
  });

  it("has nothing to fold in a short thread, and refuses an unknown one", async () => {
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "only step");
    expect(await harness.gateway.context.compact(thread.thread_id)).toMatchObject({ compacted: false, folded: 0 });
    await expect(harness.gateway.context.compact("no-such-thread")).rejects.toThrow("There is no thread");
  });

  it("says why when the model refuses, without the key, and leaves the thread as it was", async () => {
    const thread = await harness.gateway.threads.create();
    for (const text of ["step one", "step two", "step three"]) await runThread(harness.gateway, thread.thread_id, text);
    const key = "sk-bad-key-4242-secret";
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: key, model: "mock-model" }),
    );
    const refused = harness.gateway.context.compact(thread.thread_id);
    await expect(refused).rejects.toThrow(/^The thread was not compacted: /);
    await expect(refused).rejects.not.toThrow(key);
    // Nothing was folded: with the right key, the same two messages are.
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
    );
    expect(await harness.gateway.context.compact(thread.thread_id)).toMatchObject({ compacted: true, folded: 2 });
  });
});
