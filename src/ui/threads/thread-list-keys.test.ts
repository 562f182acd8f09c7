import { describe, expect, it } from "vitest";
import { keyTarget } from "./thread-list-keys.ts";

describe("keyTarget", () => {
  it("moves one row with the arrows, a page with Page Up/Down, and to the ends with Home/End, within the list", () => {
    expect(keyTarget("ArrowDown", 3, 10, 4)).toBe(4);
    expect(keyTarget("ArrowUp", 3, 10, 4)).toBe(2);
    expect(keyTarget("ArrowUp", 0, 10, 4)).toBe(0);
    expect(keyTarget("ArrowDown", 9, 10, 4)).toBe(9);
    expect(keyTarget("PageDown", 8, 10, 4)).toBe(9);
    expect(keyTarget("PageUp", 5, 10, 4)).toBe(1);
    expect(keyTarget("Home", 5, 10, 4)).toBe(0);
    expect(keyTarget("End", 5, 10_000, 4)).toBe(9_999);
  });

  it("ignores other keys and empty lists", () => {
    expect(keyTarget("Enter", 1, 10, 4)).toBeUndefined();
    expect(keyTarget("ArrowDown", 0, 0, 4)).toBeUndefined();
  });
});
