// Coalesces a stream of items into at most one update per animation frame, so a reply streaming at hundreds of
// tokens a second costs the page one render per frame instead of one per token; when renders get expensive (a long
// last block), they are spaced out so the page keeps most of its time for the user.

/** When a batch may be applied; the browser's by default, a fake one in tests. */
export interface FrameClock {
  now(): number;
  /** Calls `callback` before the next paint; returns a cancel function. */
  requestFrame(callback: () => void): () => void;
  /** Calls `callback` after `ms`; returns a cancel function. */
  setTimer(callback: () => void, ms: number): () => void;
}

export const browserClock: FrameClock = {
  now: () => performance.now(),
  requestFrame(callback) {
    if (typeof requestAnimationFrame !== "function") return () => undefined;
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  },
  setTimer(callback, ms) {
    const id = setTimeout(callback, ms);
    return () => clearTimeout(id);
  },
};

export interface FrameBatcherOptions {
  /** Longest wait for a frame: headless and hidden pages may never paint. Default 50 ms. */
  maxDelayMs?: number;
  /**
   * The share of time updates may take: after an update that took `t` ms (with the microtasks it queued, such as a
   * forced layout), the next waits `t × (1 / share − 1)` ms. Default 0.1: painting the update roughly doubles its
   * cost, so streaming keeps to about a fifth of the main thread.
   */
  busyShare?: number;
  /** The longest such pause, so a reply still visibly streams (10 updates a second at least). Default 100 ms. */
  maxPauseMs?: number;
  clock?: FrameClock;
}

export interface FrameBatcher<T> {
  /** Queues `item`; the batch is applied on the next frame (or after `maxDelayMs`), after any pause. */
  push(item: T): void;
  /** Applies what is queued now, pause or not (at the end of a stream, say). */
  flush(): void;
}

/** Collects pushed items and hands them to `apply` in order, in one call per frame at most. */
export function createFrameBatcher<T>(apply: (items: T[]) => void, options: FrameBatcherOptions = {}): FrameBatcher<T> {
  const clock = options.clock ?? browserClock;
  const maxDelayMs = options.maxDelayMs ?? 50;
  const pauseFactor = 1 / (options.busyShare ?? 0.1) - 1;
  const maxPauseMs = options.maxPauseMs ?? 100;
  let queue: T[] = [];
  let cancels: (() => void)[] = [];
  /** No batch before this time (the clock's), unless flushed. */
  let notBefore = -Infinity;

  function cancel(): void {
    for (const cancelOne of cancels) cancelOne();
    cancels = [];
  }

  function awaitFrame(): void {
    cancels = [clock.requestFrame(flush), clock.setTimer(flush, maxDelayMs)];
  }

  function flush(): void {
    cancel();
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    const started = clock.now();
    try {
      apply(items);
    } finally {
      // After the microtasks the update queued (effects that measure the page force its layout there).
      queueMicrotask(() => {
        const now = clock.now();
        notBefore = now + Math.min((now - started) * pauseFactor, maxPauseMs);
      });
    }
  }

  return {
    push(item) {
      queue.push(item);
      if (cancels.length > 0) return;
      const pause = notBefore - clock.now();
      if (pause > 0) {
        cancels = [
          clock.setTimer(() => {
            cancels = [];
            awaitFrame();
          }, pause),
        ];
      } else awaitFrame();
    },
    flush,
  };
}
