// The Uploads dialog's rows: a converted document shows its Markdown copy in its own row, other files stand alone.
import { describe, expect, it } from "vitest";
import type { UploadListEntry } from "../../protocol/index.ts";
import { uploadRows } from "./upload-rows.ts";

const file = (filename: string, size = 1): UploadListEntry => ({
  filename,
  size,
  virtual_path: `/mnt/user-data/uploads/${filename}`,
  extension: filename.includes(".") ? filename.slice(filename.lastIndexOf(".")) : "",
  modified: 0,
});

describe("uploadRows", () => {
  it("folds a document's Markdown copy into the document's row", () => {
    const rows = uploadRows([file("notes.md"), file("report.PDF"), file("report.md"), file("data.csv")]);
    expect(rows.map((row) => [row.file.filename, row.markdown?.filename])).toEqual([
      ["notes.md", undefined],
      ["report.PDF", "report.md"],
      ["data.csv", undefined],
    ]);
  });

  it("keeps a Markdown file whose document is not a converted kind as its own row", () => {
    const rows = uploadRows([file("draft.txt"), file("draft.md")]);
    expect(rows.map((row) => row.file.filename)).toEqual(["draft.txt", "draft.md"]);
  });
});
