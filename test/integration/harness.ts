// Shared setup for the Gateway integration tests: one mock model per file, a fresh configured Gateway per test.
import "fake-indexeddb/auto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { openGateway, type Gateway } from "../../src/gateway/index.ts";
import type { ModelEndpoint, ModelEntry, ModelSettings, RunEvent, RunRequest } from "../../src/protocol/index.ts";
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
      openGateway(`${name}-${dbCount++}`, {
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
    await harness.gateway.settings.saveModels(
      modelSettings({ baseUrl: harness.mock.url, apiKey: "sk-test", model: "mock-model" }),
    );
  });
  return harness;
}

/** The first endpoint's fields as Settings → Models shows them, and the endpoints after it. */
export interface EndpointFields {
  baseUrl: string;
  apiKey: string;
  model: string;
  models?: ModelEntry[];
  name?: string;
  useProxy?: boolean;
  modelTitles?: boolean;
  endpoints?: ModelEndpoint[];
  defaultModel?: { endpoint: string; model: string };
}

/**
 * Model settings with a first endpoint (id `main`) holding `model` as the default (unless `defaultModel` names
 * another endpoint's), followed by `endpoints`.
 */
export function modelSettings(fields: EndpointFields): ModelSettings {
  const listed = fields.models ?? [];
  const models = listed.some((entry) => entry.id === fields.model.trim()) ? listed : [{ id: fields.model }, ...listed];
  return {
    endpoints: [
      {
        id: "main",
        name: fields.name ?? "Main endpoint",
        baseUrl: fields.baseUrl,
        apiKey: fields.apiKey,
        models,
        ...(fields.useProxy && { useProxy: true }),
      },
      ...(fields.endpoints ?? []),
    ],
    defaultModel: fields.defaultModel ?? { endpoint: "main", model: fields.model },
    ...(fields.modelTitles && { modelTitles: true }),
  };
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
  await gateway.runs.stream(
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
