import { describe, expect, it } from "vitest";
import { yieldToBrowser } from "./yield-to-browser.ts";

describe("yieldToBrowser", () => {
  it("uses scheduler.yield where the browser has it", async () => {
    let yields = 0;
    await yieldToBrowser({
      schedulerYield: async () => void yields++,
      postTask: () => {
        throw new Error("not used");
      },
    });
    expect(yields).toBe(1);
  });

  it("else resolves in a task posted for it, not before", async () => {
    const posted: (() => void)[] = [];
    let resolved = false;
    const done = yieldToBrowser({ postTask: (run) => posted.push(run) }).then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    expect(posted).toHaveLength(1);
    posted[0]!();
    await done;
    expect(resolved).toBe(true);
  });

  it("resolves in a later task with the page's own host (Node has MessageChannel)", async () => {
    const order: string[] = [];
    const yielded = yieldToBrowser().then(() => order.push("yielded"));
    await Promise.resolve().then(() => order.push("microtask"));
    await yielded;
    expect(order).toEqual(["microtask", "yielded"]);
  });
});
