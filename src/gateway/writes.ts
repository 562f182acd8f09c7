// Every service's writes fail the same readable way when the browser's storage is full, or when another tab's newer
// Fawn made this one step aside.
import { UserError } from "../shared/user-error.ts";
import {
  isClosedConnectionError,
  isQuotaError,
  STORAGE_CLOSED_MESSAGE,
  STORAGE_FULL_MESSAGE,
} from "../storage/index.ts";

/** Runs a write, turning a full storage or a closed connection into a message for the user (nothing was written). */
export async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaError(error)) throw new UserError(STORAGE_FULL_MESSAGE, "conflict");
    if (isClosedConnectionError(error)) throw new UserError(STORAGE_CLOSED_MESSAGE, "conflict");
    throw error;
  }
}
