import { describe, expect, it } from "vitest";
import { suitsPrefetch } from "./lazy-parts-idle.ts";

describe("suitsPrefetch", () => {
  it("caches the lazy groups online on an ordinary connection, or where the browser does not describe it", () => {
    expect(suitsPrefetch({ onLine: true })).toBe(true);
    expect(suitsPrefetch({ onLine: true, connection: { effectiveType: "4g", type: "wifi", saveData: false } })).toBe(
      true,
    );
    expect(suitsPrefetch({ onLine: true, connection: { effectiveType: "3g" } })).toBe(true);
  });

  it("waits when offline, with Save-Data, on a cellular or a 2G connection", () => {
    expect(suitsPrefetch({ onLine: false })).toBe(false);
    expect(suitsPrefetch({ onLine: true, connection: { saveData: true } })).toBe(false);
    expect(suitsPrefetch({ onLine: true, connection: { type: "cellular", effectiveType: "4g" } })).toBe(false);
    expect(suitsPrefetch({ onLine: true, connection: { effectiveType: "slow-2g" } })).toBe(false);
    expect(suitsPrefetch({ onLine: true, connection: { effectiveType: "2g" } })).toBe(false);
  });
});
