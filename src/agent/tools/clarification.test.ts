import { describe, expect, it } from "vitest";
import { formatClarification, normalizeOptions } from "./clarification.ts";

describe("formatClarification", () => {
  it("puts the type's icon before the question and numbers the options", () => {
    expect(
      formatClarification({
        question: "Which format?",
        clarification_type: "approach_choice",
        options: ["PDF", "Markdown"],
      }),
    ).toBe("🔀 Which format?\n\n  1. PDF\n  2. Markdown");
  });

  it("leads with the context when there is one", () => {
    expect(
      formatClarification({
        question: "Delete them?",
        clarification_type: "risk_confirmation",
        context: "This removes 12 files.",
      }),
    ).toBe("⚠️ This removes 12 files.\n\nDelete them?");
    expect(formatClarification({ question: "Which city?", clarification_type: "missing_info" })).toBe("❓ Which city?");
  });

  it("cleans options: tags stripped, blanks and repeats dropped", () => {
    expect(normalizeOptions(["<b>Yes</b>", " yes ", "Yes", "", "  ", 3, null])).toEqual(["Yes", "yes", "3"]);
  });
});
