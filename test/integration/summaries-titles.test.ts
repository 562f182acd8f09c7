// Settings → Models → "Summaries and titles" through the Gateway against the mock model: a run reads them as it
// starts, so the model is sent a summary past the chosen trigger and the title follows the user's prompt and limits.
import { describe, expect, it } from "vitest";
import { DEFAULT_SUMMARIES_AND_TITLES } from "../../src/protocol/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("summaries-titles-test");

/** The messages' text of a recorded chat request, one string per message. */
function textsOf(body: unknown): string[] {
  const messages = (body as { messages?: { content: unknown }[] }).messages ?? [];
  return messages.map((message) =>
    typeof message.content === "string" ? message.content : JSON.stringify(message.content),
  );
}

describe("summaries and titles as Settings → Models sets them", () => {
  it("summarizes past a message trigger, keeps the chosen tail, and titles with the user's prompt and limits", async () => {
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model", modelTitles: true }),
    );
    await harness.gateway.settings.saveSummariesAndTitles({
      summarization: { enabled: true, trigger: [{ type: "messages", value: 3 }], keep: { type: "messages", value: 1 } },
      titles: { enabled: true, maxWords: 3, maxChars: 12, prompt: "Generate a title in {max_words} words: {user_msg}" },
    });
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "Plan a trip to Lisbon");
    const titleRequest = harness.mock.requests.find((request) => request.scenario === "title");
    expect(textsOf(titleRequest?.body).at(-1)).toBe(
      "Generate a title in 3 words: <user_message>\nPlan a trip to Lisbon\n</user_message>",
    );
    // "Mock conversation title", cut to 12 characters.
    expect((await harness.gateway.threads.get(thread.thread_id))?.title).toBe("Mock convers");
    expect(harness.mock.requests.filter((request) => request.scenario === "summary")).toEqual([]);

    // Three messages reached: the older ones are folded into a summary, and the model gets it and the last message.
    await runThread(harness.gateway, thread.thread_id, "Which museums first?");
    expect(harness.mock.requests.filter((request) => request.scenario === "summary")).toHaveLength(1);
    const reply = harness.mock.requests.at(-1)!;
    const sent = textsOf(reply.body).filter((text) => !text.startsWith("<role>") && !text.includes("<role>"));
    expect(sent[0]).toMatch(/^Summary of the earlier conversation/);
    expect(sent.at(-1)).toBe("Which museums first?");
    expect(sent.join("\n")).not.toContain("Plan a trip to Lisbon");
  });

  it("sends the whole conversation and gives no title when both are off", async () => {
    await harness.gateway.settings.saveSummariesAndTitles({
      // Off wins over a trigger every run would reach.
      summarization: {
        enabled: false,
        trigger: [{ type: "messages", value: 2 }],
        keep: { type: "messages", value: 1 },
      },
      titles: { ...DEFAULT_SUMMARIES_AND_TITLES.titles, enabled: false },
    });
    const thread = await harness.gateway.threads.create();
    const before = (await harness.gateway.threads.get(thread.thread_id))?.title;
    for (const text of ["one", "two", "three"]) await runThread(harness.gateway, thread.thread_id, text);
    expect(harness.mock.requests.filter((request) => request.scenario === "summary")).toEqual([]);
    expect(textsOf(harness.mock.requests.at(-1)!.body).join("\n")).toContain("one");
    expect((await harness.gateway.threads.get(thread.thread_id))?.title).toBe(before);
  });

  it("refuses a setting with one sentence per problem and keeps the stored one", async () => {
    await expect(
      harness.gateway.settings.saveSummariesAndTitles({
        summarization: {
          enabled: true,
          trigger: [{ type: "fraction", value: 2 }],
          keep: { type: "messages", value: 0 },
        },
        titles: { enabled: true, maxWords: 6, maxChars: 60, prompt: "No placeholder" },
      }),
    ).rejects.toThrow(
      "A summary trigger in a fraction of the context window must be from 0.05 to 1. " +
        "What a summary keeps in messages must be from 1 to 1,000. The title prompt must include {user_msg}.",
    );
    expect(await harness.gateway.settings.getSummariesAndTitles()).toEqual(DEFAULT_SUMMARIES_AND_TITLES);
  });
});
