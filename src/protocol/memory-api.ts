// The memory domain's contract (`gateway.memory`): Settings → Memory's document, facts and settings.
import type { MemoryDocument, MemoryFactInput, MemorySettings } from "./memory.ts";

export interface MemoryApi {
  /** The long-term memory (Settings → Memory); also what "Export" saves. */
  get(): Promise<MemoryDocument>;
  /** Adds a fact; rejects an empty or duplicate content (case and surrounding spaces ignored) or a bad confidence. */
  addFact(fact: MemoryFactInput & { content: string }): Promise<MemoryDocument>;
  /** Changes a fact; omitted fields stay. Rejects an unknown id. */
  updateFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument>;
  deleteFact(id: string): Promise<MemoryDocument>;
  /** Forgets everything, and drops updates not yet applied. */
  clear(): Promise<MemoryDocument>;
  /** Replaces the memory with an exported document, validated whole first; a bad one changes nothing. */
  import(document: unknown): Promise<MemoryDocument>;
  getSettings(): Promise<MemorySettings>;
  saveSettings(settings: MemorySettings): Promise<MemorySettings>;
  /** Applies the memory updates still waiting for their delay (the page is being hidden or closed). */
  flush(): Promise<void>;
}
