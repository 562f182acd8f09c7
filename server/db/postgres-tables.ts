// One user's Fawn tables (src/storage/tables/) in Postgres: every store's rows in `fawn_rows`, scoped by `owner`, the
// key as order-preserving bytes (postgres-tables-keys.ts) so key order and prefix ranges are SQL, the value in V8's
// structured-clone format (what IndexedDB stores). One SQL statement per call; a write is BEGIN, an advisory lock on
// the owner (a user's writes take turns across replicas, as one IndexedDB's do across tabs), its statements, COMMIT.
import { DefaultDeserializer, DefaultSerializer } from "node:v8";
import {
  keyOf,
  type Key,
  type KeyMatch,
  type ReadOptions,
  type StoreName,
  type TableReader,
  type Tables,
  type TableTransaction,
} from "../../src/storage/index.ts";
import type { Database, Sql } from "./database.ts";
import { encodeKey, matchPrefix, prefixEnd } from "./postgres-tables-keys.ts";

/** The first of the advisory lock's two keys: this lock space is the rows' owners (the second key, a hash of one). */
const OWNER_LOCK_SPACE = 0x46_61_77_6e; // "Fawn"

/** Node's hooks for typed arrays (node:v8 DefaultSerializer/DefaultDeserializer), which its types leave out. */
interface HostObjectHooks {
  _writeHostObject(object: object): void;
  _readHostObject(): unknown;
}
const nodeSerializer = DefaultSerializer.prototype as unknown as HostObjectHooks;
const nodeDeserializer = DefaultDeserializer.prototype as unknown as HostObjectHooks;

/** Node's serializer, but a Buffer is stored as the Uint8Array structured clone makes of it (only its own bytes). */
class CloneSerializer extends DefaultSerializer {
  _writeHostObject(object: object): void {
    const view = Buffer.isBuffer(object) ? new Uint8Array(object.buffer, object.byteOffset, object.length) : object;
    nodeSerializer._writeHostObject.call(this, view);
  }
}

/** Node's deserializer, but each typed array gets its own buffer (as structured clone gives), not a view of the row. */
class CloneDeserializer extends DefaultDeserializer {
  _readHostObject(): unknown {
    const view = nodeDeserializer._readHostObject.call(this) as ArrayBufferView;
    if (view instanceof DataView) {
      return new DataView(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
    }
    if (Buffer.isBuffer(view)) return new Uint8Array(view);
    return (view as Uint8Array).slice();
  }
}

function serialize(value: unknown): Buffer {
  const serializer = new CloneSerializer();
  serializer.writeHeader();
  try {
    serializer.writeValue(value);
  } catch (error) {
    throw new DOMException(error instanceof Error ? error.message : String(error), "DataCloneError");
  }
  return serializer.releaseBuffer();
}

function deserialize(bytes: Uint8Array): unknown {
  const deserializer = new CloneDeserializer(bytes);
  deserializer.readHeader();
  return deserializer.readValue();
}

/**
 * How value bytes cross to the database. PGlite turns a bytea parameter or column into bytes slowly (about 0.5 s a
 * megabyte here), yet moves text fast, so over PGlite values travel as base64 in and hex out (15× faster for a 5 MB
 * upload); node-postgres moves bytea as it is.
 */
interface ValueTransfer {
  /** The SQL that takes parameter `$n` as the value's bytes. */
  param(n: number): string;
  /** The select-list item that reads the value column. */
  column: string;
  encode(bytes: Buffer): unknown;
  decode(value: unknown): Uint8Array;
}

const NATIVE_BYTES: ValueTransfer = {
  param: (n) => `$${n}`,
  column: "value",
  encode: (bytes) => bytes,
  decode: (value) => value as Uint8Array,
};

const TEXT_BYTES: ValueTransfer = {
  param: (n) => `decode($${n}, 'base64')`,
  column: "encode(value, 'hex') AS value",
  encode: (bytes) => bytes.toString("base64"),
  decode: (value) => Buffer.from(value as string, "hex"),
};

/** `AND …` limiting the rows to those `match` covers, with its parameters numbered from `next`. */
function matchSql(match: KeyMatch | undefined, next: number): { sql: string; params: unknown[] } {
  if (match === undefined) return { sql: "", params: [] };
  const start = matchPrefix(match);
  const end = prefixEnd(start);
  return end
    ? { sql: ` AND sort_key >= $${next} AND sort_key < $${next + 1}`, params: [start, end] }
    : { sql: ` AND sort_key >= $${next}`, params: [start] };
}

function orderSql(options: ReadOptions = {}): string {
  const limit = options.limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.floor(options.limit))}`;
  return ` ORDER BY sort_key${options.reverse ? " DESC" : ""}${limit}`;
}

function reader(sql: Sql, owner: string, bytes: ValueTransfer): TableReader {
  const where = "owner = $1 AND store = $2";
  return {
    get: async (name, key) => {
      const rows = await sql.query<{ value: unknown }>(
        `SELECT ${bytes.column} FROM fawn_rows WHERE ${where} AND sort_key = $3`,
        [owner, name, encodeKey(key)],
      );
      return (rows[0] ? deserialize(bytes.decode(rows[0].value)) : undefined) as never;
    },
    getMany: async (name, keys) => {
      const encoded = keys.map((key) => encodeKey(key).toString("hex"));
      const rows = await sql.query<{ sort_key: Uint8Array; value: unknown }>(
        `SELECT sort_key, ${bytes.column} FROM fawn_rows
         WHERE ${where} AND sort_key = ANY (SELECT decode(hex, 'hex') FROM unnest($3::text[]) AS hex)`,
        [owner, name, [...new Set(encoded)]],
      );
      const byKey = new Map(rows.map((row) => [Buffer.from(row.sort_key).toString("hex"), row.value]));
      return encoded.map((hex) => {
        const value = byKey.get(hex);
        return value === undefined ? undefined : deserialize(bytes.decode(value));
      }) as never;
    },
    has: async (name, key) =>
      (await sql.query(`SELECT 1 FROM fawn_rows WHERE ${where} AND sort_key = $3`, [owner, name, encodeKey(key)]))
        .length > 0,
    all: async (name, match, options) => {
      const range = matchSql(match, 3);
      const rows = await sql.query<{ value: unknown }>(
        `SELECT ${bytes.column} FROM fawn_rows WHERE ${where}${range.sql}${orderSql(options)}`,
        [owner, name, ...range.params],
      );
      return rows.map((row) => deserialize(bytes.decode(row.value))) as never;
    },
    keys: async (name, match, options) => {
      const range = matchSql(match, 3);
      const rows = await sql.query<{ key: string }>(
        `SELECT key FROM fawn_rows WHERE ${where}${range.sql}${orderSql(options)}`,
        [owner, name, ...range.params],
      );
      return rows.map((row) => JSON.parse(row.key) as Key);
    },
    count: async (name, match) => {
      const range = matchSql(match, 3);
      const rows = await sql.query<{ count: number | string }>(
        `SELECT count(*)::int AS count FROM fawn_rows WHERE ${where}${range.sql}`,
        [owner, name, ...range.params],
      );
      return Number(rows[0]?.count ?? 0);
    },
  };
}

function transaction(sql: Sql, owner: string, bytes: ValueTransfer): TableTransaction {
  const row = (name: StoreName, value: unknown) => {
    const key = keyOf(name, value);
    return [owner, name, encodeKey(key), JSON.stringify(key), bytes.encode(serialize(value))];
  };
  const where = "owner = $1 AND store = $2";
  return {
    ...reader(sql, owner, bytes),
    put: async (name, value) => {
      await sql.query(
        `INSERT INTO fawn_rows (owner, store, sort_key, key, value) VALUES ($1, $2, $3, $4, ${bytes.param(5)})
         ON CONFLICT (owner, store, sort_key) DO UPDATE SET key = EXCLUDED.key, value = EXCLUDED.value`,
        row(name, value),
      );
    },
    add: async (name, value) => {
      const inserted = await sql.query(
        `INSERT INTO fawn_rows (owner, store, sort_key, key, value) VALUES ($1, $2, $3, $4, ${bytes.param(5)})
         ON CONFLICT (owner, store, sort_key) DO NOTHING RETURNING 1`,
        row(name, value),
      );
      if (inserted.length === 0) throw new DOMException("Key already exists in the object store.", "ConstraintError");
    },
    delete: async (name, key) => {
      await sql.query(`DELETE FROM fawn_rows WHERE ${where} AND sort_key = $3`, [owner, name, encodeKey(key)]);
    },
    deleteWhere: async (name, match) => {
      const range = matchSql(match, 3);
      await sql.query(`DELETE FROM fawn_rows WHERE ${where}${range.sql}`, [owner, name, ...range.params]);
    },
    clear: async (name) => {
      await sql.query(`DELETE FROM fawn_rows WHERE ${where}`, [owner, name]);
    },
  };
}

/** One user's tables: every row theirs (`owner`), none of another user's ever read or written. */
export class PostgresTables implements Tables {
  constructor(
    private readonly db: Database,
    readonly owner: string,
  ) {
    if (owner === "") throw new Error("A user's tables need an owner id.");
    this.bytes = db.kind === "pglite" ? TEXT_BYTES : NATIVE_BYTES;
  }

  private readonly bytes: ValueTransfer;

  /**
   * Reads outside a transaction (each statement sees what was committed when it ran), or with `snapshot`, in one
   * REPEATABLE READ transaction that sees a single committed state.
   */
  read<T>(work: (tx: TableReader) => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
    if (!options.snapshot) return work(reader(this.db, this.owner, this.bytes));
    return this.db.transaction(async (sql) => {
      await sql.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      return work(reader(sql, this.owner, this.bytes));
    });
  }

  write<T>(work: (tx: TableTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [OWNER_LOCK_SPACE, this.owner]);
      return work(transaction(sql, this.owner, this.bytes));
    });
  }
}
