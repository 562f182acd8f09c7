import { describe, expect, it } from "vitest";
import { toBase64 } from "./base64.ts";

describe("toBase64", () => {
  it("encodes bytes as Node does, including a buffer larger than one slice", () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    expect(toBase64(new Uint8Array())).toBe("");
  });
});
