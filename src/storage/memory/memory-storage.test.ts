// The storage contract (storage-contract.ts) and LangGraph's checkpoint validation against the in-memory store, in a
// Node with no IndexedDB at all (fake-indexeddb is not loaded here).
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { describe, expect, it } from "vitest";
import { STORAGE_CONTRACT } from "../storage-contract.ts";
import { memoryStorage, MemoryCheckpointSaver, MemoryTables } from "./index.ts";

describe("the in-memory store", () => {
  it("runs where there is no IndexedDB", async () => {
    // Other test files in the same worker may have installed a fake IndexedDB (unit tests share workers).
    const installed = Object.getOwnPropertyDescriptor(globalThis, "indexedDB");
    if (installed) delete (globalThis as { indexedDB?: unknown }).indexedDB;
    try {
      expect(typeof indexedDB).toBe("undefined");
      const check = STORAGE_CONTRACT[0]!;
      await check.run(memoryStorage(), memoryStorage());
    } finally {
      if (installed) Object.defineProperty(globalThis, "indexedDB", installed);
    }
  });
});

describe("Storage contract: memory", () => {
  for (const check of STORAGE_CONTRACT) it(check.name, () => check.run(memoryStorage(), memoryStorage()));
});

validate({
  checkpointerName: "MemoryCheckpointSaver",
  createCheckpointer: () => new MemoryCheckpointSaver(new MemoryTables()),
  destroyCheckpointer: async () => undefined,
});
