// Shared setup for the Gateway integration tests: one mock model per file, a fresh configured Gateway per test. The
// Gateway is over IndexedDB (fake-indexeddb), or over the in-memory store with no IndexedDB loaded when
// FAWN_TEST_STORAGE=memory (vitest.memory.config.ts).
import { afterAll, beforeAll, beforeEach } from "vitest";
import { openGatewayOver, type Gateway, type GatewayOptions } from "../../src/gateway/index.ts";
import type { ModelEndpoint, ModelEntry, ModelSettings, RunEvent, RunRequest } from "../../src/protocol/index.ts";
import { BrowserSandbox } from "../../src/sandbox/browser/browser-sandbox.ts";
import {
  indexedDbStorage,
  memoryStorage,
  MemoryTables,
  openFawnDb,
  type FawnStorage,
} from "../../src/storage/index.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";

/** Whether the Gateway runs over the in-memory store (else IndexedDB, over fake-indexeddb in Node). */
export const IN_MEMORY = process.env.FAWN_TEST_STORAGE === "memory";
if (!IN_MEMORY) await import("./with-fake-indexeddb.ts");

const memoryTables = new Map<string, MemoryTables>();

/** The storage named `name`: the same data each time it is opened (a second tab, a check of what was stored). */
export async function openStorage(name: string): Promise<FawnStorage> {
  if (!IN_MEMORY) return indexedDbStorage(await openFawnDb(name));
  let tables = memoryTables.get(name);
  if (!tables) memoryTables.set(name, (tables = new MemoryTables()));
  return memoryStorage(tables);
}

/** A Gateway over the storage named `name`, as openGateway opens one over a database of that name. */
export async function openTestGateway(name: string, options: GatewayOptions = {}): Promise<Gateway> {
  return openGatewayOver(await openStorage(name), options);
}

export interface Harness {
  mock: MockLlm;
  gateway: Gateway;
  /** A new, unconfigured Gateway over its own empty database. */
  freshGateway(): Promise<Gateway>;
  /** The database name of the current `gateway`. */
  gatewayDbName(): string;
  /** The storage of the current `gateway` (its data, read or changed behind its back). */
  storage(): Promise<FawnStorage>;
}

/** Registers the hooks; read the fields inside tests (they are replaced before each one). */
export function useGatewayHarness(name: string): Harness {
  let dbCount = 0;
  let current = "";
  const harness = {
    freshGateway: () =>
      openTestGateway(`${name}-${dbCount++}`, {
        openSandbox: async (threadId, files, skills) =>
          BrowserSandbox.open({ threadId, files, skills: await skills() }),
        // The retry policy with short waits, so a scripted 500 does not take seconds.
        retry: { initialDelayMs: 10, maxDelayMs: 50 },
      }),
    gatewayDbName: () => current,
    storage: () => openStorage(current),
  } as Harness;
  beforeAll(async () => {
    if (IN_MEMORY && "indexedDB" in globalThis) throw new Error("FAWN_TEST_STORAGE=memory, yet IndexedDB is loaded.");
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
