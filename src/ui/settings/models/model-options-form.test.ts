// Settings → Models' Options fields as data: what is typed becomes a model's options, and what Save would be refused
// for is marked under the field of the model it belongs to, in the dictionary's words.
import { describe, expect, it } from "vitest";
import type { ModelEntry, ModelProvider, ModelSettings } from "../../../protocol/index.ts";
import { extraBodyField, extraBodyText, modelFormProblems, numberField, numberText } from "./model-settings-form.ts";

function withModel(entry: ModelEntry, provider: ModelProvider = "openai-compatible"): ModelSettings {
  return {
    endpoints: [
      { id: "main", name: "Main", provider, baseUrl: "https://a.test/v1", apiKey: "", models: [{ id: "a" }, entry] },
    ],
    defaultModel: { endpoint: "main", model: "a" },
  };
}

const marks = (settings: ModelSettings) =>
  modelFormProblems(settings).map(({ field, model, message }) => ({ field, model, message }));

describe("a model's Options fields", () => {
  it("read a blank field as the provider's default, a number as itself, and keep text that is no number", () => {
    expect(numberField("  ")).toBeUndefined();
    expect(numberField("0.7")).toBe(0.7);
    expect(numberField("4,096", true)).toBe(4096);
    expect(numberText(numberField("warm"))).toBe("warm");
    expect(extraBodyField("")).toBeUndefined();
    expect(extraBodyField('{"thinking": {"type": "enabled"}}')).toEqual({ thinking: { type: "enabled" } });
    expect(extraBodyText(extraBodyField("{oops"))).toBe("{oops");
  });

  it("mark each wrong option under its model's field, and nothing when they are right", () => {
    expect(marks(withModel({ id: "b", temperature: 0.2, maxTokens: 100, thinkingExtraBody: { x: 1 } }))).toEqual([]);
    expect(
      marks(
        withModel({
          id: "b",
          temperature: numberField("warm"),
          maxTokens: 1.5,
          thinkingExtraBody: extraBodyField("{oops"),
        }),
      ),
    ).toEqual([
      { field: "temperature", model: "b", message: "A temperature is a number from 0 to 2." },
      { field: "maxTokens", model: "b", message: "Max tokens is a whole number from 1 to 1,000,000." },
      {
        field: "thinkingExtraBody",
        model: "b",
        message: 'Write a JSON object, for example {"thinking": {"type": "enabled"}}.',
      },
    ]);
    expect(marks(withModel({ id: "b", temperature: 1.5, responsesApi: true }, "anthropic"))).toEqual([
      { field: "temperature", model: "b", message: "A temperature is a number from 0 to 1." },
      {
        field: "responsesApi",
        model: "b",
        message: "Only an OpenAI-compatible endpoint speaks the Responses API: turn it off.",
      },
    ]);
    expect(marks(withModel({ id: "b", thinkingExtraBody: { tools: [] } }))[0]?.message).toBe(
      "Fawn writes tools itself: leave it out.",
    );
    expect(marks(withModel({ id: "b", thinkingExtraBody: { x: 1 } }, "gemini"))[0]?.message).toBe(
      "A Gemini endpoint sends no extra body: clear it.",
    );
  });
});
