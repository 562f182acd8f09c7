import { describe, expect, it } from "vitest";
import type { ModelTarget } from "../protocol/index.ts";
import { resolveRunOptions } from "./modes.ts";

const target = (model: string): ModelTarget => ({
  name: "Main endpoint",
  baseUrl: "https://example.test/v1",
  apiKey: "",
  model,
  models: [{ id: "fast" }, { id: "deep", thinking: true }, { id: "eyes", vision: true }],
});

describe("modes", () => {
  it("maps DeerFlow's four modes to reasoning, plan and subagents for a reasoning model", () => {
    const run = (mode: "flash" | "thinking" | "pro" | "ultra") => resolveRunOptions(target("deep"), mode);
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
    const options = resolveRunOptions(target("fast"), "pro");
    expect(options).toMatchObject({ model: "fast", thinking: false, planMode: true });
    expect(options.reasoningEffort).toBeUndefined();
  });

  it("defaults to Flash; an unknown mode falls back to it", () => {
    expect(resolveRunOptions(target("fast"))).toMatchObject({ mode: "flash", model: "fast", planMode: false });
    expect(resolveRunOptions(target("fast"), "turbo" as never)).toMatchObject({ mode: "flash", model: "fast" });
  });

  it("gives view_image to vision models only", () => {
    expect(resolveRunOptions(target("eyes")).vision).toBe(true);
    expect(resolveRunOptions(target("deep")).vision).toBe(false);
  });

  it("gives tools to every model but one whose entry says it cannot call them", () => {
    expect(resolveRunOptions(target("fast")).tools).toBe(true);
    expect(resolveRunOptions({ ...target("plain"), models: [{ id: "plain", tools: false }] }).tools).toBe(false);
  });

  it("asks nothing of a model the endpoint lists without abilities", () => {
    expect(resolveRunOptions({ ...target("old"), models: [{ id: "old" }] }, "pro")).toMatchObject({
      model: "old",
      thinking: false,
      vision: false,
    });
  });
});
