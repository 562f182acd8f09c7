// Document → Markdown for uploads (DeerFlow's `file_conversion.py`): PDF, DOCX, XLSX and PPTX. Each converter and
// its library (pdfjs-dist, mammoth, read-excel-file, fflate) is imported on first use, so it is a chunk of its own and
// never part of the agent worker's first chunk. Everything runs in the calling thread, offline, with no DOM: in the
// agent worker, and in Node for tests. The old binary formats (.doc, .xls, .ppt) have no library here that reads them
// offline in a browser, so they are not converted.
import { splitExtension } from "./upload-rules.ts";

type Converter = (bytes: Uint8Array, signal?: AbortSignal) => Promise<string>;

const CONVERTERS: Readonly<Record<string, () => Promise<Converter>>> = {
  ".pdf": async () => (await import("./pdf-to-markdown.ts")).pdfToMarkdown,
  ".docx": async () => (await import("./docx-to-markdown.ts")).docxToMarkdown,
  ".xlsx": async () => (await import("./xlsx-to-markdown.ts")).xlsxToMarkdown,
  ".pptx": async () => (await import("./pptx-to-markdown.ts")).pptxToMarkdown,
};

/** The extensions converted to Markdown, lowercase with the dot. */
export const CONVERTIBLE_EXTENSIONS = Object.keys(CONVERTERS);

function extensionOf(filename: string): string {
  return splitExtension(filename)[1].toLowerCase();
}

/** True when `convertToMarkdown` can convert a file of this name (by extension, case-insensitive). */
export function isConvertible(filename: string): boolean {
  return Object.hasOwn(CONVERTERS, extensionOf(filename));
}

/**
 * The document's text as Markdown, starting with `# <filename>`. Rejects with an Error whose message says why (in
 * words a user can read, e.g. "the PDF is protected by a password") when the file cannot be read, has no text, or is
 * not convertible. `bytes` is left as it was. When `signal` aborts, a PDF's parsing stops and the promise rejects.
 */
export async function convertToMarkdown(filename: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
  const load = isConvertible(filename) ? CONVERTERS[extensionOf(filename)] : undefined;
  if (!load) throw new Error(`${filename} is not a PDF, DOCX, XLSX or PPTX file`);
  const convert = await load();
  const body = (await convert(bytes, signal)).trim();
  if (body === "") throw new Error(`${filename} has no text to convert`);
  return `# ${filename}\n\n${body}\n`;
}
