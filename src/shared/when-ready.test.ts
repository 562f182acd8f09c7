import { describe, expect, it } from "vitest";
import { whenReady } from "./when-ready.ts";

describe("whenReady", () => {
  it("calls the method once the object is ready, keeping `this`", async () => {
    let open!: (value: { count: number; add(n: number): number }) => void;
    const ready = new Promise<{ count: number; add(n: number): number }>((resolve) => (open = resolve));
    const service = whenReady(ready);
    const result = service.add(2);
    open({
      count: 40,
      add(n) {
        return this.count + n;
      },
    });
    expect(await result).toBe(42);
  });

  it("rejects calls when the object failed to open", async () => {
    const service = whenReady<{ ping(): string }>(Promise.reject(new Error("quota exceeded")));
    await expect(service.ping()).rejects.toThrow("quota exceeded");
  });
});
