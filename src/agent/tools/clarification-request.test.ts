import { describe, expect, it } from "vitest";
import type { HumanInputFormRequest } from "../../protocol/index.ts";
import {
  FORM_LIMITS,
  humanInputRequest,
  humanInputText,
  isRequired,
  normalizeFields,
  normalizeOptions,
  type ClarificationArgs,
} from "./clarification-request.ts";

const IDS = { requestId: "clarification:call-abc", toolCallId: "call-abc" };

function request(args: Partial<ClarificationArgs>) {
  return humanInputRequest({ question: "Which one?", clarification_type: "approach_choice", ...args }, IDS);
}

function optionLines(options: unknown): string[] {
  return humanInputText(request({ options })).split("\n").slice(2);
}

const EXPENSE_FIELDS = [
  { name: "amount", label: "Amount", type: "number", required: true, placeholder: "In euros" },
  { name: "category", label: "Category", type: "select", required: "true", options: ["travel", "meals"] },
  { name: "receipts", label: "Receipts", type: "multi_select", options: [" A-1 ", "A-2", "A-1", ""] },
  { name: "note", type: "textarea" },
];

describe("options, as the model may send them", () => {
  it("takes a list", () => {
    expect(optionLines(["dev", "staging", "prod"])).toEqual(["  1. dev", "  2. staging", "  3. prod"]);
  });

  it("takes a JSON string of a list", () => {
    expect(optionLines('["dev","staging","prod"]')).toEqual(["  1. dev", "  2. staging", "  3. prod"]);
  });

  it("takes a JSON string of a scalar, or a plain string, as one option", () => {
    expect(optionLines('"prod"')).toEqual(["  1. prod"]);
    expect(optionLines("42")).toEqual(["  1. 42"]);
    expect(optionLines("just this one")).toEqual(["  1. just this one"]);
  });

  it("spells mixed types as JavaScript does", () => {
    expect(optionLines(["Option A", 2, true, null])).toEqual(["  1. Option A", "  2. 2", "  3. true", "  4. null"]);
  });

  it("has none when options are missing, null, empty or blank", () => {
    for (const options of [undefined, null, [], "", "   ", "null", "[]", ["", "  ", "<br/>"]]) {
      expect(humanInputText(request({ options }))).toBe("🔀 Which one?");
      expect(request({ options }).input_mode).toBe("free_text");
    }
  });

  it("strips tags, trims, drops blanks and repeats, and splits XML-ish elements and dicts into options", () => {
    expect(normalizeOptions(["<b>Yes</b>", " yes ", "Yes", "", "  ", 3])).toEqual(["Yes", "yes", "3"]);
    expect(normalizeOptions("<options><option>A</option><option> B </option></options>")).toEqual(["A", "B"]);
    expect(normalizeOptions({ option: ["A", "B"], other: "C" })).toEqual(["A", "B", "C"]);
    expect(normalizeOptions(["a < b", "x > y"])).toEqual(["a < b", "x > y"]);
  });

  it("keeps at most 24 options of at most 200 characters", () => {
    const many = Array.from({ length: 30 }, (_, index) => `option ${index}`);
    expect(normalizeOptions(many)).toHaveLength(24);
    expect(normalizeOptions(["x".repeat(250)])[0]).toHaveLength(200);
  });
});

describe("the request (human_input)", () => {
  it("is version 1 choice_with_other with numbered option ids for options", () => {
    expect(
      humanInputRequest(
        {
          question: "Which environment?",
          clarification_type: "approach_choice",
          context: "Deploying the app.",
          options: ["dev", "staging", "prod"],
        },
        IDS,
      ),
    ).toEqual({
      version: 1,
      kind: "human_input_request",
      source: "ask_clarification",
      request_id: "clarification:call-abc",
      tool_call_id: "call-abc",
      clarification_type: "approach_choice",
      question: "Which environment?",
      context: "Deploying the app.",
      input_mode: "choice_with_other",
      options: [
        { id: "option-1", label: "dev", value: "dev" },
        { id: "option-2", label: "staging", value: "staging" },
        { id: "option-3", label: "prod", value: "prod" },
      ],
    });
  });

  it("is free_text with no options key (and no context key) when there are no options", () => {
    const free = humanInputRequest({ question: "Which city?", clarification_type: "missing_info" }, IDS);
    expect(free).toEqual({
      version: 1,
      kind: "human_input_request",
      source: "ask_clarification",
      request_id: "clarification:call-abc",
      tool_call_id: "call-abc",
      clarification_type: "missing_info",
      question: "Which city?",
      input_mode: "free_text",
    });
    expect("options" in free).toBe(false);
    expect("context" in free).toBe(false);
  });

  it("counts an unknown or missing clarification type as missing_info", () => {
    expect(humanInputRequest({ question: "?", clarification_type: "curiosity" }, IDS).clarification_type).toBe(
      "missing_info",
    );
    expect(humanInputRequest({ question: "?" }, IDS).clarification_type).toBe("missing_info");
    expect(humanInputRequest({ question: "?", clarification_type: " Suggestion " }, IDS).clarification_type).toBe(
      "suggestion",
    );
  });
});

describe("the question's text", () => {
  it("puts the type's icon before the question and numbers the options", () => {
    expect(
      humanInputText(
        humanInputRequest(
          { question: "Which format?", clarification_type: "approach_choice", options: ["PDF", "Markdown"] },
          IDS,
        ),
      ),
    ).toBe("🔀 Which format?\n\n  1. PDF\n  2. Markdown");
  });

  it("leads with the context when there is one", () => {
    const risky = { question: "Delete them?", clarification_type: "risk_confirmation", context: "This removes 12." };
    expect(humanInputText(humanInputRequest(risky, IDS))).toBe("⚠️ This removes 12.\n\nDelete them?");
    expect(humanInputText(humanInputRequest({ question: "Really?", clarification_type: "suggestion" }, IDS))).toBe(
      "💡 Really?",
    );
    expect(
      humanInputText(humanInputRequest({ question: "Which?", clarification_type: "ambiguous_requirement" }, IDS)),
    ).toBe("🤔 Which?");
  });
});

describe("forms", () => {
  const form = () => request({ fields: EXPENSE_FIELDS, options: ["ignored"] }) as HumanInputFormRequest;

  it("are version 2 and take precedence over options", () => {
    const expense = form();
    expect(expense.version).toBe(2);
    expect(expense.input_mode).toBe("form");
    expect("options" in expense).toBe(false);
    expect(expense.fields.map((field) => field.name)).toEqual(["amount", "category", "receipts", "note"]);
  });

  it("normalize each field: label defaults to the name, options get ids, blanks and repeats dropped", () => {
    expect(form().fields).toEqual([
      { name: "amount", label: "Amount", type: "number", required: true, placeholder: "In euros" },
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
    ]);
  });

  it("list each field in the text, then ask for a value for each", () => {
    expect(humanInputText(form()).split("\n")).toEqual([
      "🔀 Which one?",
      "",
      "  1. Amount (required)",
      "  2. Category (required) — options: travel / meals",
      "  3. Receipts — options: A-1 / A-2 (multiple allowed)",
      "  4. note",
      "",
      "Please reply with a value for each field.",
    ]);
  });

  it("take a JSON string of the list", () => {
    expect(normalizeFields(JSON.stringify(EXPENSE_FIELDS))).toHaveLength(4);
  });

  it("turn an unknown type, and a select without options, into text", () => {
    expect(normalizeFields([{ name: "a", type: "color" }, { name: "b" }])?.map((field) => field.type)).toEqual([
      "text",
      "text",
    ]);
    expect(normalizeFields([{ name: "c", type: "select", options: [] }])).toEqual([
      { name: "c", label: "c", type: "text", required: false },
    ]);
    expect(normalizeFields([{ name: "d", type: "multi-select", options: ["x"] }])?.[0]?.type).toBe("multi_select");
    expect(normalizeFields([{ name: "e", type: "text", options: ["x"] }])?.[0]).not.toHaveProperty("options");
  });

  it("accept true, 1, 'true', 'yes' and '1' as required", () => {
    for (const value of [true, 1, "true", "yes", " YES ", "1"]) expect(isRequired(value)).toBe(true);
    for (const value of [false, 0, "false", "no", "", null, undefined, 2]) expect(isRequired(value)).toBe(false);
  });

  it("keep the placeholder", () => {
    expect(form().fields[0]?.placeholder).toBe("In euros");
  });

  describe("are dropped whole, falling back to options or free text, when", () => {
    const cases: [string, unknown][] = [
      ["one entry is not an object", [{ name: "a" }, "b"]],
      ["one entry has no name", [{ name: "a" }, { label: "B" }]],
      ["one name is blank", [{ name: "a" }, { name: "  " }]],
      ["a label is not text", [{ name: "a", label: { text: "A" } }]],
      ["two fields share a name", [{ name: "a" }, { name: "a" }]],
      ["a name is __proto__", [{ name: "__proto__" }]],
      ["a name is constructor", [{ name: "constructor" }]],
      ["a name is toString", [{ name: "toString" }]],
      ["a name is hasOwnProperty", [{ name: "hasOwnProperty" }]],
      ["a name is prototype", [{ name: "prototype" }]],
      ["a name is valueOf", [{ name: "valueOf" }]],
      ["there are more than 16 fields", Array.from({ length: 17 }, (_, index) => ({ name: `f${index}` }))],
      [
        "a field has more than 24 options",
        [{ name: "a", type: "select", options: Array.from({ length: 25 }, (_, index) => `o${index}`) }],
      ],
      ["a label is over 200 characters", [{ name: "a", label: "x".repeat(201) }]],
      ["an option is over 200 characters", [{ name: "a", type: "select", options: ["x".repeat(201)] }]],
      ["a placeholder is over 200 characters", [{ name: "a", placeholder: "x".repeat(201) }]],
      [
        "the form is over 16 KB",
        Array.from({ length: 16 }, (_, field) => ({
          name: `f${field}`,
          type: "select",
          options: Array.from({ length: 24 }, (_, option) => `${option}`.padEnd(190, "x")),
        })),
      ],
    ];
    it.each(cases)("%s", (_, fields) => {
      expect(normalizeFields(fields)).toBeUndefined();
      expect(request({ fields, options: ["yes", "no"] })).toMatchObject({
        version: 1,
        input_mode: "choice_with_other",
      });
      expect(request({ fields }).input_mode).toBe("free_text");
    });

    it("(the limits themselves are allowed)", () => {
      const sixteen = Array.from({ length: FORM_LIMITS.fields }, (_, index) => ({ name: `f${index}` }));
      expect(normalizeFields(sixteen)).toHaveLength(16);
      const options = Array.from({ length: FORM_LIMITS.options }, (_, index) => `o${index}`);
      expect(normalizeFields([{ name: "a", type: "select", label: "x".repeat(200), options }])).toHaveLength(1);
    });
  });

  it("are absent when fields are missing, null or empty", () => {
    for (const fields of [undefined, null, [], "[]", ""]) expect(normalizeFields(fields)).toBeUndefined();
  });
});
