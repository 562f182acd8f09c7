// The page's schedule driver: only the tab holding the schedules lock claims and runs due schedules (another tab
// takes over once it stops), each claimed run is sent as the schedule's message, and its end is written back.
import { describe, expect, it } from "vitest";
import type { RunEvent, RunRequest, ScheduleClaim } from "../../protocol/index.ts";
import type { GatewayClient } from "../gateway-client.ts";
import { startScheduleDriver } from "./schedule-driver.ts";

/** One lock at a time, in order of request, as navigator.locks grants an exclusive lock. */
function fakeLocks() {
  let chain = Promise.resolve();
  return {
    request: ((_name: string, work: () => Promise<unknown>) => {
      const run = chain.then(() => work());
      chain = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    }) as unknown as LockManager["request"],
  };
}

function fakeClient(name: string, due: ScheduleClaim[], log: string[]) {
  const sent: RunRequest[] = [];
  const finished: unknown[][] = [];
  const client = {
    schedules: {
      list: async () => [{ ...claim.schedule, id: "cut", last_outcome: "running", last_run_id: "old" }],
      claimDue: async () => {
        log.push(name);
        return due.splice(0);
      },
      finish: async (...args: unknown[]) => void finished.push(args),
    },
    runs: {
      streamBatched: async (request: RunRequest, onEvents: (events: RunEvent[]) => void) => {
        sent.push(request);
        onEvents([
          { event: "error", data: { error: "model", message: "The model said no." } },
          { event: "end", data: { status: "error" } },
        ] as RunEvent[]);
      },
    },
  } as unknown as GatewayClient;
  return { client, sent, finished };
}

const claim: ScheduleClaim = {
  run_id: "r1",
  thread_id: "t1",
  schedule: {
    id: "s1",
    name: "Digest",
    thread_id: "t1",
    prompt: "What is new?",
    when: { kind: "daily", time: "09:00" },
    timezone: "UTC",
    enabled: true,
    mode: "pro",
    next_run_at: null,
    run_count: 1,
    created_at: "",
    updated_at: "",
  },
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the schedule driver", () => {
  it("lets one tab at a time drive the schedules, and the next take over when it stops", async () => {
    const locks = fakeLocks();
    const log: string[] = [];
    const first = fakeClient("first", [], log);
    const second = fakeClient("second", [], log);
    const stopFirst = startScheduleDriver(() => undefined, { client: first.client, locks, tickMs: 10 });
    const stopSecond = startScheduleDriver(() => undefined, { client: second.client, locks, tickMs: 10 });
    await wait(60);
    expect(new Set(log)).toEqual(new Set(["first"]));
    stopFirst();
    await wait(60);
    expect(log.at(-1)).toBe("second");
    stopSecond();
  });

  it("sends a claimed schedule's prompt to its thread with its mode, and writes back how the run ended", async () => {
    const log: string[] = [];
    const { client, sent, finished } = fakeClient("tab", [claim], log);
    const stop = startScheduleDriver(() => undefined, { client, locks: fakeLocks(), tickMs: 10 });
    await wait(60);
    stop();
    expect(sent).toEqual([
      {
        run_id: "r1",
        thread_id: "t1",
        input: { messages: [{ type: "human", content: "What is new?" }] },
        context: { mode: "pro" },
      },
    ]);
    // The run a closed tab left running is marked interrupted first.
    expect(finished).toEqual([
      ["cut", "old", "interrupted"],
      ["s1", "r1", "error", "The model said no."],
    ]);
  });
});
