// Removes stored secrets (API keys) from text before it is stored or shown: a provider or a tool may echo a key back.

/** What a secret is replaced by. */
export const REDACTED_KEY = "[redacted key]";

/** Secrets shorter than this are not looked for: they would match ordinary words, and no real key is that short. */
export const MIN_SECRET_LENGTH = 4;

/** The ways a secret can appear in text: as is, trimmed, URL-encoded (a query string) and JSON-escaped. */
function forms(secret: string): string[] {
  const trimmed = secret.trim();
  const found = new Set([secret, trimmed]);
  try {
    found.add(encodeURIComponent(trimmed));
  } catch {
    // a lone surrogate: there is no URL-encoded form
  }
  found.add(JSON.stringify(trimmed).slice(1, -1));
  return [...found].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A function that replaces every occurrence of any of `secrets` in a text with `[redacted key]`. One pass over the
 * text, longest secret first, so a key that contains another is replaced whole and a replacement is never searched
 * again. Empty and very short secrets are ignored.
 */
export function secretRedactor(secrets: Iterable<string | null | undefined>): (text: string) => string {
  const all = new Set<string>();
  for (const secret of secrets) if (typeof secret === "string") for (const form of forms(secret)) all.add(form);
  if (all.size === 0) return (text) => text;
  const pattern = new RegExp(
    [...all]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  return (text) => text.replace(pattern, REDACTED_KEY);
}

/** `text` with every occurrence of any of `secrets` replaced by `[redacted key]` (see secretRedactor). */
export function redactSecrets(text: string, secrets: Iterable<string | null | undefined>): string {
  return secretRedactor(secrets)(text);
}
