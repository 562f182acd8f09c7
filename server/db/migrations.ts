// The server's schema, as numbered migrations applied in order, each once, each in its own transaction, under an
// advisory lock so replicas starting together do not race. A migration, once released, is never edited: a change
// is a new one at the end.
import type { Database } from "./database.ts";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "rows, users, thread metadata, runs and their events",
    sql: `
      -- Fawn's stores (src/storage/fawn-db.ts) as rows, one set per user: the key in IndexedDB's order as bytes
      -- (sort_key), the key itself as JSON, the value in V8's structured-clone format.
      CREATE TABLE fawn_rows (
        owner text NOT NULL,
        store text NOT NULL,
        sort_key bytea NOT NULL,
        key text NOT NULL,
        value bytea NOT NULL,
        PRIMARY KEY (owner, store, sort_key)
      );
      -- The people a server answers; only a hash of each token is kept.
      CREATE TABLE fawn_users (
        user_id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- LangGraph's thread metadata, which Fawn's own thread record does not carry.
      CREATE TABLE fawn_thread_metadata (
        owner text NOT NULL,
        thread_id text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        PRIMARY KEY (owner, thread_id)
      );
      -- Runs as LangGraph's API knows them: queued (pending), owned by one replica through a lease while running,
      -- then ended. "cancel" is a request any replica can write and the owner acts on.
      CREATE TABLE fawn_runs (
        run_id text PRIMARY KEY,
        owner text NOT NULL,
        thread_id text NOT NULL,
        assistant_id text NOT NULL,
        status text NOT NULL,
        multitask_strategy text NOT NULL DEFAULT 'reject',
        kwargs jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        replica text,
        lease_until timestamptz,
        cancel text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX fawn_runs_by_thread ON fawn_runs (owner, thread_id, created_at);
      CREATE INDEX fawn_runs_waiting ON fawn_runs (created_at) WHERE status = 'pending';
      -- Every event of a run's stream, numbered, so a join on any replica replays and then follows it.
      CREATE TABLE fawn_run_events (
        run_id text NOT NULL,
        seq integer NOT NULL,
        event text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
];

/** A lock id only migrations take (pg_advisory_xact_lock), so two replicas starting at once migrate once. */
const MIGRATION_LOCK = 7_402_118;

/** Applies the migrations the database has not had yet; returns the versions applied. */
export async function migrate(database: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return database.transaction(async (sql) => {
    await sql.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await sql.query(`CREATE TABLE IF NOT EXISTS fawn_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await sql.query<{ version: number }>("SELECT version FROM fawn_migrations")).map((row) => row.version),
    );
    const newest = Math.max(0, ...done);
    const known = Math.max(0, ...migrations.map((migration) => migration.version));
    if (newest > known) {
      throw new Error(
        `The database is at schema version ${newest}, newer than this Fawn server knows (${known}). Update the server.`,
      );
    }
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await sql.exec(migration.sql);
      await sql.query("INSERT INTO fawn_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
