// The page's handle on the agent worker: the Gateway's domains over comlink (`client.threads.list()` calls
// ThreadsService.list in the worker).
import * as Comlink from "comlink";
import type { GatewayApi, RunEvent, RunRequest, WorkspaceGatewayApi } from "../protocol/index.ts";
import { firstPaint } from "./shared/first-paint.ts";
import { yieldToBrowser } from "./shared/yield-to-browser.ts";

/**
 * The Gateway as the page calls it: each domain's contract, its methods answering promises. (Comlink's own
 * `Remote<GatewayApi>` would type a domain as a promise of it; at run time its proxy follows `client.threads.list`
 * as a path and calls the method in the worker with the service as `this`.)
 */
export type GatewayClient = { [K in keyof GatewayApi]: Comlink.Remote<GatewayApi[K]> };

/** A server's workspace as the page calls it (`client.openWorkspace(id)`): the same domains, and `workspace`. */
export type WorkspaceClient = { [K in keyof WorkspaceGatewayApi]: Comlink.Remote<WorkspaceGatewayApi[K]> };

let connected: GatewayClient | undefined;

/**
 * A comlink endpoint for a worker that `start` makes later: messages posted before it exists wait (in order), and
 * listeners are attached to it once it does. Calls made at once (the app's first Gateway calls) simply wait.
 */
export function laterWorkerEndpoint(ready: Promise<void>, start: () => Worker): Comlink.Endpoint {
  type Listener = [string, EventListenerOrEventListenerObject, AddEventListenerOptions | boolean | undefined];
  let worker: Worker | undefined;
  const waiting: [unknown, Transferable[] | undefined][] = [];
  const listeners: Listener[] = [];
  void ready.then(() => {
    worker = start();
    for (const [type, listener, options] of listeners) worker.addEventListener(type, listener, options);
    for (const [message, transfer] of waiting.splice(0)) worker.postMessage(message, transfer ?? []);
  });
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      if (worker) worker.postMessage(message, transfer ?? []);
      else waiting.push([message, transfer]);
    },
    addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions) {
      listeners.push([type, listener, options]);
      worker?.addEventListener(type, listener, options);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions) {
      const index = listeners.findIndex(([known, added]) => known === type && added === listener);
      if (index >= 0) listeners.splice(index, 1);
      worker?.removeEventListener(type, listener, options);
    },
  };
}

/**
 * The page's one agent worker: the first call makes the client, later calls (e.g. lazy panels) get the same one. The
 * worker itself starts once the first screen has been painted (shared/first-paint.ts), so its download (the largest
 * of the app) does not compete with the first screen's; calls made before wait for it. Making a worker takes a few
 * milliseconds of the main thread: it is a task of its own.
 */
export function connectGateway(): GatewayClient {
  if (connected) return connected;
  const painted = firstPaint().then(() => yieldToBrowser());
  const endpoint = laterWorkerEndpoint(
    painted,
    () => new Worker(new URL("../../workers/agent.worker.ts", import.meta.url), { type: "module", name: "fawn-agent" }),
  );
  const client = Comlink.wrap<GatewayApi>(endpoint) as unknown as GatewayClient;
  connected = client;
  // python3 runs walled off in frames only the page can make; loaded after the first paint, python3 waits for it.
  void painted
    .then(() => import("../sandbox/python/page/python-frame-host.ts"))
    .then(({ PythonFrameHost }) => client.sandbox.attachPythonHost(Comlink.proxy(new PythonFrameHost())));
  return connected;
}

/**
 * Starts a run; `onEvents` receives every event in order, `end` last, a batch at a time. Resolves when the run has
 * ended. The worker sends at most a frame's worth at a time (RunsApi.streamBatched), so a streaming reply costs
 * the page one message a frame rather than one a token, and none at all until the promise `onEvents` returned for
 * the last batch has settled (the page is ready to show more).
 */
export function streamRun(
  client: GatewayClient,
  request: RunRequest,
  onEvents: (events: RunEvent[]) => void | Promise<void>,
): Promise<void> {
  return client.runs.streamBatched(request, Comlink.proxy(onEvents));
}

/** The message of an error thrown in the worker (comlink re-creates it as an Error). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
