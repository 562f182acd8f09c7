// Cutting a long job on the main thread into tasks: between two parts the browser may handle input, draw a frame and
// run other tasks, so no single task blocks the page for long (Lighthouse's Total Blocking Time counts every task
// over 50 ms on a 4× slower phone, i.e. over ~12 ms here).

/** What `yieldToBrowser` needs from the page; tests pass their own. */
export interface YieldHost {
  /** `scheduler.yield` where the browser has it (Chromium 129+, Firefox 142+). */
  schedulerYield?: () => Promise<void>;
  /** Posts `run` as a task of its own (a MessageChannel message: no setTimeout clamping). */
  postTask(run: () => void): void;
}

let channel: { port: MessagePort; waiting: (() => void)[] } | undefined;

function pageHost(): YieldHost {
  const scheduler = (globalThis as { scheduler?: Partial<Scheduler> }).scheduler;
  return {
    schedulerYield: typeof scheduler?.yield === "function" ? () => scheduler.yield!() : undefined,
    postTask(run) {
      if (typeof MessageChannel !== "function") {
        setTimeout(run, 0);
        return;
      }
      if (!channel) {
        const { port1, port2 } = new MessageChannel();
        const waiting: (() => void)[] = [];
        // One message, one waiting callback, in order.
        port1.onmessage = () => waiting.shift()?.();
        channel = { port: port2, waiting };
      }
      channel.waiting.push(run);
      channel.port.postMessage(undefined);
    },
  };
}

/**
 * Resolves in a later task. With `scheduler.yield` the continuation keeps its place ahead of tasks queued since
 * (a job that yields is not overtaken by everything else the page queued), else a message task.
 */
export function yieldToBrowser(host: YieldHost = pageHost()): Promise<void> {
  if (host.schedulerYield) return host.schedulerYield();
  return new Promise((resolve) => host.postTask(resolve));
}
