import { describe, expect, it } from "vitest";
import { truncateHead, truncateMiddle } from "./output-limits.ts";

describe("truncateMiddle (bash output)", () => {
  it("leaves short output alone, and 0 disables truncation", () => {
    expect(truncateMiddle("short", 100)).toBe("short");
    expect(truncateMiddle("x".repeat(50_000), 0)).toHaveLength(50_000);
  });

  it("never exceeds the limit, keeps head and tail, and reports the exact number skipped", () => {
    const text = `HEAD${"m".repeat(60_000)}TAIL`;
    for (const max of [20_000, 1_000, 200, 80]) {
      const result = truncateMiddle(text, max);
      expect(result.length).toBeLessThanOrEqual(max);
      expect(result.startsWith("HEAD")).toBe(true);
      expect(result.endsWith("TAIL")).toBe(true);
      const skipped = Number(/\[middle truncated: (\d+) chars skipped\]/.exec(result)?.[1]);
      const marker = `\n... [middle truncated: ${skipped} chars skipped] ...\n`;
      expect(result.length - marker.length + skipped).toBe(text.length);
    }
  });
});

describe("truncateHead (read_file and ls output)", () => {
  it("keeps the start and says how much of the whole is shown", () => {
    const result = truncateHead("a".repeat(60_000), 50_000, "Use start_line/end_line to read a specific range");
    expect(result.length).toBeLessThanOrEqual(50_000);
    expect(result).toMatch(/showing first \d+ of 60000 chars\. Use start_line\/end_line/);
    expect(result.startsWith("aaaa")).toBe(true);
  });
});
