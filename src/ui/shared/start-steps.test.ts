import { describe, expect, it } from "vitest";
import { renderInSteps, startStep } from "./start-steps.ts";

describe("renderInSteps", () => {
  it("shows a step at once when no stepped start is under way", () => {
    expect(startStep()()).toBe(true);
  });

  it("shows the shell's steps one per pause, in the order they were made, then everything", async () => {
    const steps: (() => boolean)[] = [];
    const seen: boolean[][] = [];
    let pauses = 0;
    await renderInSteps(
      () => steps.push(startStep(), startStep(), startStep()),
      async () => {
        seen.push(steps.map((shown) => shown()));
        pauses++;
      },
    );
    expect(pauses).toBe(3);
    expect(seen).toEqual([
      [false, false, false],
      [true, false, false],
      [true, true, false],
    ]);
    expect(steps.map((shown) => shown())).toEqual([true, true, true]);
    // A part made after the start (another workspace's app) renders at once.
    expect(startStep()()).toBe(true);
  });

  it("follows steps that a step makes when it renders", async () => {
    const steps: (() => boolean)[] = [];
    let pauses = 0;
    await renderInSteps(
      () => steps.push(startStep()),
      async () => {
        pauses++;
        // The first step, about to render, makes two more inside it.
        if (pauses === 1) steps.push(startStep(), startStep());
      },
    );
    expect(pauses).toBe(3);
    expect(steps.map((shown) => shown())).toEqual([true, true, true]);
  });

  it("shows everything when the mount fails", async () => {
    const step: { shown?: () => boolean } = {};
    await expect(
      renderInSteps(
        () => {
          step.shown = startStep();
          throw new Error("mount failed");
        },
        async () => undefined,
      ),
    ).rejects.toThrow("mount failed");
    expect(step.shown?.()).toBe(true);
  });
});
