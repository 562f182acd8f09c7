// LangGraph's thread metadata, which Fawn's own thread record does not carry: a JSON object per (owner, thread) in
// `fawn_thread_metadata`, merged on patch as LangGraph's server merges it.
import type { Sql } from "../db/database.ts";

export type Metadata = Record<string, unknown>;

/** The metadata of one owner's threads. */
export class ThreadMetadataTable {
  constructor(private readonly db: Sql) {}

  async get(owner: string, threadId: string): Promise<Metadata> {
    const rows = await this.db.query<{ metadata: Metadata }>(
      "SELECT metadata FROM fawn_thread_metadata WHERE owner = $1 AND thread_id = $2",
      [owner, threadId],
    );
    return rows[0]?.metadata ?? {};
  }

  /** Every thread's metadata of `owner` that has any. */
  async all(owner: string): Promise<Map<string, Metadata>> {
    const rows = await this.db.query<{ thread_id: string; metadata: Metadata }>(
      "SELECT thread_id, metadata FROM fawn_thread_metadata WHERE owner = $1",
      [owner],
    );
    return new Map(rows.map((row) => [row.thread_id, row.metadata]));
  }

  /** Adds `patch`'s keys to the thread's metadata (a key given replaces its value); answers the result. */
  async merge(owner: string, threadId: string, patch: Metadata): Promise<Metadata> {
    const rows = await this.db.query<{ metadata: Metadata }>(
      `INSERT INTO fawn_thread_metadata (owner, thread_id, metadata) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (owner, thread_id) DO UPDATE SET metadata = fawn_thread_metadata.metadata || EXCLUDED.metadata
       RETURNING metadata`,
      [owner, threadId, JSON.stringify(patch)],
    );
    return rows[0]?.metadata ?? patch;
  }

  async delete(owner: string, threadId: string): Promise<void> {
    await this.db.query("DELETE FROM fawn_thread_metadata WHERE owner = $1 AND thread_id = $2", [owner, threadId]);
  }
}

/** LangGraph's metadata filter: every key of `filter` holds an equal value (JSON equality) in `metadata`. */
export function matchesMetadata(metadata: Metadata, filter: Metadata | undefined): boolean {
  return Object.entries(filter ?? {}).every(([key, value]) => sameJson(metadata[key], value));
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => sameJson((a as Metadata)[key], (b as Metadata)[key]));
}
