// Shared setup for the Gateway integration tests: one mock model per file, a fresh configured Gateway per test.
import "fake-indexeddb/auto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, RunRequest } from "../../src/protocol/index.ts";
import { BrowserSandbox } from "../../src/sandbox/browser/browser-sandbox.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";

export interface Harness {
  mock: MockLlm;
  gateway: Gateway;
  /** A new, unconfigured Gateway over its own empty database. */
  freshGateway(): Promise<Gateway>;
  /** The database name of the current `gateway`. */
  gatewayDbName(): string;
}

/** Registers the hooks; read the fields inside tests (they are replaced before each one). */
export function useGatewayHarness(name: string): Harness {
  let dbCount = 0;
  let current = "";
  const harness = {
    freshGateway: () =>
      Gateway.open(`${name}-${dbCount++}`, {
        openSandbox: async (threadId, files, skills) =>
          BrowserSandbox.open({ threadId, files, skills: await skills() }),
        // The retry policy with short waits, so a scripted 500 does not take seconds.
        retry: { initialDelayMs: 10, maxDelayMs: 50 },
      }),
    gatewayDbName: () => current,
  } as Harness;
  beforeAll(async () => {
    harness.mock = await startMockLlm({ port: 0 });
  });
  afterAll(async () => {
    await harness.mock.close();
  });
  beforeEach(async () => {
    harness.mock.reset();
    current = `${name}-${dbCount}`;
    harness.gateway = await harness.freshGateway();
    await harness.gateway.saveModelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" });
  });
  return harness;
}

/** Sends `text` on the thread and collects the run's events (passing each to `onEvent` as it comes). */
export async function runThread(
  gateway: Gateway,
  threadId: string,
  text: string,
  onEvent?: (event: RunEvent) => void,
  context?: RunRequest["context"],
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await gateway.runStream(
    {
      run_id: crypto.randomUUID(),
      thread_id: threadId,
      input: { messages: [{ type: "human", content: text }] },
      ...(context && { context }),
    },
    (event) => {
      events.push(event);
      onEvent?.(event);
    },
  );
  return events;
}
