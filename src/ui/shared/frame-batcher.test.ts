import { describe, expect, it } from "vitest";
import { createFrameBatcher, type FrameClock } from "./frame-batcher.ts";

/** A clock whose time, frames and timers move only when the test says so. */
function manualClock() {
  let time = 0;
  const frames = new Set<() => void>();
  const timers = new Set<{ callback: () => void; ms: number }>();
  const clock: FrameClock = {
    now: () => time,
    requestFrame(callback) {
      frames.add(callback);
      return () => frames.delete(callback);
    },
    setTimer(callback, ms) {
      const timer = { callback, ms };
      timers.add(timer);
      return () => timers.delete(timer);
    },
  };
  return {
    clock,
    advance: (ms: number) => (time += ms),
    frame: () => {
      const due = [...frames];
      frames.clear();
      due.forEach((callback) => callback());
    },
    timeout: () => {
      const due = [...timers];
      timers.clear();
      due.forEach((timer) => timer.callback());
    },
    scheduled: () => frames.size + timers.size,
    timerDelays: () => [...timers].map((timer) => timer.ms),
  };
}

const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("createFrameBatcher", () => {
  it("applies everything pushed before a frame in one call, in order", () => {
    const manual = manualClock();
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => batches.push(items), { clock: manual.clock });
    for (let i = 1; i <= 5; i++) batcher.push(i);
    expect(batches).toEqual([]);
    manual.frame();
    batcher.push(6);
    batcher.push(7);
    manual.frame();
    expect(batches).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7],
    ]);
  });

  it("flushes on a timer when no frame comes (headless or hidden pages), and only once", () => {
    const manual = manualClock();
    const batches: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => batches.push(items), { clock: manual.clock, maxDelayMs: 40 });
    batcher.push("a");
    expect(manual.timerDelays()).toEqual([40]);
    manual.timeout();
    // The frame that was also asked for is cancelled, so the batch is not applied twice.
    expect(manual.scheduled()).toBe(0);
    manual.frame();
    expect(batches).toEqual([["a"]]);
  });

  it("applies the queue at once on flush, loses nothing, and asks for no frame when idle", () => {
    const manual = manualClock();
    const seen: number[] = [];
    const batcher = createFrameBatcher<number>((items) => seen.push(...items), { clock: manual.clock });
    batcher.flush();
    expect(manual.scheduled()).toBe(0);
    for (let i = 0; i < 1000; i++) {
      batcher.push(i);
      if (i % 97 === 0) manual.frame();
      if (i % 251 === 0) manual.timeout();
    }
    batcher.flush();
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(manual.scheduled()).toBe(0);
  });

  it("takes items pushed while a batch is applied into the next batch", () => {
    const manual = manualClock();
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>(
      (items) => {
        batches.push(items);
        if (items.includes(1)) batcher.push(2);
      },
      { clock: manual.clock },
    );
    batcher.push(1);
    manual.frame();
    manual.frame();
    expect(batches).toEqual([[1], [2]]);
  });

  it("spaces out expensive updates so they take at most the given share of the time", async () => {
    const manual = manualClock();
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>(
      (items) => {
        batches.push(items);
        manual.advance(10); // each update takes 10 ms
      },
      { clock: manual.clock, busyShare: 0.25 },
    );
    batcher.push(1);
    manual.frame();
    await microtasks();
    // 10 ms of work: the next batch waits 30 ms before asking for a frame.
    batcher.push(2);
    expect(manual.timerDelays()).toEqual([30]);
    manual.frame();
    expect(batches).toEqual([[1]]);
    manual.timeout();
    manual.frame();
    expect(batches).toEqual([[1], [2]]);
    // Flushing (at the end of a run) does not wait.
    await microtasks();
    batcher.push(3);
    batcher.flush();
    expect(batches).toEqual([[1], [2], [3]]);
    expect(manual.scheduled()).toBe(0);
  });
});
