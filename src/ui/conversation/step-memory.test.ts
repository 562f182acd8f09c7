import { createRoot } from "solid-js";
import { describe, expect, it } from "vitest";
import { createStepMemory } from "./step-memory.ts";

describe("the memory of a thread's opened steps", () => {
  it("remembers each call's step opened or closed, and its images once shown", () => {
    createRoot((dispose) => {
      const memory = createStepMemory();
      expect(memory.opened("call_1")).toBe(false);
      memory.setOpened("call_1", true);
      expect(memory.opened("call_1")).toBe(true);
      expect(memory.opened("call_2")).toBe(false);
      memory.setOpened("call_1", false);
      expect(memory.opened("call_1")).toBe(false);
      expect(memory.imagesShown("call_3")).toBe(false);
      memory.showImages("call_3");
      expect(memory.imagesShown("call_3")).toBe(true);
      expect(memory.opened("call_3")).toBe(false);
      dispose();
    });
  });
});
