// The page's handle on the agent worker: the Gateway's typed methods over comlink.
import * as Comlink from "comlink";
import type { GatewayApi, RunEvent, RunRequest } from "../protocol/index.ts";

export type GatewayClient = Comlink.Remote<GatewayApi>;

export function connectGateway(): GatewayClient {
  const worker = new Worker(new URL("../../workers/agent.worker.ts", import.meta.url), {
    type: "module",
    name: "fawn-agent",
  });
  return Comlink.wrap<GatewayApi>(worker);
}

/** Starts a run; `onEvent` receives every event in order, `end` last. Resolves when the run has ended. */
export function streamRun(
  client: GatewayClient,
  request: RunRequest,
  onEvent: (event: RunEvent) => void,
): Promise<void> {
  return client.runStream(request, Comlink.proxy(onEvent));
}

/** The message of an error thrown in the worker (comlink re-creates it as an Error). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
