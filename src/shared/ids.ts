// Identifiers: random UUIDs from the platform's crypto (browser, worker and Node alike).

export function newId(): string {
  return crypto.randomUUID();
}
