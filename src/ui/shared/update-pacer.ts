// Paces a stream of updates (a reply's tokens, by the hundred a second) so it takes a bounded share of the page's
// main thread: each batch is applied as it comes, and the sender is told when the next may come, once the browser
// has drawn this one and after a pause in proportion to what the update cost, drawing included. Cheap updates come
// every frame; expensive ones (a long last block, a big page to lay out and paint) are spaced out, so the page keeps
// its time for the user however long the reply grows.

/** When things happen; the browser's by default, a fake one in tests. */
export interface FrameClock {
  now(): number;
  /** Calls `callback` before the next paint; returns a cancel function. */
  requestFrame(callback: () => void): () => void;
  /** Calls `callback` after `ms`; returns a cancel function. */
  setTimer(callback: () => void, ms: number): () => void;
  /**
   * Calls `callback` in a task of its own, after the browser has drawn what the current task changed (when called
   * from a frame callback: after that frame's style, layout, paint and commit).
   */
  afterRender(callback: () => void): void;
}

/** One port for every pacer's "after the frame" tasks: a message task runs after the frame it was posted in. */
let renderChannel: { port: MessagePort; waiting: (() => void)[] } | undefined;

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
  afterRender(callback) {
    if (typeof MessageChannel !== "function") {
      setTimeout(callback, 0);
      return;
    }
    if (!renderChannel) {
      const channel = new MessageChannel();
      const waiting: (() => void)[] = [];
      channel.port1.onmessage = () => waiting.shift()?.();
      renderChannel = { port: channel.port2, waiting };
    }
    renderChannel.waiting.push(callback);
    renderChannel.port.postMessage(null);
  },
};

export interface UpdatePacerOptions {
  /**
   * The share of the main thread updates may take: after an update that cost `t` ms (its script, then the style,
   * layout and paint of the frame that draws it), the next may come `t × (1 / share − 1)` ms after that frame.
   * Default 0.07: with what else streaming costs the page (the messages that bring the batches, and the browser's
   * note of every piece of the model's response the worker receives), a reply keeps to about a tenth of the main
   * thread, however fast tokens come and however long the reply grows.
   */
  busyShare?: number;
  /** The longest such pause, so a reply still visibly streams (10 updates a second at least). Default 100 ms. */
  maxPauseMs?: number;
  /** The longest wait for a frame: hidden pages draw none. Default 100 ms. */
  maxFrameWaitMs?: number;
  clock?: FrameClock;
}

/**
 * Returns a function that hands a batch to `apply` at once and resolves when the next batch may come. Batches given
 * before that (the end of a run does not wait) are applied at once too, and share the same answer.
 */
export function createUpdatePacer<T>(
  apply: (items: T[]) => void,
  options: UpdatePacerOptions = {},
): (items: T[]) => Promise<void> {
  const clock = options.clock ?? browserClock;
  const pauseFactor = 1 / (options.busyShare ?? 0.07) - 1;
  const maxPauseMs = options.maxPauseMs ?? 100;
  const maxFrameWaitMs = options.maxFrameWaitMs ?? 100;
  /** What the batches applied since the last frame cost in script (with the microtasks they queued). */
  let scriptMs = 0;
  let ready: Promise<void> | undefined;

  function nextReady(): Promise<void> {
    return new Promise<void>((resolve) => {
      let drawn = false;
      const done = (renderMs: number) => {
        if (drawn) return;
        drawn = true;
        cancelFrame();
        cancelWait();
        const cost = scriptMs + renderMs;
        scriptMs = 0;
        clock.setTimer(
          () => {
            ready = undefined;
            resolve();
          },
          Math.min(cost * pauseFactor, maxPauseMs),
        );
      };
      const cancelFrame = clock.requestFrame(() => {
        const frameStarted = clock.now();
        clock.afterRender(() => done(clock.now() - frameStarted));
      });
      const cancelWait = clock.setTimer(() => done(0), maxFrameWaitMs);
    });
  }

  return (items) => {
    const started = clock.now();
    try {
      apply(items);
    } finally {
      // After the microtasks the update queued (effects that measure the page force its layout there).
      queueMicrotask(() => (scriptMs += clock.now() - started));
    }
    ready ??= nextReady();
    return ready;
  };
}
