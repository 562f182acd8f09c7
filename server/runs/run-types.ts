// A run as the server's queue keeps it (LangGraph's `Run`), its kwargs (LangGraph's run body), its stored events, and
// the errors the routes answer with. The queue (run-queue.ts) and the routes (server/langgraph/) share these.
import type { RunEvent } from "../../src/protocol/index.ts";
import type { Gateway } from "../../src/gateway/index.ts";
import type { Database } from "../db/database.ts";

/** LangGraph's run statuses: `pending` (queued), `running` (a replica holds its lease), then one of the ends. */
export type RunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";

/** What a new run does when its thread already has one pending or running (LangGraph's `multitask_strategy`). */
export type MultitaskStrategy = "reject" | "interrupt" | "rollback" | "enqueue";

/** How a cancel ends a run: `interrupt` keeps what it saved; `rollback` also takes the thread back to before it. */
export type CancelAction = "interrupt" | "rollback";

/**
 * A run's body as LangGraph's API takes it (`client.runs.create/stream/wait`), kept as sent (validated, unknown keys
 * dropped). Fawn reads `input.messages` (its human messages; `null`/absent input resumes the thread's cut-off reply),
 * `context.model_name` (or `config.configurable.model_name`), DeerFlow's mode flags, and `stream_mode` (the routes
 * filter the stored events with it).
 */
export interface RunKwargs {
  input?: ({ messages?: unknown[] } & Record<string, unknown>) | null;
  /** `{ resume }` resumes as `input: null` does; other commands are refused. */
  command?: Record<string, unknown>;
  stream_mode?: string[];
  stream_subgraphs?: boolean;
  config?: { configurable?: Record<string, unknown>; tags?: string[]; recursion_limit?: number };
  context?: Record<string, unknown>;
  /** The resumable stream (`stream_resumable`): joins may replay from the start. Every run's events are kept anyway. */
  stream_resumable?: boolean;
  on_disconnect?: "cancel" | "continue";
  /** Where the run starts (LangGraph's run `checkpoint`): with input an edit forks there, without a regeneration. */
  checkpoint?: { checkpoint_id?: string; checkpoint_ns?: string; checkpoint_map?: Record<string, unknown> | null };
  /** The same as `checkpoint.checkpoint_id`, as the SDK's `checkpointId` sends it. */
  checkpoint_id?: string;
}

/** A run as LangGraph's API returns it. */
export interface ServerRun {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  /** ISO 8601. */
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: Record<string, unknown>;
  multitask_strategy: MultitaskStrategy;
  kwargs: RunKwargs;
}

/** One stored event of a run's stream: Fawn's RunEvent, numbered from 1 in order (the SSE `id`). */
export interface StoredRunEvent {
  seq: number;
  event: RunEvent["event"];
  data: unknown;
}

export interface CreateRunOptions {
  assistantId: string;
  kwargs: RunKwargs;
  metadata?: Record<string, unknown>;
  /** Default `reject`. */
  multitaskStrategy?: MultitaskStrategy;
  /** The run's id (default: a new UUID v4). */
  runId?: string;
}

export interface ListRunsOptions {
  limit?: number;
  offset?: number;
  status?: RunStatus;
}

/**
 * A `reject` run on a busy thread. LangGraph's Python server answers 409 with this sentence (its JS dev server 422);
 * the routes answer `status`.
 */
export class RunConflictError extends Error {
  readonly status = 409;
  constructor() {
    super("Thread is already running a task. Wait for it to finish or choose a different multitask strategy.");
    this.name = "RunConflictError";
  }
}

/** Kwargs Fawn cannot run (no human message, an unknown command): the routes answer 422 with the sentence. */
export class RunInputError extends Error {
  readonly status = 422;
  constructor(message: string) {
    super(message);
    this.name = "RunInputError";
  }
}

/** Where a run executes: the user's Gateway (server/gateways.ts). */
export interface RunGateways {
  forUser(owner: string): Promise<Pick<Gateway, "runs" | "branches" | "sandbox" | "checkpointer">>;
}

export interface RunQueueOptions {
  db: Database;
  gateways: RunGateways;
  /** This process's name among the replicas (written on the runs it holds). */
  replicaId: string;
  /** How long a claimed run is held without a heartbeat (FAWN_RUN_LEASE_MS, default 10 000). */
  leaseMs?: number;
  /** How often the worker looks for queued runs, cancels and expired leases, and how often a join polls (default 100). */
  pollMs?: number;
}
