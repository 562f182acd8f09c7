// The rows Thread actions → "Uploads" shows: each file the user uploaded, a converted document with its Markdown copy
// beside it rather than as a row of its own (deleting the document deletes the copy too, as the Gateway does).
import type { UploadListEntry } from "../../protocol/index.ts";

/** The documents the Gateway converts to Markdown on upload (src/gateway/uploads/convert-document.ts). */
const CONVERTED = new Set([".pdf", ".docx", ".xlsx", ".pptx"]);

export interface UploadRow {
  file: UploadListEntry;
  /** The document's Markdown copy, when it has one. */
  markdown?: UploadListEntry;
}

/** The uploads as rows, in the listing's order; a Markdown copy is folded into its document's row. */
export function uploadRows(files: readonly UploadListEntry[]): UploadRow[] {
  const byName = new Map(files.map((file) => [file.filename, file]));
  const copies = new Map<string, UploadListEntry>();
  for (const file of files) {
    if (!CONVERTED.has(file.extension.toLowerCase())) continue;
    const copy = byName.get(`${file.filename.slice(0, file.filename.length - file.extension.length)}.md`);
    if (copy) copies.set(file.filename, copy);
  }
  const folded = new Set([...copies.values()].map((copy) => copy.filename));
  return files
    .filter((file) => !folded.has(file.filename))
    .map((file) => {
      const markdown = copies.get(file.filename);
      return markdown ? { file, markdown } : { file };
    });
}
