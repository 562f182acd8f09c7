// The page's handle on the agent worker: the Gateway's typed methods over comlink.
import * as Comlink from "comlink";
import type { GatewayApi, RunEvent, RunRequest } from "../protocol/index.ts";

export type GatewayClient = Comlink.Remote<GatewayApi>;

let connected: GatewayClient | undefined;

/** The page's one agent worker: the first call starts it, later calls (e.g. lazy panels) get the same client. */
export function connectGateway(): GatewayClient {
  if (connected) return connected;
  const worker = new Worker(new URL("../../workers/agent.worker.ts", import.meta.url), {
    type: "module",
    name: "fawn-agent",
  });
  const client = Comlink.wrap<GatewayApi>(worker);
  connected = client;
  // python3 runs walled off in frames only the page can make; loaded after the first paint, python3 waits for it.
  void import("../sandbox/python/page/python-frame-host.ts").then(({ PythonFrameHost }) =>
    client.attachPythonHost(Comlink.proxy(new PythonFrameHost())),
  );
  return connected;
}

/**
 * Starts a run; `onEvent` receives every event in order, `end` last. Resolves when the run has ended. The worker
 * sends them a frame's worth at a time (GatewayApi.runStreamBatched), so a streaming reply costs the page one
 * message a frame rather than one a token.
 */
export function streamRun(
  client: GatewayClient,
  request: RunRequest,
  onEvent: (event: RunEvent) => void,
): Promise<void> {
  return client.runStreamBatched(
    request,
    Comlink.proxy((events: RunEvent[]) => {
      for (const event of events) onEvent(event);
    }),
  );
}

/** The message of an error thrown in the worker (comlink re-creates it as an Error). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
