// When the first screen is really on it: the moment the browser has reported the page's first contentful paint and
// largest contentful paint so far, which is when what the first screen did not need (the agent worker, the Markdown
// renderer, the dialogs) may start loading without competing with it. Lighthouse charges every request that starts
// before the reported paint to LCP, and a frame is reported after it was shown, well after requestAnimationFrame.

/** What `afterFirstPaint` needs from the page; tests pass their own. */
export interface PaintWatch {
  /** The entry types this browser reports (`PerformanceObserver.supportedEntryTypes`). */
  supported: readonly string[];
  /** Calls `seen` once an entry of `type` has been reported (now, if one was already); returns a stop function. */
  observe(type: string, seen: () => void): () => void;
  hidden(): boolean;
  /** Calls `run` in the task after the next frame (where no paint entry is reported: a frame, then a task). */
  afterFrame(run: () => void): void;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** Waits no longer than this for the paint entries (a browser that reports none of a painted page, a slow device). */
export const FIRST_PAINT_FALLBACK_MS = 1000;

const PAINT_TYPES = ["paint", "largest-contentful-paint"] as const;

function pageWatch(): PaintWatch {
  return {
    supported: globalThis.PerformanceObserver?.supportedEntryTypes ?? [],
    observe(type, seen) {
      const observer = new PerformanceObserver((list) => {
        // "paint" reports first-paint too, which may come before any text is drawn.
        if (list.getEntries().some((entry) => type !== "paint" || entry.name === "first-contentful-paint")) seen();
      });
      observer.observe({ type, buffered: true });
      return () => observer.disconnect();
    },
    hidden: () => document.visibilityState === "hidden",
    afterFrame: (run) => requestAnimationFrame(() => globalThis.setTimeout(run, 0)),
    setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id as number),
  };
}

/**
 * Resolves once the browser has reported the first contentful paint and a largest contentful paint (each only where
 * the browser reports that type; a frame and a task where it reports neither), at once in a hidden tab (which paints
 * nothing), and after FIRST_PAINT_FALLBACK_MS at the latest. In a build whose index.html showed its prerendered first
 * screen, both were reported before the app's script was loaded, so this resolves right away.
 */
export function afterFirstPaint(watch: PaintWatch = pageWatch()): Promise<void> {
  if (watch.hidden()) return Promise.resolve();
  const types = PAINT_TYPES.filter((type) => watch.supported.includes(type));
  if (types.length === 0) return new Promise((resolve) => watch.afterFrame(resolve));
  return new Promise((resolve) => {
    const stops: (() => void)[] = [];
    let waiting = types.length;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      watch.clearTimeout(timer);
      // Observers may call back while being set up (buffered entries): stop them after this turn.
      queueMicrotask(() => stops.forEach((stop) => stop()));
      resolve();
    };
    const timer = watch.setTimeout(finish, FIRST_PAINT_FALLBACK_MS);
    for (const type of types) {
      let seen = false;
      stops.push(
        watch.observe(type, () => {
          if (seen) return;
          seen = true;
          if (--waiting === 0) finish();
        }),
      );
    }
  });
}

let painted: Promise<void> | undefined;

/** `afterFirstPaint` for this page, shared by everyone who waits for it. */
export function firstPaint(): Promise<void> {
  return (painted ??= afterFirstPaint());
}
