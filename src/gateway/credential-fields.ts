// Credential fields, judged by their names, and JSON values with them removed: what keeps a key that a settings value
// still carries out of a backup (keys themselves live in the secrets store, which a backup never reads).
/** The last word of a credential field's name: `apiKey`, `X-API-Key`, `client_secret`, `accessToken`, `Authorization`. */
const SECRET_WORDS = new Set([
  "apikey",
  "secret",
  "password",
  "passwd",
  "token",
  "bearer",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
]);

/**
 * True when a field holds a credential, judged by its name's words. Keys live in the `secrets` store, which a backup
 * never reads; a settings value that still carries one (an older record, a future setting such as an MCP server's
 * headers) loses it here too. `key` alone names a record, not a credential; `maxTokens` counts tokens.
 */
export function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  const last = words.at(-1);
  if (last === "key") return words.length > 1;
  return last !== undefined && SECRET_WORDS.has(last);
}

/** A JSON-like value with every credential field removed, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !isSecretField(key))
      .map(([key, item]) => [key, withoutSecrets(item)]),
  );
}
