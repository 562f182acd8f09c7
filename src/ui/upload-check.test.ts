import { describe, expect, it } from "vitest";
import { uploadProblem } from "./upload-check.ts";

const MiB = 1024 * 1024;

describe("upload check", () => {
  it("accepts up to 10 files of 50 MiB each and 100 MiB in all", () => {
    expect(uploadProblem(Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, size: 10 * MiB })))).toBeUndefined();
    expect(
      uploadProblem([
        { name: "a", size: 50 * MiB },
        { name: "b", size: 50 * MiB },
      ]),
    ).toBeUndefined();
  });

  it("refuses an eleventh file, a file over 50 MiB and a total over 100 MiB, naming the problem", () => {
    expect(uploadProblem(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, size: 1 })))).toBe(
      "You can attach at most 10 files to a message; you chose 11.",
    );
    expect(uploadProblem([{ name: "video.mp4", size: 61 * MiB }])).toBe(
      "video.mp4 is 61.0 MB; a file can be at most 50.0 MB.",
    );
    expect(uploadProblem([50, 50, 1].map((size, i) => ({ name: `p${i}`, size: size * MiB })))).toBe(
      "These files add up to 101.0 MB; a message can carry at most 100.0 MB.",
    );
  });
});
