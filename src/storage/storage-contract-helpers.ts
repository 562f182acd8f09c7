// What the storage contract's checks (storage-contract.ts) are written with: assertions that need no test framework
// (so the same checks run in vitest and in a browser page), and a thread as a run leaves one.
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import type { ThreadSummary } from "../protocol/index.ts";
import type { FawnStorage } from "./contracts.ts";

class ContractError extends Error {
  override name = "ContractError";
}

export function ok(condition: unknown, what: string): asserts condition {
  if (!condition) throw new ContractError(what);
}

/** Deep equality for records (plain objects, arrays, Uint8Arrays, Maps, Sets). */
export function equal(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true;
  if (actual instanceof Uint8Array && expected instanceof Uint8Array) {
    return actual.length === expected.length && actual.every((byte, index) => byte === expected[index]);
  }
  if (actual instanceof Map && expected instanceof Map) return equal([...actual], [...expected]);
  if (actual instanceof Set && expected instanceof Set) return equal([...actual], [...expected]);
  if (typeof actual !== "object" || typeof expected !== "object" || !actual || !expected) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  const a = Object.entries(actual).filter(([, value]) => value !== undefined);
  const b = Object.entries(expected).filter(([, value]) => value !== undefined);
  return a.length === b.length && b.every(([key, value]) => equal((actual as Record<string, unknown>)[key], value));
}

export function same(actual: unknown, expected: unknown, what: string): void {
  if (!equal(actual, expected)) {
    throw new ContractError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

export function show(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof Map ? [...inner] : inner instanceof Set ? [...inner] : inner,
  );
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new ContractError(`${what}: expected a rejection`);
}

export const bytes = (text: string) => new TextEncoder().encode(text);
export const text = (value: Uint8Array | undefined) => (value ? new TextDecoder().decode(value) : undefined);
export const wait = () => new Promise((resolve) => setTimeout(resolve, 2));

/** A thread with a checkpointed message list, a file, a run and a search entry, as a run leaves one. */
export async function fullThread(storage: FawnStorage, title = "Full"): Promise<ThreadSummary> {
  const thread = await storage.threads.create({ title });
  const config = { configurable: { thread_id: thread.thread_id, checkpoint_ns: "" } };
  const checkpoint = emptyCheckpoint();
  checkpoint.id = uuid6(-1);
  const version = storage.checkpointer.getNextVersion(undefined);
  checkpoint.channel_versions = { messages: version };
  checkpoint.channel_values = {
    messages: [new HumanMessage({ id: "m1", content: "hello" }), new AIMessage({ id: "m2", content: "hi there" })],
  };
  await storage.checkpointer.put(config, checkpoint, { source: "loop", step: 0, parents: {} }, { messages: version });
  await storage.files.write(thread.thread_id, [{ path: "/mnt/user-data/outputs/a.txt", bytes: bytes("A") }]);
  await storage.threads.recordRun({
    thread_id: thread.thread_id,
    run_id: "r1",
    status: "success",
    created_at: 1,
    updated_at: 2,
  });
  await storage.search.put([{ threadId: thread.thread_id, text: "hello hi there" }]);
  return thread;
}
