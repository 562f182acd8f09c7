import { describe, expect, it } from "vitest";
import { afterFirstPaint, FIRST_PAINT_FALLBACK_MS, type PaintWatch } from "./first-paint.ts";

/** A page whose paint reports the test sends, and whose fallback timer the test fires. */
function fakePage(options: { supported?: string[]; hidden?: boolean } = {}) {
  const seen = new Map<string, () => void>();
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  let frames = 0;
  let stopped = 0;
  const watch: PaintWatch = {
    supported: options.supported ?? ["paint", "largest-contentful-paint", "longtask"],
    observe(type, callback) {
      seen.set(type, callback);
      return () => stopped++;
    },
    hidden: () => options.hidden ?? false,
    afterFrame(run) {
      frames++;
      run();
    },
    setTimeout(run, ms) {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout(id) {
      (id as { cleared: boolean }).cleared = true;
    },
  };
  const report = (type: string) => seen.get(type)?.();
  return { watch, report, timers, frames: () => frames, stopped: () => stopped };
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe("afterFirstPaint", () => {
  it("waits until both the first contentful paint and a largest contentful paint have been reported", async () => {
    const page = fakePage();
    const painted = afterFirstPaint(page.watch);
    expect(await settled(painted)).toBe(false);
    page.report("paint");
    expect(await settled(painted)).toBe(false);
    page.report("largest-contentful-paint");
    expect(await settled(painted)).toBe(true);
    expect(page.timers[0]?.cleared).toBe(true);
    expect(page.stopped()).toBe(2);
  });

  it("gives up waiting after the fallback time when the browser reports nothing", async () => {
    const page = fakePage();
    const painted = afterFirstPaint(page.watch);
    expect(page.timers[0]?.ms).toBe(FIRST_PAINT_FALLBACK_MS);
    page.timers[0]?.run();
    expect(await settled(painted)).toBe(true);
  });

  it("waits only for what the browser reports, and for a frame where it reports neither", async () => {
    const firstPaintOnly = fakePage({ supported: ["paint"] });
    const painted = afterFirstPaint(firstPaintOnly.watch);
    firstPaintOnly.report("paint");
    expect(await settled(painted)).toBe(true);

    const neither = fakePage({ supported: [] });
    expect(await settled(afterFirstPaint(neither.watch))).toBe(true);
    expect(neither.frames()).toBe(1);
  });

  it("does not wait in a hidden tab, which paints nothing", async () => {
    const page = fakePage({ hidden: true });
    expect(await settled(afterFirstPaint(page.watch))).toBe(true);
  });
});
