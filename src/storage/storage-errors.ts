// Storage failures in words a user can act on; a failed transaction has already been rolled back by IndexedDB.

/** True for the browser's "storage is full" error (QuotaExceededError, also when wrapped by an idb abort). */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { name, cause } = error as { name?: unknown; cause?: unknown };
  return name === "QuotaExceededError" || (cause !== undefined && isQuotaError(cause));
}

export const STORAGE_FULL_MESSAGE =
  "This browser's storage for Fawn is full, so the last change was not saved (nothing was half-written). " +
  "Delete threads you no longer need, or free space in the browser, then try again.";

/**
 * True for an IndexedDB call on a connection that has closed: this tab stepped aside (fawn-db.ts, `blocking`) because
 * another tab opened a newer version of the database (Fawn was updated there).
 */
export function isClosedConnectionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === "InvalidStateError" && typeof message === "string" && /connection is (closing|closed)/i.test(message)) {
    return true;
  }
  return cause !== undefined && isClosedConnectionError(cause);
}

export const STORAGE_CLOSED_MESSAGE =
  "Fawn was updated in another tab, so this tab has stopped using its storage (nothing was lost). " +
  "Reload this tab to go on.";
