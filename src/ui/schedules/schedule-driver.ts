// This browser's scheduled runs, driven by the page: one tab at a time holds the Web Lock "fawn-schedules" (the
// next open tab takes it over when that one closes), asks this browser's Gateway for the schedules due
// (`schedules.claimDue`) on every tick, and runs each as the user's own message would run: live in its thread when
// that thread is on screen, in the background otherwise. How each ended is written back (`schedules.finish`), and a
// run a closed tab left "running" is marked interrupted when the next tab takes the lock. A closed
// browser runs nothing; a time missed meanwhile runs once when Fawn opens again. Loaded after the first paint.
import type { Accessor } from "solid-js";
import {
  SCHEDULES_LOCK,
  type RunEndStatus,
  type RunEvent,
  type ScheduleClaim,
  type ScheduleOutcome,
} from "../../protocol/index.ts";
import { connectGateway, errorMessage, streamRun, type GatewayClient } from "../gateway-client.ts";
import { createUpdatePacer } from "../shared/update-pacer.ts";
import { applyRunEvents, startRunView } from "../state/run-view.ts";
import type { Stores } from "../state/stores.tsx";

/** How often the tab holding the lock looks for due schedules (ms): a schedule's times are whole minutes. */
export const SCHEDULE_TICK_MS = 15_000;

export interface ScheduleDriverOptions {
  /** This browser's Gateway (by default the page's agent worker). */
  client?: GatewayClient;
  tickMs?: number;
  /** The page's clock (e2e tests move it). */
  now?: () => number;
  /** The Web Locks API (absent: this tab drives the schedules alone). */
  locks?: Pick<LockManager, "request">;
}

/**
 * Starts driving this browser's schedules once this tab holds the lock (at once when no other tab does). `stores`
 * is the workspace on screen: a run shows live there when it is this browser's and the thread is open. Returns stop.
 */
export function startScheduleDriver(stores: Accessor<Stores | undefined>, options: ScheduleDriverOptions = {}) {
  const client = options.client ?? connectGateway();
  const tickMs = options.tickMs ?? SCHEDULE_TICK_MS;
  const now = options.now ?? Date.now;
  const locks = options.locks ?? (typeof navigator !== "undefined" ? navigator.locks : undefined);
  let stopped = false;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));

  const drive = async () => {
    // Only the lock's holder runs schedules: a run still marked running was cut off when its tab closed.
    await settleCutOff(client).catch(() => undefined);
    while (!stopped) {
      try {
        const claims = await client.schedules.claimDue(now());
        for (const claim of claims) void runClaim(client, stores(), claim);
      } catch {
        // The Gateway may be busy opening; the next tick asks again.
      }
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, tickMs))]);
    }
  };
  if (locks) void locks.request(SCHEDULES_LOCK, () => drive()).catch(() => undefined);
  else void drive();
  return () => {
    stopped = true;
    release();
  };
}

/** Marks the runs a closed tab left "running" as interrupted (this tab has just taken the lock). */
async function settleCutOff(client: GatewayClient): Promise<void> {
  for (const schedule of await client.schedules.list())
    if (schedule.last_outcome === "running" && schedule.last_run_id)
      await client.schedules.finish(schedule.id, schedule.last_run_id, "interrupted");
}

const OUTCOME: Record<RunEndStatus, Exclude<ScheduleOutcome, "running" | "skipped">> = {
  success: "success",
  error: "error",
  interrupted: "interrupted",
};

/** Runs one claimed schedule in its thread, shown live when this browser's workspace has that thread open. */
async function runClaim(client: GatewayClient, stores: Stores | undefined, claim: ScheduleClaim): Promise<void> {
  const { schedule, run_id: runId, thread_id: threadId } = claim;
  // Only this browser's stores show its threads (a server workspace's stores show the server's).
  const shown = stores && !stores.workspace ? stores : undefined;
  const open = shown?.openThread.current();
  const history = open?.thread_id === threadId ? open.entries.filter((entry) => entry.kind === "message").length : 0;
  let status: RunEndStatus = "interrupted";
  let error: string | undefined;
  let endApplied!: () => void;
  const ended = new Promise<void>((resolve) => (endApplied = resolve));
  shown?.runs.setRun(threadId, () => startRunView(runId, threadId, schedule.prompt, history));
  const onEvents = createUpdatePacer<RunEvent>((batched) => {
    for (const event of batched) {
      if (event.event === "error") error = event.data.message;
      if (event.event === "end") status = event.data.status;
    }
    shown?.runs.setRun(threadId, (view) => (view && view.runId === runId ? applyRunEvents(view, batched) : view));
    if (batched.some((event) => event.event === "end")) endApplied();
  });
  try {
    await streamRun(
      client,
      {
        run_id: runId,
        thread_id: threadId,
        input: { messages: [{ type: "human", content: schedule.prompt }] },
        context: {
          ...(schedule.mode && { mode: schedule.mode }),
          ...(schedule.model && { model: schedule.model }),
          ...(schedule.endpoint && { endpoint: schedule.endpoint }),
          ...(schedule.agent && { agent: schedule.agent }),
        },
      },
      onEvents,
    );
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
  } catch (thrown) {
    status = "error";
    error = errorMessage(thrown);
  }
  if (shown) await shown.runs.settle(threadId).catch(() => undefined);
  await client.schedules.finish(schedule.id, runId, OUTCOME[status], error).catch(() => undefined);
}
