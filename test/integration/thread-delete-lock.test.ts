// Deleting a thread that another tab is running (its run holds the thread's Web Lock) is refused with a sentence, and
// the thread stays; once the run has ended, the thread can be deleted.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DATA_IN_USE_ELSEWHERE, THREAD_RUNNING_ELSEWHERE } from "../../src/gateway/index.ts";
import type { RunEvent } from "../../src/protocol/index.ts";
import { openTestGateway, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-delete-lock-test");

/** The part of the Web Locks API the gateway uses: `request` with `ifAvailable`, over locks other tabs hold. */
class FakeLockManager {
  readonly heldElsewhere = new Set<string>();

  request(name: string, options: { ifAvailable?: boolean }, callback: (lock: { name: string } | null) => unknown) {
    if (this.heldElsewhere.has(name)) {
      if (!options.ifAvailable) throw new Error("this fake only answers ifAvailable requests for held locks");
      return Promise.resolve(callback(null));
    }
    this.heldElsewhere.add(name);
    return Promise.resolve(callback({ name })).finally(() => this.heldElsewhere.delete(name));
  }

  query(): Promise<{ held: { name: string }[] }> {
    return Promise.resolve({ held: [...this.heldElsewhere].map((name) => ({ name })) });
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("deleting a thread another tab is running", () => {
  it("is refused while the lock manager says another tab holds the thread's run lock", async () => {
    const locks = new FakeLockManager();
    vi.stubGlobal("navigator", { locks });
    const thread = await harness.gateway.threads.create();
    locks.heldElsewhere.add(`fawn-run:${thread.thread_id}`);

    await expect(harness.gateway.threads.delete(thread.thread_id)).rejects.toThrow(THREAD_RUNNING_ELSEWHERE);
    expect(THREAD_RUNNING_ELSEWHERE).toBe("This thread is running in another tab; stop it there before deleting it.");
    expect((await harness.gateway.threads.list()).map((listed) => listed.thread_id)).toEqual([thread.thread_id]);

    // The other tab's run ends: the delete goes through, and its own hold on the lock is let go.
    locks.heldElsewhere.delete(`fawn-run:${thread.thread_id}`);
    await harness.gateway.threads.delete(thread.thread_id);
    expect(await harness.gateway.threads.list()).toEqual([]);
    expect(locks.heldElsewhere.size).toBe(0);
  });

  it("is refused while a second Gateway on the same database (another tab) runs it", async () => {
    const other = await openTestGateway(harness.gatewayDbName(), { retry: { initialDelayMs: 10, maxDelayMs: 50 } });
    const thread = await harness.gateway.threads.create();
    const runId = crypto.randomUUID();
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const events: RunEvent[] = [];
    const run = harness.gateway.runs.stream(
      {
        run_id: runId,
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: "tell me a long story" }] },
      },
      (event) => {
        events.push(event);
        if (event.event === "messages") streaming();
      },
    );
    await started;

    await expect(other.threads.delete(thread.thread_id)).rejects.toThrow(THREAD_RUNNING_ELSEWHERE);
    expect(await other.threads.get(thread.thread_id)).toBeDefined();

    await harness.gateway.runs.cancel(runId);
    await run;
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    await other.threads.delete(thread.thread_id);
    expect(await harness.gateway.threads.get(thread.thread_id)).toBeUndefined();
  });

  it("refuses to delete all data while another tab runs a thread, and keeps everything", async () => {
    const locks = new FakeLockManager();
    vi.stubGlobal("navigator", { locks });
    const thread = await harness.gateway.threads.create();
    locks.heldElsewhere.add(`fawn-run:${thread.thread_id}`);
    // A lock of something else is no reason to refuse.
    locks.heldElsewhere.add("some-other-lock");

    await expect(harness.gateway.data.deleteAll()).rejects.toThrow(DATA_IN_USE_ELSEWHERE);
    expect((await harness.gateway.threads.list()).map((listed) => listed.thread_id)).toEqual([thread.thread_id]);

    locks.heldElsewhere.delete(`fawn-run:${thread.thread_id}`);
    await harness.gateway.data.deleteAll();
    expect(await harness.gateway.threads.list()).toEqual([]);
  });
});
