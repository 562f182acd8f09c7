// A run that failed because its storage did (a full browser storage, a tab that stepped aside for a newer Fawn, a
// server whose Postgres went away), as the run's error: one sentence and a code, the same wherever the run failed.
import type { RunError } from "../../protocol/index.ts";
import {
  DATABASE_GONE_MESSAGE,
  isClosedConnectionError,
  isDatabaseGoneError,
  isQuotaError,
  STORAGE_CLOSED_MESSAGE,
  STORAGE_FULL_MESSAGE,
} from "../../storage/index.ts";

/**
 * The run's error when `error` is a storage failure, else undefined. `followCause` also looks inside wrapped errors:
 * only where no model is called (a model's fetch failure carries a socket error as its cause).
 */
export function storageRunError(error: unknown, { followCause = false } = {}): RunError | undefined {
  if (isQuotaError(error)) return { error: "storage_full", message: STORAGE_FULL_MESSAGE };
  if (isClosedConnectionError(error)) return { error: "unknown", message: STORAGE_CLOSED_MESSAGE };
  if (isDatabaseGoneError(error, { followCause })) return { error: "server_error", message: DATABASE_GONE_MESSAGE };
  return undefined;
}
