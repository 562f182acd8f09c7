import { describe, expect, it } from "vitest";
import { UPLOAD_LIMITS, uploadLimitProblem } from "./uploads.ts";

const MiB = 1024 * 1024;
const file = (name: string, size: number) => ({ name, size });

describe("uploadLimitProblem", () => {
  it("has DeerFlow's defaults", () => {
    expect(UPLOAD_LIMITS).toEqual({ max_files: 10, max_file_size: 50 * MiB, max_total_size: 100 * MiB });
  });

  it("accepts up to 10 files of 50 MiB each and 100 MiB in all, and no files at all", () => {
    expect(uploadLimitProblem(Array.from({ length: 10 }, (_, i) => file(`f${i}`, 10 * MiB)))).toBeUndefined();
    expect(uploadLimitProblem([file("a", 50 * MiB), file("b", 50 * MiB)])).toBeUndefined();
    expect(uploadLimitProblem([])).toBeUndefined();
  });

  it("refuses more than 10 files", () => {
    expect(uploadLimitProblem(Array.from({ length: 11 }, (_, i) => file(`f${i}`, 1)))).toBe(
      "You can attach at most 10 files at once; you chose 11.",
    );
  });

  it("refuses a file over 50 MB, naming every file over it and its size", () => {
    expect(uploadLimitProblem([file("small.txt", 10), file("report.pdf", 61.2 * MiB)])).toBe(
      "report.pdf is 61.2 MB; the limit is 50 MB per file.",
    );
    expect(uploadLimitProblem([file("a.bin", 50 * MiB + 1)])).toBe("a.bin is 50.0 MB; the limit is 50 MB per file.");
    expect(uploadLimitProblem([file("a.iso", 60 * MiB), file("b.iso", 70 * MiB)])).toBe(
      "a.iso is 60.0 MB and b.iso is 70.0 MB; the limit is 50 MB per file.",
    );
  });

  it("refuses more than 100 MB together", () => {
    expect(uploadLimitProblem([file("a", 40 * MiB), file("b", 40 * MiB), file("c", 40 * MiB)])).toBe(
      "These files add up to 120.0 MB; the limit is 100 MB per upload.",
    );
  });

  it("applies limits it is given", () => {
    const limits = { max_files: 2, max_file_size: 100, max_total_size: 150 };
    expect(uploadLimitProblem([file("a", 1), file("b", 1), file("c", 1)], limits)).toMatch(/at most 2 files/);
    expect(uploadLimitProblem([file("a", 101)], limits)).toBe("a is 101 B; the limit is 100 B per file.");
    expect(uploadLimitProblem([file("a", 100), file("b", 51)], limits)).toBe(
      "These files add up to 151 B; the limit is 150 B per upload.",
    );
  });
});
