import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64, toBase64Url } from "./base64.ts";

describe("toBase64", () => {
  it("encodes bytes as Node does, including a buffer larger than one slice", () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    expect(toBase64(new Uint8Array())).toBe("");
  });
});

describe("base64url", () => {
  it("encodes as Node does and reads back every length", () => {
    for (const length of [0, 1, 2, 3, 4, 5, 1000]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 97 + 251) % 256);
      const text = toBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64url"));
      expect(fromBase64Url(text)).toEqual(bytes);
    }
  });

  it("refuses text that is not base64url", () => {
    expect(fromBase64Url("ab+c")).toBeUndefined();
    expect(fromBase64Url("abc=")).toBeUndefined();
    expect(fromBase64Url("abcde")).toBeUndefined();
  });
});
