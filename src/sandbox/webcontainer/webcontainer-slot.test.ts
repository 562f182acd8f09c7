import { describe, expect, it, vi } from "vitest";
import { bootFakeSlot, FakeWebContainer } from "./fake-webcontainer.ts";
import { WebContainerSlot, type SlotTenant, type WebContainerLike } from "./webcontainer-slot.ts";

/** A tenant that records what the slot asks of it. */
function tenant(name: string, log: string[], moveIn?: () => Promise<void>): SlotTenant {
  return {
    moveIn: async () => {
      log.push(`${name} in`);
      await moveIn?.();
    },
    moveOut: async () => void log.push(`${name} out`),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("WebContainerSlot", () => {
  it("lends the first, unused container to the first thread, and a fresh one to each next thread", async () => {
    const { slot, booted } = await bootFakeSlot();
    const log: string[] = [];
    const a = tenant("a", log);
    const b = tenant("b", log);
    const first = await slot.use(a, async (container) => container);
    expect(first).toBe(booted[0]);
    expect(await slot.use(a, async (container) => container)).toBe(first);
    const second = await slot.use(b, async (container) => container);
    expect(second).not.toBe(first);
    expect(booted.map((container) => container.isTornDown)).toEqual([true, false]);
    expect(log).toEqual(["a in", "a out", "b in"]);
  });

  it("lets a thread's own uses run side by side, and hands over only when they are done", async () => {
    const { slot } = await bootFakeSlot();
    const events: string[] = [];
    const a = tenant("a", events);
    const b = tenant("b", events);
    const long = slot.use(a, async () => {
      events.push("a long starts");
      await pause(100);
      events.push("a long ends");
    });
    await pause(10);
    const other = slot.use(b, async () => void events.push("b runs"));
    const read = slot.use(a, async () => void events.push("a read"));
    await Promise.all([long, other, read]);
    // a's read, asked for after b, waits for b's turn: b would otherwise wait for as long as a keeps reading.
    expect(events).toEqual([
      "a in",
      "a long starts",
      "a long ends",
      "a out",
      "b in",
      "b runs",
      "b out",
      "a in",
      "a read",
    ]);
  });

  it("tears the container down when a thread cannot move in, and boots again for the next use", async () => {
    const { slot, booted } = await bootFakeSlot();
    const log: string[] = [];
    const failing = tenant("a", log, () => Promise.reject(new Error("store unavailable")));
    await expect(slot.use(failing, async () => "ran")).rejects.toThrow("store unavailable");
    expect(booted[0]?.isTornDown).toBe(true);
    expect(await slot.use(tenant("b", log), async () => "ran")).toBe("ran");
    expect(booted).toHaveLength(2);
  });

  it("reports a failed boot to the use that needed it, and tries again on the next", async () => {
    const container = await FakeWebContainer.boot();
    const boot = vi
      .fn<() => Promise<WebContainerLike>>()
      .mockRejectedValueOnce(new Error("WebContainer did not start within 30 s"))
      .mockImplementation(() => FakeWebContainer.boot());
    const slot = new WebContainerSlot(boot, container);
    const log: string[] = [];
    await slot.use(tenant("a", log), async () => undefined);
    await expect(slot.use(tenant("b", log), async () => undefined)).rejects.toThrow(/did not start/);
    await expect(slot.use(tenant("b", log), async () => "ran")).resolves.toBe("ran");
    expect(boot).toHaveBeenCalledTimes(2);
  });

  it("tears the container down when the thread holding it leaves, and not when another one does", async () => {
    const { slot, booted } = await bootFakeSlot();
    const log: string[] = [];
    const a = tenant("a", log);
    await slot.use(a, async () => undefined);
    await slot.leave(tenant("b", log));
    expect(booted[0]?.isTornDown).toBe(false);
    await slot.leave(a);
    expect(booted[0]?.isTornDown).toBe(true);
    expect(log).toEqual(["a in"]);
  });
});
