// Asking the browser not to evict Fawn's data: at start (main.tsx) and from Settings → Data.

/** Asks the browser to keep Fawn's data under storage pressure; true when it agreed. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}
