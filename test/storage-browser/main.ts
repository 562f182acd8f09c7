// The storage contract page (test/storage-browser/run.ts builds, serves and drives it in Chromium): every check of
// src/storage/storage-contract.ts against the browser's real IndexedDB, each on fresh databases.
import { deleteDB } from "idb";
import { openFawnDb, type FawnDb } from "../../src/storage/fawn-db.ts";
import { indexedDbStorage } from "../../src/storage/indexeddb-storage.ts";
import { STORAGE_CONTRACT } from "../../src/storage/storage-contract.ts";

export interface ContractResult {
  name: string;
  /** Undefined when the check passed. */
  error?: string;
}

declare global {
  interface Window {
    fawnStorageContract: () => Promise<ContractResult[]>;
  }
}

window.fawnStorageContract = async () => {
  const results: ContractResult[] = [];
  let count = 0;
  for (const check of STORAGE_CONTRACT) {
    const names = [`contract-${count++}`, `contract-${count++}`];
    const dbs: FawnDb[] = await Promise.all(names.map((name) => openFawnDb(name)));
    try {
      await check.run(indexedDbStorage(dbs[0] as FawnDb), indexedDbStorage(dbs[1] as FawnDb));
      results.push({ name: check.name });
    } catch (error) {
      results.push({
        name: check.name,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    } finally {
      for (const db of dbs) db.close();
      await Promise.all(names.map((name) => deleteDB(name)));
    }
  }
  return results;
};
