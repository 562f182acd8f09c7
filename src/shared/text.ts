// Small text helpers shared by the worker and the UI.

/** A one-line title from the first words of a message: whitespace collapsed, cut at a word near `max`. */
export function titleFromText(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length === 0) return "New thread";
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A byte count as people read it: "512 B", "12.3 KB", "4.0 MB" (powers of 1,024, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
