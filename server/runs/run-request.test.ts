// A LangGraph run body as Fawn's RunRequest.
import { describe, expect, it } from "vitest";
import { runRequestOf } from "./run-request.ts";
import { RunInputError } from "./run-types.ts";

describe("runRequestOf", () => {
  it("sends the human messages with their text, images and uploads", () => {
    const request = runRequestOf("r1", "t1", {
      input: {
        messages: [
          {
            type: "human",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AA" } },
              { type: "unknown", x: 1 },
            ],
            additional_kwargs: {
              files: [
                { filename: "a.pdf", size: 10, path: "/mnt/user-data/uploads/a.pdf" },
                { filename: "b", size: 1, path: "/etc/passwd" },
                { filename: "c", size: 1, virtual_path: "/mnt/user-data/uploads/../../c" },
              ],
            },
          },
          { role: "user", content: "and this" },
          { type: "ai", content: "ignored" },
        ],
      },
    });
    expect(request).toEqual({
      run_id: "r1",
      thread_id: "t1",
      input: {
        messages: [
          {
            type: "human",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AA" } },
            ],
            files: [{ filename: "a.pdf", size: 10, virtual_path: "/mnt/user-data/uploads/a.pdf" }],
          },
          { type: "human", content: "and this" },
        ],
      },
      context: {},
    });
  });

  it("resumes the cut-off reply when the input is null or a resume command", () => {
    expect(runRequestOf("r1", "t1", { input: null })).toMatchObject({
      input: { messages: [] },
      branch: { kind: "resume" },
    });
    expect(runRequestOf("r1", "t1", { command: { resume: true } }).branch).toEqual({ kind: "resume" });
  });

  it("takes the model from context.model_name and the mode from DeerFlow's flags", () => {
    const context = (values: Record<string, unknown>) =>
      runRequestOf("r", "t", { input: { messages: [{ type: "human", content: "x" }] }, context: values }).context;
    expect(context({ model_name: "gpt-x" })).toEqual({ model: "gpt-x" });
    expect(context({ thinking_enabled: false })).toEqual({ mode: "flash" });
    expect(context({ thinking_enabled: true })).toEqual({ mode: "thinking" });
    expect(context({ thinking_enabled: true, is_plan_mode: true })).toEqual({ mode: "pro" });
    expect(context({ thinking_enabled: true, is_plan_mode: true, subagent_enabled: true })).toEqual({ mode: "ultra" });
    expect(context({ mode: "pro", subagent_enabled: true })).toEqual({ mode: "pro" });
    expect(
      runRequestOf("r", "t", { input: { messages: ["hi"] }, config: { configurable: { model_name: "m" } } }).context,
    ).toEqual({ model: "m" });
  });

  it("refuses an input with no human message and commands other than resume", () => {
    expect(() => runRequestOf("r", "t", { input: { messages: [] } })).toThrow(RunInputError);
    expect(() => runRequestOf("r", "t", { input: {} })).toThrow("no human message");
    expect(() => runRequestOf("r", "t", { command: { update: { a: 1 } } })).toThrow(RunInputError);
  });
});
