import { describe, expect, it } from "vitest";
import { parseModelSettings } from "./model-settings.ts";

const base = { baseUrl: "https://api.example.test/v1/", apiKey: " sk ", model: " gpt " };

describe("model settings", () => {
  it("keeps several models per endpoint with their thinking and vision flags, the default first when missing", () => {
    const parsed = parseModelSettings({
      ...base,
      models: [
        { id: "o-mini", thinking: true },
        { id: " eyes ", vision: true, thinking: false },
      ],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        baseUrl: "https://api.example.test/v1",
        apiKey: "sk",
        model: "gpt",
        models: [{ id: "gpt" }, { id: "o-mini", thinking: true }, { id: "eyes", vision: true }],
      },
    });
  });

  it("keeps the default model's own flags when the list has it", () => {
    const parsed = parseModelSettings({ ...base, models: [{ id: "gpt", vision: true }] });
    expect(parsed.ok && parsed.value.models).toEqual([{ id: "gpt", vision: true }]);
  });

  it("refuses a model listed twice or an empty model name, in a sentence", () => {
    expect(parseModelSettings({ ...base, models: [{ id: "a" }, { id: "a" }] })).toEqual({
      ok: false,
      message: "The model a is listed twice.",
    });
    const empty = parseModelSettings({ ...base, models: [{ id: " " }] });
    expect(empty.ok).toBe(false);
    expect(!empty.ok && empty.message).toMatch(/model name is required/i);
  });
});
