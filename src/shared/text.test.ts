import { describe, expect, it } from "vitest";
import { formatBytes } from "./text.ts";

describe("formatBytes", () => {
  it("counts in powers of 1,024 with one decimal above a kilobyte", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50.0 MB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3.0 TB");
  });
});
