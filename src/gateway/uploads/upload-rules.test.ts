import { describe, expect, it } from "vitest";
import { uploadLimitProblem } from "../../protocol/index.ts";
import {
  checkUploadLimits,
  claimUniqueFilename,
  markdownCompanionName,
  normalizeFilename,
  splitExtension,
  UploadError,
} from "./upload-rules.ts";

const MiB = 1024 * 1024;

function thrown(run: () => unknown): UploadError {
  try {
    run();
  } catch (error) {
    if (error instanceof UploadError) return error;
    throw error;
  }
  throw new Error("expected an UploadError");
}

describe("normalizeFilename", () => {
  it("keeps a plain name", () => {
    expect(normalizeFilename("report.pdf")).toBe("report.pdf");
    expect(normalizeFilename(".env")).toBe(".env");
    expect(normalizeFilename("résumé final.docx")).toBe("résumé final.docx");
  });

  it("keeps only the last path segment, with slashes or backslashes", () => {
    expect(normalizeFilename("../../etc/passwd")).toBe("passwd");
    expect(normalizeFilename("path/to/file.txt")).toBe("file.txt");
    expect(normalizeFilename("C:\\Users\\me\\notes.md")).toBe("notes.md");
    expect(normalizeFilename("..\\..\\secret.txt")).toBe("secret.txt");
  });

  it("rejects an empty name", () => {
    for (const name of ["", "   ", "dir/", "a\\"]) {
      expect(() => normalizeFilename(name), JSON.stringify(name)).toThrow(/empty/);
    }
  });

  it('rejects "." and ".." as unsafe', () => {
    for (const name of [".", "..", "a/..", "x\\."]) {
      expect(() => normalizeFilename(name), name).toThrow(/unsafe/);
    }
  });

  it("rejects control characters", () => {
    for (const name of ["a\u0000b.txt", "line\nbreak.txt", "tab\t.txt", "del\u007f.txt", "c1\u0085.txt"]) {
      expect(() => normalizeFilename(name), JSON.stringify(name)).toThrow(/control characters/);
    }
  });

  it("rejects a name longer than 255 UTF-8 bytes", () => {
    expect(normalizeFilename(`${"a".repeat(251)}.txt`)).toHaveLength(255);
    expect(() => normalizeFilename(`${"a".repeat(252)}.txt`)).toThrow(/longer than 255 bytes/);
    // 128 two-byte characters are 256 bytes though only 128 characters.
    expect(() => normalizeFilename("é".repeat(128))).toThrow(/longer than 255 bytes/);
  });

  it("throws UploadErrors with status 400", () => {
    expect(thrown(() => normalizeFilename("..")).status).toBe(400);
  });
});

describe("claimUniqueFilename", () => {
  it("returns the name unchanged when nobody has it, and records it", () => {
    const seen = new Set<string>();
    expect(claimUniqueFilename("data.txt", seen)).toBe("data.txt");
    expect(seen).toEqual(new Set(["data.txt"]));
  });

  it("adds _1 before the extension on a clash", () => {
    const seen = new Set(["data.txt"]);
    expect(claimUniqueFilename("data.txt", seen)).toBe("data_1.txt");
    expect(seen).toEqual(new Set(["data.txt", "data_1.txt"]));
  });

  it("takes the first free counter", () => {
    const seen = new Set(["data.txt", "data_1.txt", "data_2.txt"]);
    expect(claimUniqueFilename("data.txt", seen)).toBe("data_3.txt");
    expect(seen.has("data_3.txt")).toBe(true);
  });

  it("counts on the last extension only, and after a name without one", () => {
    expect(claimUniqueFilename("a.tar.gz", new Set(["a.tar.gz"]))).toBe("a.tar_1.gz");
    expect(claimUniqueFilename("Makefile", new Set(["Makefile"]))).toBe("Makefile_1");
    expect(claimUniqueFilename(".env", new Set([".env"]))).toBe(".env_1");
  });

  it("gives a name back when it is deleted from the set", () => {
    const seen = new Set<string>();
    const claimed = claimUniqueFilename("notes.md", seen);
    seen.delete(claimed);
    expect(claimUniqueFilename("notes.md", seen)).toBe("notes.md");
  });
});

describe("splitExtension and markdownCompanionName", () => {
  it("split like Python's PurePath.stem and .suffix", () => {
    expect(splitExtension("report.pdf")).toEqual(["report", ".pdf"]);
    expect(splitExtension("a.tar.gz")).toEqual(["a.tar", ".gz"]);
    expect(splitExtension(".env")).toEqual([".env", ""]);
    expect(splitExtension("trailing.")).toEqual(["trailing.", ""]);
  });

  it("name the Markdown beside a document", () => {
    expect(markdownCompanionName("notes.docx")).toBe("notes.md");
    expect(markdownCompanionName("Q3.report.PDF")).toBe("Q3.report.md");
  });
});

describe("checkUploadLimits", () => {
  const file = (name: string, size: number) => ({ name, size });

  it("accepts an upload at every limit", () => {
    expect(() => checkUploadLimits(Array.from({ length: 10 }, (_, i) => file(`f${i}`, 10 * MiB)))).not.toThrow();
    expect(() => checkUploadLimits([file("a", 50 * MiB), file("b", 50 * MiB)])).not.toThrow();
  });

  it("refuses an upload over a limit with status 413, in uploadLimitProblem's words", () => {
    const files = [file("small.txt", 10), file("report.pdf", 61.2 * MiB)];
    const error = thrown(() => checkUploadLimits(files));
    expect(error.message).toBe(uploadLimitProblem(files));
    expect(error.message).toBe("report.pdf is 61.2 MB; the limit is 50 MB per file.");
    expect(error.status).toBe(413);
    expect(thrown(() => checkUploadLimits(Array.from({ length: 12 }, (_, i) => file(`f${i}`, 1)))).status).toBe(413);
  });

  it("refuses an upload without files with status 400", () => {
    const error = thrown(() => checkUploadLimits([]));
    expect(error.message).toBe("Choose at least one file to upload.");
    expect(error.status).toBe(400);
  });

  it("applies limits it is given", () => {
    const limits = { max_files: 2, max_file_size: 100, max_total_size: 150 };
    expect(() => checkUploadLimits([file("a", 1), file("b", 1), file("c", 1)], limits)).toThrow(/at most 2 files/);
    expect(() => checkUploadLimits([file("a", 100), file("b", 51)], limits)).toThrow(/add up to 151 B/);
  });
});
