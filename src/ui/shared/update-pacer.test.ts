import { describe, expect, it } from "vitest";
import { createUpdatePacer, type FrameClock } from "./update-pacer.ts";

/** A clock whose time, frames, "after render" tasks and timers move only when the test says so. */
function manualClock() {
  let time = 0;
  const frames = new Set<() => void>();
  const timers = new Set<{ callback: () => void; at: number }>();
  const rendered: (() => void)[] = [];
  const clock: FrameClock = {
    now: () => time,
    requestFrame(callback) {
      frames.add(callback);
      return () => frames.delete(callback);
    },
    setTimer(callback, ms) {
      const timer = { callback, at: time + ms };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    afterRender(callback) {
      rendered.push(callback);
    },
  };
  return {
    clock,
    /** Time passes; timers due by then fire. */
    advance(ms: number) {
      time += ms;
      for (const timer of [...timers].sort((a, b) => a.at - b.at)) {
        if (timer.at > time) continue;
        timers.delete(timer);
        timer.callback();
      }
    },
    /** A frame: its callbacks run (taking `scriptMs`), then the browser draws it in `renderMs`. */
    frame(renderMs = 0) {
      const due = [...frames];
      frames.clear();
      due.forEach((callback) => callback());
      time += renderMs;
      rendered.splice(0).forEach((callback) => callback());
    },
    spend(ms: number) {
      time += ms;
    },
  };
}

const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("createUpdatePacer", () => {
  it("applies each batch as it comes, in order, and says the next may come once the frame is drawn", async () => {
    const manual = manualClock();
    const applied: number[][] = [];
    const send = createUpdatePacer<number>((items) => applied.push(items), { clock: manual.clock });
    let ready = false;
    void send([1, 2]).then(() => (ready = true));
    expect(applied).toEqual([[1, 2]]);
    await microtasks();
    expect(ready).toBe(false);
    manual.frame(0.5);
    manual.advance(10); // a cheap update: a short pause
    await microtasks();
    expect(ready).toBe(true);
  });

  it("spaces out expensive updates, drawing included, so they take at most the given share of the time", async () => {
    const manual = manualClock();
    const send = createUpdatePacer<number>(() => manual.spend(4), { clock: manual.clock, busyShare: 0.25 });
    let readyAt: number | undefined;
    void send([1]).then(() => (readyAt = manual.clock.now()));
    await microtasks();
    manual.advance(5); // the frame comes 5 ms later
    manual.frame(6); // 4 ms of script and 6 of drawing: 10 ms, so the next waits 30 ms after the frame
    manual.advance(29);
    await microtasks();
    expect(readyAt).toBeUndefined();
    manual.advance(1);
    await microtasks();
    expect(readyAt).toBe(45);
  });

  it("applies a batch that comes before the answer (the end of a run) at once, with the same answer", async () => {
    const manual = manualClock();
    const applied: string[][] = [];
    const send = createUpdatePacer<string>((items) => applied.push(items), { clock: manual.clock });
    const first = send(["Hel"]);
    const second = send(["lo", "end"]);
    expect(applied).toEqual([["Hel"], ["lo", "end"]]);
    expect(second).toBe(first);
  });

  it("answers without a frame when none comes (a hidden page), and never pauses longer than the cap", async () => {
    const manual = manualClock();
    const send = createUpdatePacer<number>(() => manual.spend(50), {
      clock: manual.clock,
      maxFrameWaitMs: 100,
      maxPauseMs: 100,
    });
    let ready = false;
    void send([1]).then(() => (ready = true));
    await microtasks();
    manual.advance(100); // no frame: the update's script alone counts, 50 ms, and its pause is capped at 100
    manual.advance(99);
    await microtasks();
    expect(ready).toBe(false);
    manual.advance(1);
    await microtasks();
    expect(ready).toBe(true);
  });
});
