import { describe, expect, it } from "vitest";
import { ggufBytes } from "../../test/gguf/gguf-writer.ts";
import { SCRIPTED_CONTEXT, scriptedModelGguf } from "../../test/gguf/scripted-model.ts";
import { ggufContextLength } from "./gguf-header.ts";

describe("ggufContextLength", () => {
  it("reads the architecture's context length, past arrays of strings and numbers", () => {
    expect(ggufContextLength(scriptedModelGguf())).toBe(SCRIPTED_CONTEXT);
    const file = ggufBytes(
      {
        "general.architecture": { type: "string", value: "qwen2" },
        "tokenizer.ggml.tokens": { type: "string[]", value: ["a", "b"] },
        "tokenizer.ggml.scores": { type: "f32[]", value: [0, 1] },
        "qwen2.context_length": { type: "u32", value: 32_768 },
      },
      [],
    );
    expect(ggufContextLength(file)).toBe(32_768);
  });

  it("says nothing for a header cut short or a file that is not GGUF", () => {
    expect(ggufContextLength(scriptedModelGguf().subarray(0, 60))).toBeUndefined();
    expect(ggufContextLength(new TextEncoder().encode("<html>"))).toBeUndefined();
  });
});
