import { describe, expect, it } from "vitest";
import type { ModelSettings } from "../protocol/index.ts";
import { resolveRunOptions } from "./modes.ts";

const settings: ModelSettings = {
  baseUrl: "https://example.test/v1",
  apiKey: "",
  model: "fast",
  models: [{ id: "fast" }, { id: "deep", thinking: true }, { id: "eyes", vision: true }],
};

describe("modes", () => {
  it("maps DeerFlow's four modes to reasoning, plan and subagents for a reasoning model", () => {
    const run = (mode: "flash" | "thinking" | "pro" | "ultra") => resolveRunOptions(settings, { mode, model: "deep" });
    expect(run("flash")).toMatchObject({ thinking: false, planMode: false, subagents: false });
    expect(run("flash").reasoningEffort).toBeUndefined();
    expect(run("thinking")).toMatchObject({
      thinking: true,
      reasoningEffort: "low",
      planMode: false,
      subagents: false,
    });
    expect(run("pro")).toMatchObject({ thinking: true, reasoningEffort: "medium", planMode: true, subagents: false });
    expect(run("ultra")).toMatchObject({ thinking: true, reasoningEffort: "high", planMode: true, subagents: true });
  });

  it("keeps the plan but asks no reasoning of a model that does not reason", () => {
    const options = resolveRunOptions(settings, { mode: "pro", model: "fast" });
    expect(options).toMatchObject({ model: "fast", thinking: false, planMode: true });
    expect(options.reasoningEffort).toBeUndefined();
  });

  it("defaults to Flash and the default model; an unknown mode or model falls back to them", () => {
    expect(resolveRunOptions(settings)).toMatchObject({ mode: "flash", model: "fast", planMode: false });
    expect(resolveRunOptions(settings, { mode: "turbo" as never, model: "gone" })).toMatchObject({
      mode: "flash",
      model: "fast",
    });
  });

  it("gives view_image to vision models only", () => {
    expect(resolveRunOptions(settings, { model: "eyes" }).vision).toBe(true);
    expect(resolveRunOptions(settings, { model: "deep" }).vision).toBe(false);
  });

  it("lists the default model even when the saved list lacks it (settings from before model lists)", () => {
    const old = { baseUrl: "x", apiKey: "", model: "old" };
    expect(resolveRunOptions(old, { model: "old" })).toMatchObject({ model: "old", thinking: false, vision: false });
    expect(resolveRunOptions({ ...settings, model: "gone" }, { mode: "pro", model: "deep" })).toMatchObject({
      model: "deep",
      thinking: true,
    });
  });
});
