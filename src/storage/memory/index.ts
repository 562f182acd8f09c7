// Fawn's storage held in memory: the table repositories (src/storage/tables/) over MemoryTables, for Node (tests, a
// server without a database) and as the second implementation that keeps the contracts honest (storage-contract.ts).
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { FawnStorage } from "../contracts.ts";
import { TableCheckpointSaver, tableStorage } from "../tables/index.ts";
import { MemoryTables } from "./memory-tables.ts";

export { MemoryTables } from "./memory-tables.ts";

/** LangGraph's checkpointer over memory tables (its own, or `tables` shared with a memoryStorage). */
export class MemoryCheckpointSaver extends TableCheckpointSaver {
  constructor(
    tables: MemoryTables = new MemoryTables(),
    options: { serde?: SerializerProtocol; messageChannels?: readonly string[] } = {},
  ) {
    super(tables, options);
  }
}

/** A new, empty store held in memory; `tables` shares one (two Gateways over the same data, as two tabs). */
export function memoryStorage(tables: MemoryTables = new MemoryTables()): FawnStorage {
  return tableStorage(tables);
}
