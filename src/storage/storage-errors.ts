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

/**
 * Postgres' SQLSTATE classes a server's storage fails with when the database went away: connection exceptions (08…)
 * and an operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
 */
const DATABASE_GONE_CODES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]);
/** Node's socket errors as a database driver throws them itself (a model's fetch wraps them in `cause` instead). */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);

/**
 * True for a server's database that went away mid-run (Postgres restarted or unreachable): the driver's own error,
 * never a model's fetch failure, whose socket error is only its `cause`.
 */
export function isDatabaseGoneError(error: unknown, { followCause = false }: { followCause?: boolean } = {}): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, syscall, cause } = error as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
    cause?: unknown;
  };
  if (typeof code === "string" && DATABASE_GONE_CODES.has(code)) return true;
  if (typeof code === "string" && SOCKET_CODES.has(code) && syscall !== undefined) return true;
  if (typeof message === "string" && /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message))
    return true;
  // Where no model is called (a run's start and end: its storage only), a wrapped driver error counts too.
  return followCause && cause !== undefined && isDatabaseGoneError(cause, { followCause });
}

export const DATABASE_GONE_MESSAGE =
  "The server lost its database in the middle of this reply; what was saved before is kept. " +
  "Press Continue once the server is back.";
