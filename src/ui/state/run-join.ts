// Live across devices: a server workspace's open thread whose run was started elsewhere (another device, another tab)
// shows that run streaming, as if this page had started it (RunsApi.join replays its events from its start). Part
// of the workspaces' chunk (state/workspaces.ts starts it): this browser's workspace never needs it.
import * as Comlink from "comlink";
import type { RunEvent } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { errorMessage } from "../gateway-client.ts";
import { createUpdatePacer } from "../shared/update-pacer.ts";
import { applyRunEvents, startRunView } from "./run-view.ts";
import type { Stores } from "./stores.tsx";

/**
 * Follows the run of thread `threadId` in progress on the server, unless this page streams one of it already. The
 * open thread shows up to the run's user message; the run's events (the state from its start) show the rest, live.
 * Resolves when the run has ended (or there was none).
 */
export async function joinRun(stores: Pick<Stores, "client" | "runs" | "openThread" | "notices">, threadId: string) {
  const { client, runs, openThread } = stores;
  if (runs.isRunning(threadId) || joining.has(threadId)) return;
  joining.add(threadId);
  // The server's run id once its metadata names it, so that Stop cancels that run.
  let runId = newId();
  // Events come through their own message port and may arrive after `join` resolves (as runs.send waits for them):
  // the run is over once `end` was applied, and a batch after the thread settled changes nothing.
  let over = false;
  let endApplied!: () => void;
  const ended = new Promise<void>((resolve) => (endApplied = resolve));
  const onEvents = createUpdatePacer<RunEvent>((batched) => {
    if (over) return;
    const metadata = batched.find((event) => event.event === "metadata");
    if (metadata && metadata.data.run_id !== runId) {
      const previous = runId;
      runId = metadata.data.run_id;
      runs.setRun(threadId, (view) => (view?.runId === previous ? { ...view, runId } : view));
    }
    const current = openThread.current();
    // The first batch (or the thread opened meanwhile): the live view starts.
    if (!runs.isRunning(threadId) && current?.thread_id === threadId) {
      const userAt = current.entries.findLastIndex(
        (entry) => entry.kind === "message" && entry.message.type === "human",
      );
      const entries = current.entries.slice(0, userAt + 1);
      openThread.setCurrent({ ...current, entries });
      const history = entries.filter((entry) => entry.kind === "message").length;
      runs.setRun(threadId, () => ({ ...startRunView(runId, threadId, "", history), resumed: true }));
    }
    runs.setRun(threadId, (view) => (view?.runId === runId ? applyRunEvents(view, batched) : view));
    if (batched.some((event) => event.event === "end")) endApplied();
  });
  try {
    if (await client.runs.join(threadId, Comlink.proxy(onEvents))) {
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
      over = true;
      await runs.settle(threadId);
    }
  } catch (error) {
    runs.setRun(threadId, (view) => (view?.runId === runId ? undefined : view));
    stores.notices.setNotice(errorMessage(error), { threadId });
  } finally {
    over = true;
    joining.delete(threadId);
  }
}

/** Threads being joined (a second notice of the same busy thread joins nothing more). */
const joining = new Set<string>();
