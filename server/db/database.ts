// The server's database: Postgres, either embedded (PGlite, data in a folder, no set-up) or a real one at a
// `postgres://` URL (node-postgres). Both answer the same small interface, every write in one transaction, and both
// are brought to the newest schema (migrations.ts) before anything else reads them.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate } from "./migrations.ts";

/** Runs SQL with `$1`-style parameters; rows come back as plain objects (bytea as Uint8Array, jsonb parsed). */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs several statements with no parameters (a migration). */
  exec(text: string): Promise<void>;
}

export interface Database extends Sql {
  readonly kind: "pglite" | "postgres";
  /** Runs `work` in one transaction (READ COMMITTED): committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A `postgres://` URL (DATABASE_URL); without one, an embedded Postgres. */
  url?: string;
  /** The embedded Postgres's folder; without one, it is held in memory (tests). */
  dataDir?: string;
  /** Connections to a real Postgres (default 10). */
  poolSize?: number;
}

/** The Postgres at DATABASE_URL could not be reached, or refused the login or the database: one sentence. */
export class DatabaseUnreachableError extends Error {
  override name = "DatabaseUnreachableError";
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/** node-postgres's connection failures (a socket's code, or Postgres's 28xxx login and 3D000 no-database) named. */
function unreachable(error: unknown): DatabaseUnreachableError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  const reason = error instanceof Error ? error.message : String(error);
  if (UNREACHABLE.has(code)) {
    return new DatabaseUnreachableError(`The Postgres at DATABASE_URL could not be reached (${reason}).`, {
      cause: error,
    });
  }
  if (code.startsWith("28") || code === "3D000") {
    return new DatabaseUnreachableError(`The Postgres at DATABASE_URL refused the connection (${reason}).`, {
      cause: error,
    });
  }
  return undefined;
}

/** Opens the database and migrates it to the newest schema. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const database = options.url
    ? postgresDatabase(options.url, options.poolSize ?? 10)
    : await pgliteDatabase(options.dataDir);
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw (options.url ? unreachable(error) : undefined) ?? error;
  }
  return database;
}

async function pgliteDatabase(dataDir: string | undefined): Promise<Database> {
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const sqlOf = (runner: Pick<PGlite, "query" | "exec">): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await runner.query<Row>(text, params as unknown[])).rows,
    exec: async (text) => {
      await runner.exec(text);
    },
  });
  return {
    kind: "pglite",
    ...sqlOf(db),
    // PGlite is one connection: its transaction holds it, so other queries wait until it ends.
    transaction: (work) => db.transaction((tx) => work(sqlOf(tx))),
    close: () => db.close(),
  };
}

function postgresDatabase(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server drops (a restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const sqlOf = (runner: Pick<pg.Pool, "query">): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await runner.query(text, params as unknown[])).rows as Row[],
    // Without parameters node-postgres sends the simple protocol, which takes several statements.
    exec: async (text) => {
      await runner.query(text);
    },
  });
  return {
    kind: "postgres",
    ...sqlOf(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      // A checked-out client has no pool listener: its connection cut mid-transaction (Postgres restarting) would be
      // an unhandled 'error' event, which ends the process. Kept here instead, and the client dropped, not reused.
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      client.on("error", onError);
      try {
        await client.query("BEGIN");
        const result = await work(sqlOf(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
