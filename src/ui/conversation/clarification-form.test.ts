import { describe, expect, it } from "vitest";
import type { HumanInputChoiceRequest, HumanInputFormRequest, ToolWireMessage } from "../../protocol/index.ts";
import {
  clarificationAnswerIn,
  clarificationReplyText,
  emptyFormValues,
  formProblems,
  formSummary,
  humanInputReply,
  answerOf,
  requestOfToolMessage,
  type FieldValue,
} from "./clarification-form.ts";

const BASE = {
  kind: "human_input_request",
  source: "ask_clarification",
  request_id: "clarification:call-1",
  tool_call_id: "call-1",
  clarification_type: "approach_choice",
} as const;

const CHOICE: HumanInputChoiceRequest = {
  ...BASE,
  version: 1,
  question: "Which format?",
  input_mode: "choice_with_other",
  options: [
    { id: "option-1", label: "PDF", value: "PDF" },
    { id: "option-2", label: "Plain text", value: "Plain text" },
  ],
};

const EXPENSE: HumanInputFormRequest = {
  ...BASE,
  version: 2,
  question: "Expense details?",
  input_mode: "form",
  fields: [
    { name: "amount", label: "Amount", type: "number", required: true },
    {
      name: "category",
      label: "Category",
      type: "select",
      required: true,
      options: [
        { id: "category-option-1", label: "travel", value: "travel" },
        { id: "category-option-2", label: "meals", value: "meals" },
      ],
    },
    {
      name: "receipts",
      label: "Receipts",
      type: "multi_select",
      required: false,
      options: [
        { id: "receipts-option-1", label: "A-1", value: "A-1" },
        { id: "receipts-option-2", label: "A-2", value: "A-2" },
      ],
    },
    { name: "note", label: "note", type: "textarea", required: false },
    { name: "urgent", label: "Urgent", type: "checkbox", required: false },
    { name: "day", label: "Day", type: "date", required: false },
  ],
};

function filled(values: Record<string, FieldValue>): Map<string, FieldValue> {
  const all = emptyFormValues(EXPENSE);
  for (const [name, value] of Object.entries(values)) all.set(name, value);
  return all;
}

describe("the reply to a clarification", () => {
  it("names the question and gives the option picked", () => {
    const option = CHOICE.options![0]!;
    expect(humanInputReply(CHOICE, { kind: "option", option })).toBe(
      'For your clarification "Which format?", my answer is: PDF',
    );
  });

  it("gives the user's own words, trimmed; blank words are no reply", () => {
    const reply = humanInputReply(CHOICE, { kind: "text", text: "  Markdown, please " });
    expect(reply).toBe('For your clarification "Which format?", my answer is: Markdown, please');
    expect(humanInputReply(CHOICE, { kind: "text", text: "   " })).toBeUndefined();
  });

  it("sums up a form as 'Label: value; …', leaving out optional fields left empty and saying no for a box", () => {
    const values = filled({ amount: " 42.5 ", category: "travel", receipts: ["A-1", "A-2"], note: "" });
    expect(formSummary(EXPENSE, values)).toBe("Amount: 42.5; Category: travel; Receipts: A-1, A-2; Urgent: no");
    expect(humanInputReply(EXPENSE, { kind: "form", values })).toBe(
      'For your clarification "Expense details?", my answer is: ' +
        "Amount: 42.5; Category: travel; Receipts: A-1, A-2; Urgent: no",
    );
    const more = filled({ amount: "7", category: "meals", note: "lunch", urgent: true, day: "2026-03-01" });
    expect(formSummary(EXPENSE, more)).toBe("Amount: 7; Category: meals; note: lunch; Urgent: yes; Day: 2026-03-01");
  });

  it("is refused for a form with a required field empty or a value of the wrong kind", () => {
    expect([...formProblems(EXPENSE, emptyFormValues(EXPENSE)).values()]).toEqual([
      "Amount is required.",
      "Category is required.",
    ]);
    expect(humanInputReply(EXPENSE, { kind: "form", values: emptyFormValues(EXPENSE) })).toBeUndefined();
    const wrong = filled({ amount: "forty", category: "hotels", receipts: ["B-9"], day: "soon" });
    expect([...formProblems(EXPENSE, wrong).values()]).toEqual([
      "Amount must be a number.",
      "Choose one of the options for Category.",
      "Choose among the options for Receipts.",
      "Day must be a date.",
    ]);
  });

  it("is read back for its own question; any other next message answers too, in its own words", () => {
    const text = clarificationReplyText("Which format?", "PDF");
    expect(clarificationAnswerIn(text, "Which format?")).toBe("PDF");
    expect(clarificationAnswerIn(text, "Which city?")).toBeUndefined();
    expect(answerOf(CHOICE, text)).toBe("PDF");
    expect(answerOf(CHOICE, "Actually, skip the export")).toBe("Actually, skip the export");
    expect(answerOf(CHOICE, undefined)).toBeUndefined();
  });
});

describe("the request of an ask_clarification result", () => {
  const result: ToolWireMessage = {
    type: "tool",
    id: "clarification:call-1",
    name: "ask_clarification",
    tool_call_id: "call-1",
    content: "🔀 Which format?\n\n  1. PDF\n  2. Plain text",
  };

  it("is its artifact's human_input", () => {
    expect(requestOfToolMessage({ ...result, artifact: { human_input: CHOICE } })).toEqual(CHOICE);
    expect(requestOfToolMessage({ ...result, artifact: { human_input: EXPENSE } })).toEqual(EXPENSE);
  });

  it("is a free-text question made of its text when it has none, or a malformed one", () => {
    const broken = { ...EXPENSE, fields: [{ ...EXPENSE.fields[0]!, name: "__proto__" }] };
    for (const artifact of [undefined, { human_input: broken }, { human_input: { ...CHOICE, options: [] } }]) {
      expect(requestOfToolMessage({ ...result, artifact })).toMatchObject({
        input_mode: "free_text",
        question: result.content,
        request_id: "clarification:call-1",
      });
    }
  });
});
