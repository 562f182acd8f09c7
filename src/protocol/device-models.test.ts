import { describe, expect, it } from "vitest";
import { deviceContextWindow, deviceModelDownloadUrl, deviceModelId } from "./device-models.ts";
import { servesBackgroundWork } from "./model-endpoints.ts";

describe("device model addresses and ids", () => {
  it("turns a Hugging Face file page into its download address, other addresses as they are", () => {
    expect(deviceModelDownloadUrl(" https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/blob/main/q.gguf ")).toBe(
      "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/q.gguf",
    );
    expect(deviceModelDownloadUrl("https://hf.co/a/b/blob/v1/dir/m.gguf")).toBe(
      "https://hf.co/a/b/resolve/v1/dir/m.gguf",
    );
    expect(deviceModelDownloadUrl("https://example.com/a/b/blob/main/m.gguf")).toBe(
      "https://example.com/a/b/blob/main/m.gguf",
    );
    expect(() => deviceModelDownloadUrl("not a url")).toThrow();
  });

  it("makes a file name an id of letters, digits, dots, dashes and underscores", () => {
    expect(deviceModelId("Qwen2.5 0.5B (Q4_K_M).gguf")).toBe("qwen2.5-0.5b-q4_k_m-.gguf");
    expect(deviceModelId("../../etc/passwd")).toBe("etc-passwd");
    expect(deviceModelId("???")).toBe("model.gguf");
  });
});

describe("on-device models in the background and their context window", () => {
  it("leaves memory updates and suggestions to other models", () => {
    expect(servesBackgroundWork({ provider: "on-device" })).toBe(false);
    expect(servesBackgroundWork({ provider: "openai-compatible" })).toBe(true);
    expect(servesBackgroundWork({})).toBe(true);
    expect(servesBackgroundWork(undefined)).toBe(false);
  });

  it("starts a kept file at 16,384 tokens, or less when the model was trained for less", () => {
    expect(deviceContextWindow({ contextLength: 32_768 })).toBe(16_384);
    expect(deviceContextWindow({ contextLength: 4_096 })).toBe(4_096);
    expect(deviceContextWindow({})).toBe(16_384);
  });
});
