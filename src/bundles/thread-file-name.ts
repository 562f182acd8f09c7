// The name an exported thread downloads under (Thread actions → Export): made from its title, cleaned for every file
// system and for people reading a downloads folder.

/** The longest name part taken from a title, in characters (code points). */
export const FILE_NAME_MAX_CHARS = 60;

/** Names Windows keeps for devices, whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * `<cleaned title><extension>`: the title's letters (of any script, with their accents) and digits, every run of
 * anything else (spaces, punctuation, braces, quotes, emoji, path separators) made one dash, at most 60 characters,
 * cut at a dash where one falls in the second half; "thread" when nothing is left.
 */
export function threadFileName(title: string, extension: string): string {
  const words = title.normalize("NFC").match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  let base = words.join("-");
  const chars = [...base];
  if (chars.length > FILE_NAME_MAX_CHARS) {
    const cut = chars.slice(0, FILE_NAME_MAX_CHARS + 1).join("");
    const dash = cut.lastIndexOf("-");
    base = dash >= cut.length / 2 ? cut.slice(0, dash) : chars.slice(0, FILE_NAME_MAX_CHARS).join("");
  }
  base = base.replace(/^-+|-+$/g, "");
  if (RESERVED.test(base)) base = `${base}-thread`;
  return `${base || "thread"}${extension}`;
}
