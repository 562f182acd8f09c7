// A GitHub-flavoured Markdown table from rows of cell text, for the document converters (spreadsheets, tables in
// Word files and slides).

/** One cell's text on one line: pipes escaped, line breaks as `<br>`, runs of spaces collapsed. */
function cell(text: string): string {
  return text
    .trim()
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/[ \t]*\r?\n\s*/g, "<br>")
    .replace(/[ \t]+/g, " ");
}

/**
 * The rows as a table whose first row is the header; shorter rows are padded with empty cells. Empty trailing rows
 * and columns are dropped; no rows (or only empty ones) give "".
 */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(cell));
  while (cells.length > 0 && cells.at(-1)!.every((text) => text === "")) cells.pop();
  const width = Math.max(0, ...cells.map((row) => row.findLastIndex((text) => text !== "") + 1));
  if (width === 0) return "";
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, index) => row[index] ?? "").join(" | ")} |`;
  const [header = [], ...body] = cells;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}
