import { describe, expect, it } from "vitest";
import { SerialQueue } from "./serial-queue.ts";

describe("SerialQueue", () => {
  it("runs operations one after another, in order, and a failure does not stop the next", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const step = (name: string, ms: number, fail = false) =>
      queue.run(async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step("a", 20), step("b", 1, true), step("c", 5)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    await queue.idle();
  });
});
