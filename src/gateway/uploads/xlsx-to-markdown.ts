// XLSX → Markdown with read-excel-file (its universal build: an ArrayBuffer in, no DOM, no Node): every sheet under a
// `## <sheet name>` heading as a table whose first row is the header. Loaded on demand by convert-document.ts.
import readXlsxFile from "read-excel-file/universal";
import { markdownTable } from "./markdown-table.ts";
import { unreadableOfficeFile, unzipOfficeFile } from "./office-zip.ts";

/** A cell as text: dates as ISO dates (with the time when there is one), everything else as JavaScript prints it. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(/\.000Z$/, "Z");
  }
  return String(value);
}

/** The workbook's sheets, in order, as Markdown tables (an empty sheet says so). */
export async function xlsxToMarkdown(bytes: Uint8Array): Promise<string> {
  unzipOfficeFile(bytes, () => false);
  // A copy of exactly these bytes: a Node Buffer's slice() is a view, whose `.buffer` may be Node's shared pool.
  const sheets = await readXlsxFile(new Uint8Array(bytes).buffer).catch((error: unknown) => {
    throw unreadableOfficeFile(error, "workbook");
  });
  return sheets
    .map(({ sheet, data }) => {
      const table = markdownTable(data.map((row) => row.map(cellText)));
      return `## ${sheet}\n\n${table === "" ? "_(empty sheet)_" : table}`;
    })
    .join("\n\n");
}
