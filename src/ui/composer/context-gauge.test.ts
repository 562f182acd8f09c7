import { describe, expect, it } from "vitest";
import { contextPercent, formatPercent, formatWindow, gaugeLevel } from "./context-gauge.ts";

describe("the context gauge", () => {
  it("gives the share of the window in percent, with one decimal", () => {
    expect(contextPercent(15_360, 128_000)).toBe(12);
    expect(contextPercent(500, 128_000)).toBe(0.4);
    expect(contextPercent(256_000, 128_000)).toBe(200);
    expect(contextPercent(0, 128_000)).toBe(0);
    expect(contextPercent(100, 0)).toBe(0);
  });

  it("writes the share whole from 1%, with a decimal below, and a sliver as <0.1", () => {
    expect(formatPercent(12)).toBe("12");
    expect(formatPercent(12.6)).toBe("13");
    expect(formatPercent(0.4)).toBe("0.4");
    expect(formatPercent(0.04)).toBe("<0.1");
    expect(formatPercent(0)).toBe("0");
  });

  it("writes the window as people say it", () => {
    expect(formatWindow(128_000)).toBe("128k");
    expect(formatWindow(200_000)).toBe("200k");
    expect(formatWindow(32_768)).toBe("33k");
    expect(formatWindow(1_000_000)).toBe("1M");
    expect(formatWindow(1_048_576)).toBe("1M");
    expect(formatWindow(1_500_000)).toBe("1.5M");
    expect(formatWindow(512)).toBe("512");
  });

  it("looks high from 70% and full from 90%", () => {
    expect(gaugeLevel(12)).toBe("ok");
    expect(gaugeLevel(70)).toBe("high");
    expect(gaugeLevel(95)).toBe("full");
  });
});
