import { describe, expect, it } from "vitest";
import { laterWorkerEndpoint } from "./gateway-client.ts";

/** A stand-in for a Worker: records what it is sent and lets the test answer. */
function fakeWorker() {
  const sent: unknown[] = [];
  const listeners = new Set<EventListener>();
  const worker = {
    postMessage: (message: unknown) => sent.push(message),
    addEventListener: (_type: string, listener: EventListener) => listeners.add(listener),
    removeEventListener: (_type: string, listener: EventListener) => listeners.delete(listener),
  };
  const answer = (data: unknown) => listeners.forEach((listener) => listener(new MessageEvent("message", { data })));
  return { worker: worker as unknown as Worker, sent, answer };
}

describe("laterWorkerEndpoint", () => {
  it("keeps calls made before the worker starts, in order, and hands the worker's answers to listeners", async () => {
    const fake = fakeWorker();
    let go!: () => void;
    const ready = new Promise<void>((resolve) => (go = resolve));
    let started = 0;
    const endpoint = laterWorkerEndpoint(ready, () => {
      started++;
      return fake.worker;
    });
    const answers: unknown[] = [];
    const listener = (event: Event) => answers.push((event as MessageEvent).data);
    endpoint.addEventListener("message", listener);
    endpoint.postMessage("first");
    endpoint.postMessage("second");
    expect(started).toBe(0);
    go();
    await ready;
    await Promise.resolve();
    expect(started).toBe(1);
    expect(fake.sent).toEqual(["first", "second"]);
    endpoint.postMessage("third");
    expect(fake.sent).toEqual(["first", "second", "third"]);
    fake.answer("hello");
    expect(answers).toEqual(["hello"]);
    endpoint.removeEventListener("message", listener);
    fake.answer("again");
    expect(answers).toEqual(["hello"]);
  });
});
