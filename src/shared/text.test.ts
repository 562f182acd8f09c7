import { describe, expect, it } from "vitest";
import { titleFromText } from "./text.ts";

describe("titleFromText", () => {
  it("keeps a short message as it is, on one line", () => {
    expect(titleFromText("  hello\n  world ")).toBe("hello world");
  });

  it("cuts a long message at a word boundary and marks the cut", () => {
    const title = titleFromText("Write a detailed report about the history of the printing press in Europe and Asia");
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThanOrEqual(61);
    expect(title).toBe("Write a detailed report about the history of the printing…");
  });

  it("names an empty message 'New thread'", () => {
    expect(titleFromText("   ")).toBe("New thread");
  });
});
