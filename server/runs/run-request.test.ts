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
    // DeerFlow's custom agent; null (or "") goes back to the lead agent.
    expect(context({ agent_name: "researcher" })).toEqual({ agent: "researcher" });
    expect(context({ agent_name: null })).toEqual({ agent: null });
    expect(
      runRequestOf("r", "t", { input: { messages: ["hi"] }, config: { configurable: { model_name: "m" } } }).context,
    ).toEqual({ model: "m" });
  });

  it("refuses an input with no human message and commands other than resume", () => {
    expect(() => runRequestOf("r", "t", { input: { messages: [] } })).toThrow(RunInputError);
    expect(() => runRequestOf("r", "t", { input: {} })).toThrow("no human message");
    expect(() => runRequestOf("r", "t", { command: { update: { a: 1 } } })).toThrow(RunInputError);
  });

  it("forks at a checkpoint: an edit with input, a regeneration without", () => {
    const input = { messages: [{ type: "human", content: "again" }] };
    expect(runRequestOf("r", "t", { input, checkpoint: { checkpoint_id: "c1", checkpoint_ns: "" } }).branch).toEqual({
      kind: "edit",
      checkpoint: "c1",
    });
    expect(runRequestOf("r", "t", { input, checkpoint_id: "c2" }).branch).toEqual({ kind: "edit", checkpoint: "c2" });
    expect(runRequestOf("r", "t", { input, config: { configurable: { checkpoint_id: "c3" } } }).branch).toEqual({
      kind: "edit",
      checkpoint: "c3",
    });
    expect(runRequestOf("r", "t", { checkpoint: { checkpoint_id: "c1" } })).toMatchObject({
      input: { messages: [] },
      branch: { kind: "regenerate", checkpoint: "c1" },
    });
    expect(runRequestOf("r", "t", { input: null, checkpoint_id: "c1" }).branch).toEqual({
      kind: "regenerate",
      checkpoint: "c1",
    });
    // A resume command answers an interrupt: it goes on from where the thread is.
    expect(runRequestOf("r", "t", { command: { resume: 1 }, checkpoint_id: "c1" }).branch).toEqual({ kind: "resume" });
    expect(runRequestOf("r", "t", { input, checkpoint: {} }).branch).toBeUndefined();
  });

  it("refuses a checkpoint id that is not a plain id and a subgraph's namespace", () => {
    const input = { messages: ["x"] };
    expect(() => runRequestOf("r", "t", { input, checkpoint_id: "../x" })).toThrow("checkpoint_id is not valid");
    expect(() => runRequestOf("r", "t", { input, checkpoint_id: "a".repeat(200) })).toThrow(RunInputError);
    expect(() =>
      runRequestOf("r", "t", { input, checkpoint: { checkpoint_id: "c", checkpoint_ns: "tools:1" } }),
    ).toThrow("root graph");
  });

  it("keeps the client's message id, hide_from_ui and human_input_response, and drops other additional_kwargs", () => {
    const request = runRequestOf("r", "t", {
      input: {
        messages: [
          {
            type: "human",
            id: "62bdeaab-1c1e-4b1a-9f7e-0d1f2e3a4b5c",
            content: "my answer",
            additional_kwargs: {
              hide_from_ui: true,
              human_input_response: { question: "Which?", answer: "B" },
              secret: "dropped",
              files: [{ filename: "a.txt", size: 3, path: "/mnt/user-data/uploads/a.txt" }],
            },
          },
          { type: "human", content: "plain", additional_kwargs: { hide_from_ui: "yes" } },
        ],
      },
    });
    expect(request.input.messages).toEqual([
      {
        type: "human",
        id: "62bdeaab-1c1e-4b1a-9f7e-0d1f2e3a4b5c",
        content: "my answer",
        files: [{ filename: "a.txt", size: 3, virtual_path: "/mnt/user-data/uploads/a.txt" }],
        additional_kwargs: { hide_from_ui: true, human_input_response: { question: "Which?", answer: "B" } },
      },
      { type: "human", content: "plain" },
    ]);
  });

  it("refuses a message id that is not a plain id and an oversized human_input_response", () => {
    const send = (message: Record<string, unknown>) =>
      runRequestOf("r", "t", { input: { messages: [{ type: "human", content: "x", ...message }] } });
    expect(send({ id: null }).input.messages[0]?.id).toBeUndefined();
    expect(() => send({ id: 42 })).toThrow("message id");
    expect(() => send({ id: "a b" })).toThrow("message id");
    expect(() => send({ id: "x".repeat(129) })).toThrow(RunInputError);
    expect(() => send({ additional_kwargs: { human_input_response: "y".repeat(20_000) } })).toThrow("16 KB");
    const file = (filename: string) => ({ filename, size: 1, path: `/mnt/user-data/uploads/${filename}` });
    expect(() => send({ additional_kwargs: { files: Array.from({ length: 101 }, (_, i) => file(`f${i}`)) } })).toThrow(
      "at most 100",
    );
    expect(
      send({ additional_kwargs: { files: [file("a/b"), file(""), file("ok.txt")] } }).input.messages[0]?.files,
    ).toEqual([{ filename: "ok.txt", size: 1, virtual_path: "/mnt/user-data/uploads/ok.txt" }]);
  });
});
