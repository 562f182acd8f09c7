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
