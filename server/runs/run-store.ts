// The runs' SQL over fawn_runs and fawn_run_events: each statement one short transaction, so any replica (PGlite in
// tests, Postgres behind several servers) reads and changes the same queue. Claims are serialised by an advisory
// lock, so at most one run of a thread is ever running; creates are serialised per thread, so `reject` is exact.
import type { Database, Sql } from "../db/database.ts";
import type {
  CancelAction,
  ListRunsOptions,
  MultitaskStrategy,
  RunKwargs,
  RunStatus,
  ServerRun,
  StoredRunEvent,
} from "./run-types.ts";

/** The lock every replica takes to claim runs (pg_advisory_xact_lock). */
const CLAIM_LOCK = 7_402_119;
/** The first key of a thread's lock while a run is created on it (the second: a hash of owner and thread). */
const THREAD_LOCK_SPACE = 7_402_120;

export const ACTIVE: readonly RunStatus[] = ["pending", "running"];

interface RunRow {
  run_id: string;
  owner: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  multitask_strategy: MultitaskStrategy;
  kwargs: RunKwargs;
  metadata: Record<string, unknown>;
  replica: string | null;
  cancel: CancelAction | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A run row as the queue keeps it: LangGraph's run, and who owns and holds it. */
export interface QueuedRun {
  run: ServerRun;
  owner: string;
  replica: string | null;
  cancel: CancelAction | null;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

function queuedRun(row: RunRow): QueuedRun {
  return {
    run: {
      run_id: row.run_id,
      thread_id: row.thread_id,
      assistant_id: row.assistant_id,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      status: row.status,
      metadata: row.metadata,
      multitask_strategy: row.multitask_strategy,
      kwargs: row.kwargs,
    },
    owner: row.owner,
    replica: row.replica,
    cancel: row.cancel,
  };
}

/** JSON for a jsonb column: Postgres refuses U+0000 in jsonb text, so it becomes U+FFFD. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "string" && item.includes("\u0000") ? item.replaceAll("\u0000", "\uFFFD") : item,
  );
}

const COLUMNS =
  "run_id, owner, thread_id, assistant_id, status, multitask_strategy, kwargs, metadata, replica, cancel, created_at, updated_at";

export class RunStore {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a pending run unless `conflict` says no: it is told the thread's active runs (pending or running, oldest
   * first) under a per-thread lock, and returns false to refuse.
   */
  async insert(
    owner: string,
    run: Omit<ServerRun, "created_at" | "updated_at" | "status">,
    conflict: (active: QueuedRun[], sql: Sql) => Promise<boolean>,
  ): Promise<ServerRun | undefined> {
    return this.db.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
        THREAD_LOCK_SPACE,
        JSON.stringify([owner, run.thread_id]),
      ]);
      const active = await this.activeIn(sql, owner, run.thread_id);
      if (!(await conflict(active, sql))) return undefined;
      const rows = await sql.query<RunRow>(
        `INSERT INTO fawn_runs (run_id, owner, thread_id, assistant_id, status, multitask_strategy, kwargs, metadata)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6::text::jsonb, $7::text::jsonb) RETURNING ${COLUMNS}`,
        [
          run.run_id,
          owner,
          run.thread_id,
          run.assistant_id,
          run.multitask_strategy,
          jsonText(run.kwargs),
          jsonText(run.metadata),
        ],
      );
      return queuedRun(rows[0]!).run;
    });
  }

  async get(owner: string, runId: string): Promise<QueuedRun | undefined> {
    // Postgres refuses U+0000 in text: such an id names no run (a 404, not a failed query).
    if (runId.includes("\u0000")) return undefined;
    const rows = await this.db.query<RunRow>(`SELECT ${COLUMNS} FROM fawn_runs WHERE run_id = $1 AND owner = $2`, [
      runId,
      owner,
    ]);
    return rows[0] && queuedRun(rows[0]);
  }

  /** A run's status by id alone (undefined: no such run), for a join that already checked its owner. */
  async status(runId: string): Promise<RunStatus | undefined> {
    const rows = await this.db.query<{ status: RunStatus }>("SELECT status FROM fawn_runs WHERE run_id = $1", [runId]);
    return rows[0]?.status;
  }

  async byId(runId: string): Promise<QueuedRun | undefined> {
    const rows = await this.db.query<RunRow>(`SELECT ${COLUMNS} FROM fawn_runs WHERE run_id = $1`, [runId]);
    return rows[0] && queuedRun(rows[0]);
  }

  async list(owner: string, threadId: string, options: ListRunsOptions): Promise<ServerRun[]> {
    const params: unknown[] = [owner, threadId];
    let where = "owner = $1 AND thread_id = $2";
    if (options.status) {
      params.push(options.status);
      where += ` AND status = $${params.length}`;
    }
    params.push(Math.max(0, Math.min(options.limit ?? 10, 1000)), Math.max(0, options.offset ?? 0));
    const rows = await this.db.query<RunRow>(
      `SELECT ${COLUMNS} FROM fawn_runs WHERE ${where}
       ORDER BY created_at DESC, run_id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map((row) => queuedRun(row).run);
  }

  /** The thread's last `limit` runs as queued (who held them, any cancel asked for), newest first. */
  async recent(owner: string, threadId: string, limit: number): Promise<QueuedRun[]> {
    const rows = await this.db.query<RunRow>(
      `SELECT ${COLUMNS} FROM fawn_runs WHERE owner = $1 AND thread_id = $2
       ORDER BY created_at DESC, run_id DESC LIMIT $3`,
      [owner, threadId, limit],
    );
    return rows.map(queuedRun);
  }

  async active(owner: string, threadId: string): Promise<QueuedRun[]> {
    return this.activeIn(this.db, owner, threadId);
  }

  private async activeIn(sql: Sql, owner: string, threadId: string): Promise<QueuedRun[]> {
    const rows = await sql.query<RunRow>(
      `SELECT ${COLUMNS} FROM fawn_runs WHERE owner = $1 AND thread_id = $2 AND status IN ('pending', 'running')
       ORDER BY created_at, run_id`,
      [owner, threadId],
    );
    return rows.map(queuedRun);
  }

  async delete(owner: string, runId: string): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const rows = await sql.query("DELETE FROM fawn_runs WHERE run_id = $1 AND owner = $2 RETURNING run_id", [
        runId,
        owner,
      ]);
      if (rows.length === 0) return false;
      await sql.query("DELETE FROM fawn_run_events WHERE run_id = $1", [runId]);
      return true;
    });
  }

  /**
   * Claims the oldest pending run whose thread has no running run and no older pending one, for `replica`, with a
   * lease of `leaseMs`; undefined when there is none.
   */
  async claim(replica: string, leaseMs: number): Promise<QueuedRun | undefined> {
    // An idle queue costs one indexed read a poll (fawn_runs_waiting), not a locked transaction.
    if ((await this.db.query("SELECT 1 FROM fawn_runs WHERE status = 'pending' LIMIT 1")).length === 0)
      return undefined;
    return this.db.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock($1)", [CLAIM_LOCK]);
      const rows = await sql.query<RunRow>(
        `UPDATE fawn_runs SET status = 'running', replica = $1, lease_until = now() + $2 * interval '1 millisecond',
           updated_at = now()
         WHERE run_id = (
           SELECT r.run_id FROM fawn_runs r
           WHERE r.status = 'pending'
             AND NOT EXISTS (SELECT 1 FROM fawn_runs o WHERE o.owner = r.owner AND o.thread_id = r.thread_id
               AND (o.status = 'running'
                 OR (o.status = 'pending' AND (o.created_at, o.run_id) < (r.created_at, r.run_id))))
           ORDER BY r.created_at, r.run_id LIMIT 1
         ) AND status = 'pending'
         RETURNING ${COLUMNS}`,
        [replica, leaseMs],
      );
      return rows[0] && queuedRun(rows[0]);
    });
  }

  /**
   * Renews the lease of the runs `replica` holds; returns each still held with its cancel request. A run missing from
   * the answer was taken away (its lease expired, or it was deleted).
   */
  async heartbeat(
    replica: string,
    runIds: readonly string[],
    leaseMs: number,
  ): Promise<Map<string, CancelAction | null>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.db.query<{ run_id: string; cancel: CancelAction | null }>(
      `UPDATE fawn_runs SET lease_until = now() + $3 * interval '1 millisecond'
       WHERE run_id = ANY($2::text[]) AND replica = $1 AND status = 'running' RETURNING run_id, cancel`,
      [replica, [...runIds], leaseMs],
    );
    return new Map(rows.map((row) => [row.run_id, row.cancel]));
  }

  /** The cancel requests written for the given runs (a cheap read between heartbeats). */
  async cancels(runIds: readonly string[]): Promise<Map<string, CancelAction>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.db.query<{ run_id: string; cancel: CancelAction }>(
      "SELECT run_id, cancel FROM fawn_runs WHERE run_id = ANY($1::text[]) AND cancel IS NOT NULL",
      [[...runIds]],
    );
    return new Map(rows.map((row) => [row.run_id, row.cancel]));
  }

  /** Writes a cancel request on an active run (the replica holding it acts on it). */
  async requestCancel(runId: string, action: CancelAction): Promise<void> {
    await this.db.query(
      "UPDATE fawn_runs SET cancel = $2, updated_at = now() WHERE run_id = $1 AND status IN ('pending', 'running')",
      [runId, action],
    );
  }

  /**
   * Ends runs in `sql`'s transaction that are in `from` (a pending run cancelled, a running run whose lease expired),
   * each `interrupted` with `metadata` (when it has no events yet) and `end` events after its last one. Returns them.
   */
  async interruptWhere(sql: Sql, condition: string, params: unknown[]): Promise<QueuedRun[]> {
    const rows = await sql.query<RunRow>(
      `UPDATE fawn_runs SET status = 'interrupted', lease_until = NULL, updated_at = now()
       WHERE ${condition} RETURNING ${COLUMNS}`,
      params,
    );
    for (const row of rows) {
      const last = await sql.query<{ seq: number | null }>(
        "SELECT max(seq) AS seq FROM fawn_run_events WHERE run_id = $1",
        [row.run_id],
      );
      const seq = last[0]?.seq ?? 0;
      const events: { event: string; data: unknown }[] = [];
      if (seq === 0) events.push({ event: "metadata", data: { run_id: row.run_id, thread_id: row.thread_id } });
      events.push({ event: "end", data: { status: "interrupted" } });
      await insertEvents(
        sql,
        row.run_id,
        events.map((event, index) => ({ seq: seq + index + 1, event: event.event, data: event.data })),
      );
    }
    return rows.map(queuedRun);
  }

  /** Cancels a pending run at once; undefined when it is not pending (any more). */
  async cancelPending(runId: string): Promise<QueuedRun | undefined> {
    return this.db.transaction(async (sql) => {
      const [run] = await this.interruptWhere(sql, "run_id = $1 AND status = 'pending'", [runId]);
      return run;
    });
  }

  /** Ends every running run whose lease expired (its replica died or stalled). */
  async reap(): Promise<QueuedRun[]> {
    return this.db.transaction((sql) => this.interruptWhere(sql, "status = 'running' AND lease_until < now()", []));
  }

  /** Stores events of a run held by `replica`; false when the run is no longer its own (nothing stored). */
  async appendEvents(runId: string, replica: string, events: readonly StoredRunEvent[]): Promise<boolean> {
    if (events.length === 0) return true;
    return this.db.transaction(async (sql) => {
      const held = await sql.query(
        "SELECT 1 FROM fawn_runs WHERE run_id = $1 AND replica = $2 AND status = 'running' FOR UPDATE",
        [runId, replica],
      );
      if (held.length === 0) return false;
      await insertEvents(sql, runId, events);
      return true;
    });
  }

  /** Stores the run's last events and its end status in one transaction, if `replica` still holds it. */
  async finish(runId: string, replica: string, events: readonly StoredRunEvent[], status: RunStatus): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const held = await sql.query(
        "SELECT 1 FROM fawn_runs WHERE run_id = $1 AND replica = $2 AND status = 'running' FOR UPDATE",
        [runId, replica],
      );
      if (held.length === 0) return false;
      await insertEvents(sql, runId, events);
      await sql.query("UPDATE fawn_runs SET status = $2, lease_until = NULL, updated_at = now() WHERE run_id = $1", [
        runId,
        status,
      ]);
      return true;
    });
  }

  /** Stored events of a run after `afterSeq`, in order, at most `limit`. */
  async eventsAfter(runId: string, afterSeq: number, limit: number): Promise<StoredRunEvent[]> {
    return this.db.query<StoredRunEvent>(
      "SELECT seq, event, data FROM fawn_run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, afterSeq, limit],
    );
  }
}

/** One INSERT for a batch of events (a stream of tokens is a few round trips, not one a token). */
async function insertEvents(
  sql: Sql,
  runId: string,
  events: readonly { seq: number; event: string; data: unknown }[],
): Promise<void> {
  if (events.length === 0) return;
  const values: string[] = [];
  const params: unknown[] = [runId];
  for (const event of events) {
    params.push(event.seq, event.event, jsonText(event.data));
    const n = params.length;
    values.push(`($1, $${n - 2}::integer, $${n - 1}, $${n}::text::jsonb)`);
  }
  await sql.query(`INSERT INTO fawn_run_events (run_id, seq, event, data) VALUES ${values.join(", ")}`, params);
}
