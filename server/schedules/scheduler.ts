// The server's scheduler: every tick it takes each user's due schedules (SchedulesService.claimDue, which moves each
// to its next time, so a time missed while the server was down runs once) and queues their runs on the run queue, as
// a user's run is queued (`enqueue`: behind a run already going in that thread). Each run's end is written back as
// the schedule's last outcome. On a real Postgres shared by replicas, one replica ticks at a time (an advisory lock
// held for the tick); PGlite is one process's alone.
import type { Gateway } from "../../src/gateway/index.ts";
import type { Database } from "../db/database.ts";
import type { UserGateways } from "../gateways.ts";
import type { RunQueue, RunStatus } from "../runs/index.ts";
import { ADMIN_OWNER, type Users } from "../users.ts";

/** The advisory lock a replica holds while it claims schedules (beside the run queue's own). */
const SCHEDULER_LOCK = 0x5c4ed;

/** How often the scheduler looks for due schedules (ms): a schedule's times are whole minutes. */
export const SCHEDULER_TICK_MS = 20_000;

const OUTCOMES: Partial<Record<RunStatus, "success" | "error" | "interrupted">> = {
  success: "success",
  error: "error",
  timeout: "error",
  interrupted: "interrupted",
};

export interface SchedulerOptions {
  db: Database;
  users: Pick<Users, "list">;
  gateways: Pick<UserGateways, "forUser">;
  queue: Pick<RunQueue, "create" | "wait">;
  tickMs?: number;
  /** Told of a tick that failed (the log); the next tick tries again. */
  onError?: (error: unknown) => void;
}

export class ServerScheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> = Promise.resolve();
  /** The ends being written back, so stop() waits for them. */
  private readonly finishing = new Set<Promise<void>>();

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    if (this.timer) return;
    const every = Math.max(100, this.options.tickMs ?? SCHEDULER_TICK_MS);
    const tick = () => {
      this.ticking = this.tick().catch((error) => this.options.onError?.(error));
    };
    this.timer = setInterval(tick, every);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** Queues every user's runs due at `now` (ms); resolves with their run ids once they are queued. */
  async tick(now = Date.now()): Promise<string[]> {
    const { db } = this.options;
    if (db.kind === "pglite") return this.claimAll(now);
    // The lock is held by the transaction's connection; the claims write through the pool's others.
    return db.transaction(async (sql) => {
      const [row] = await sql.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS locked", [
        SCHEDULER_LOCK,
      ]);
      return row?.locked ? this.claimAll(now) : [];
    });
  }

  /** Resolves once every run queued so far has had its end written back (tests). */
  async settled(): Promise<void> {
    while (this.finishing.size > 0) await Promise.allSettled([...this.finishing]);
  }

  private async claimAll(now: number): Promise<string[]> {
    const owners = [ADMIN_OWNER, ...(await this.options.users.list()).map((user) => user.userId)];
    const started: string[] = [];
    for (const owner of owners) {
      const gateway = await this.options.gateways.forUser(owner);
      for (const claim of await gateway.schedules.claimDue(now)) {
        const { schedule, run_id: runId, thread_id: threadId } = claim;
        try {
          await this.options.queue.create(owner, threadId, {
            assistantId: "lead_agent",
            runId,
            multitaskStrategy: "enqueue",
            metadata: { scheduled_task_id: schedule.id },
            kwargs: {
              input: { messages: [{ type: "human", content: schedule.prompt }] },
              context: {
                ...(schedule.model && { model_name: schedule.model }),
                ...(schedule.mode && { mode: schedule.mode }),
                ...(schedule.endpoint && { endpoint: schedule.endpoint }),
                ...(schedule.agent && { agent: schedule.agent }),
              },
            },
          });
        } catch (error) {
          await gateway.schedules.finish(schedule.id, runId, "skipped", messageOf(error));
          continue;
        }
        started.push(runId);
        this.followEnd(gateway, schedule.id, runId);
      }
    }
    return started;
  }

  private followEnd(gateway: Gateway, scheduleId: string, runId: string): void {
    const done = this.options.queue
      .wait(runId)
      .then((run) => gateway.schedules.finish(scheduleId, runId, OUTCOMES[run.status] ?? "interrupted"))
      .catch((error) => this.options.onError?.(error))
      .finally(() => this.finishing.delete(done));
    this.finishing.add(done);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
