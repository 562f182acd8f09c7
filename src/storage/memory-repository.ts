// The long-term memory document in IndexedDB: one record of the `settings` store, changed in one transaction each.
import { emptyMemoryDocument, type MemoryDocument, type MemoryFact, type MemorySection } from "../protocol/index.ts";
import type { FawnDb } from "./fawn-db.ts";
import type { MemoryStorage } from "./contracts.ts";

/** The settings record holding the memory document. */
export const MEMORY_DOCUMENT_KEY = "memory.document";

export interface MemoryRepositoryOptions {
  /**
   * Reads a stored value as a document, undefined when it is not one. By default a structural check; the worker
   * may pass the agent's stricter parser (storage cannot import it).
   */
  parse?: (value: unknown) => MemoryDocument | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isSection(value: unknown): value is MemorySection {
  return isRecord(value) && typeof value.summary === "string" && typeof value.updatedAt === "string";
}

function isFact(value: unknown): value is MemoryFact {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.content === "string" &&
    typeof value.category === "string" &&
    typeof value.confidence === "number" &&
    typeof value.createdAt === "string" &&
    typeof value.source === "string" &&
    (value.sourceError === undefined || typeof value.sourceError === "string")
  );
}

/** True when `value` has the shape of a MemoryDocument (the fields' meaning is the agent's to check). */
export function isMemoryDocumentShape(value: unknown): value is MemoryDocument {
  if (!isRecord(value) || value.version !== "1.0" || typeof value.lastUpdated !== "string") return false;
  const { user, history, facts } = value;
  return (
    isRecord(user) &&
    isSection(user.workContext) &&
    isSection(user.personalContext) &&
    isSection(user.topOfMind) &&
    isRecord(history) &&
    isSection(history.recentMonths) &&
    isSection(history.earlierContext) &&
    isSection(history.longTermBackground) &&
    Array.isArray(facts) &&
    facts.every(isFact)
  );
}

/**
 * The memory document, stored whole under `memory.document` in `settings`. Structurally a MemoryStore of the
 * agent's memory updater.
 */
export class MemoryRepository implements MemoryStorage {
  private readonly parse: (value: unknown) => MemoryDocument | undefined;

  constructor(
    private readonly db: FawnDb,
    options: MemoryRepositoryOptions = {},
  ) {
    this.parse = options.parse ?? ((value) => (isMemoryDocumentShape(value) ? value : undefined));
  }

  /** The stored document; an empty one when none is stored or the stored one is unreadable. */
  async read(): Promise<MemoryDocument> {
    return this.documentOf((await this.db.get("settings", MEMORY_DOCUMENT_KEY))?.value);
  }

  /**
   * Reads the document, applies `change` (synchronous: the transaction must not wait on anything else) and writes
   * the result, all in one readwrite transaction, so no concurrent change is lost. When `change` throws, nothing is
   * written and the error is rethrown.
   */
  async update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument> {
    const tx = this.db.transaction("settings", "readwrite");
    const current = this.documentOf((await tx.store.get(MEMORY_DOCUMENT_KEY))?.value);
    let next: MemoryDocument;
    try {
      next = change(current);
    } catch (error) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw error;
    }
    await Promise.all([tx.store.put({ key: MEMORY_DOCUMENT_KEY, value: next }), tx.done]);
    return next;
  }

  /** Stores `doc` in place of the current document (import, clear). */
  async replace(doc: MemoryDocument): Promise<void> {
    await this.db.put("settings", { key: MEMORY_DOCUMENT_KEY, value: doc });
  }

  private documentOf(value: unknown): MemoryDocument {
    if (value === undefined) return emptyMemoryDocument();
    try {
      return this.parse(value) ?? emptyMemoryDocument();
    } catch {
      return emptyMemoryDocument();
    }
  }
}
