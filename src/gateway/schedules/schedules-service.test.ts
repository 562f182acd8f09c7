// The schedules service: saving checked schedules, taking due ones once (a missed time runs once), and outcomes.
import { describe, expect, it } from "vitest";
import type { ChangeNotice, ScheduleInput } from "../../protocol/index.ts";
import { SCHEDULES_SETTINGS_KEY, SchedulesService } from "./schedules-service.ts";

function setup(start = Date.parse("2026-03-02T10:00:00Z")) {
  const records = new Map<string, unknown>();
  const threads = new Set(["t1"]);
  const notices: ChangeNotice[] = [];
  let clock = start;
  let made = 0;
  const service = new SchedulesService({
    settings: {
      get: async (key) => structuredClone(records.get(key)),
      put: async (key, value) => void records.set(key, structuredClone(value)),
    },
    threads: {
      exists: async (id) => threads.has(id),
      create: async () => {
        const thread_id = `new-${++made}`;
        threads.add(thread_id);
        return { thread_id };
      },
    },
    notify: (notice) => notices.push(notice),
    now: () => clock,
  });
  return { service, records, threads, notices, advance: (ms: number) => (clock += ms), at: () => clock };
}

const hourly: ScheduleInput = {
  name: "Check the build",
  thread_id: "t1",
  prompt: "Is the build green?",
  when: { kind: "every", every: 1, unit: "hours" },
  timezone: "UTC",
  enabled: true,
  mode: "pro",
};

describe("SchedulesService", () => {
  it("saves a schedule with its next time, and refuses a wrong one whole, writing nothing", async () => {
    const { service, records, notices } = setup();
    const saved = await service.create(hourly);
    expect(saved.next_run_at).toBe("2026-03-02T11:00:00.000Z");
    expect(await service.list()).toEqual([saved]);
    expect(notices).toEqual([{ type: "settings-changed" }]);
    await expect(service.create({ ...hourly, name: "", thread_id: "gone" })).rejects.toThrow(
      "A schedule needs a name. The schedule's thread no longer exists.",
    );
    expect(records.get(SCHEDULES_SETTINGS_KEY)).toHaveLength(1);
  });

  it("runs a time missed while nothing ran once, then moves to the next time after now", async () => {
    const { service, advance } = setup();
    const saved = await service.create(hourly);
    expect(await service.claimDue()).toEqual([]);
    // Five hours pass with the browser closed: one run, not five.
    advance(5 * 3600_000 + 60_000);
    const claims = await service.claimDue();
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ thread_id: "t1", schedule: { id: saved.id, last_outcome: "running" } });
    expect(await service.claimDue()).toEqual([]);
    const [after] = await service.list();
    expect(after).toMatchObject({ next_run_at: "2026-03-02T16:00:00.000Z", run_count: 1 });
  });

  it("records the outcome of the run it claimed, not of an older one", async () => {
    const { service, advance } = setup();
    await service.create(hourly);
    advance(3600_000);
    const [first] = await service.claimDue();
    advance(3600_000);
    const [second] = await service.claimDue();
    await service.finish(first!.schedule.id, first!.run_id, "error", "late");
    expect((await service.list())[0]).toMatchObject({ last_outcome: "running", last_run_id: second!.run_id });
    await service.finish(second!.schedule.id, second!.run_id, "success");
    expect((await service.list())[0]).toMatchObject({ last_outcome: "success", run_count: 2 });
  });

  it("makes a new thread each time when it has none, and skips a thread that is gone", async () => {
    const { service, threads, advance } = setup();
    await service.create({ ...hourly, name: "Fresh", thread_id: null });
    await service.create({ ...hourly, name: "Old" });
    threads.delete("t1");
    advance(3600_000);
    const claims = await service.claimDue();
    expect(claims.map((claim) => claim.thread_id)).toEqual(["new-1"]);
    const old = (await service.list()).find((schedule) => schedule.name === "Old");
    expect(old).toMatchObject({ last_outcome: "skipped", last_error: "The schedule's thread no longer exists." });
    advance(3600_000);
    expect((await service.claimDue()).map((claim) => claim.thread_id)).toEqual(["new-2"]);
  });

  it("turns a once schedule off after its run, and an off schedule never runs", async () => {
    const { service, advance, at } = setup();
    const once = await service.create({ ...hourly, when: { kind: "once", at: new Date(at() + 60_000).toISOString() } });
    const off = await service.update((await service.create({ ...hourly, name: "Off" })).id, { enabled: false });
    expect(off.next_run_at).toBeNull();
    advance(2 * 3600_000);
    expect((await service.claimDue()).map((claim) => claim.schedule.id)).toEqual([once.id]);
    expect((await service.list()).find((schedule) => schedule.id === once.id)).toMatchObject({
      enabled: false,
      next_run_at: null,
    });
  });

  it("leaves out a stored entry that is not a schedule (an old or altered backup)", async () => {
    const { service, records } = setup();
    const saved = await service.create(hourly);
    records.set(SCHEDULES_SETTINGS_KEY, [...(records.get(SCHEDULES_SETTINGS_KEY) as unknown[]), { id: 3 }]);
    expect(await service.list()).toEqual([saved]);
  });
});
