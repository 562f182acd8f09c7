// The storage contract (storage-contract.ts) against IndexedDB, in Node over fake-indexeddb. The in-memory store runs
// it in memory/memory-storage.test.ts, Chromium's real IndexedDB in test/storage-browser/.
import "fake-indexeddb/auto";
import { describe, it } from "vitest";
import { openFawnDb } from "./fawn-db.ts";
import { indexedDbStorage } from "./indexeddb-storage.ts";
import { STORAGE_CONTRACT } from "./storage-contract.ts";
import type { FawnStorage } from "./contracts.ts";

/** Runs every check of the contract, each on fresh, empty storage from `open`. */
export function describeStorageContract(name: string, open: () => Promise<FawnStorage>): void {
  describe(`Storage contract: ${name}`, () => {
    for (const check of STORAGE_CONTRACT) it(check.name, async () => check.run(await open(), await open()));
  });
}

let count = 0;
describeStorageContract("IndexedDB (fake-indexeddb)", async () =>
  indexedDbStorage(await openFawnDb(`storage-contract-${count++}`)),
);
