// Every service's writes fail the same readable way when the browser's storage is full.
import { UserError } from "../shared/user-error.ts";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../storage/index.ts";

/** Runs a write, turning a full-storage failure into a message for the user (nothing was written). */
export async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaError(error)) throw new UserError(STORAGE_FULL_MESSAGE, "conflict");
    throw error;
  }
}
