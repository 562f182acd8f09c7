import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { hiddenMessage } from "../hidden-messages.ts";
import { uploadedFilesBlock } from "../middlewares/upload-announcement.ts";
import { conversationForMemory, isClarificationAnswer, memorySignals, truncateForMemory } from "./memory-messages.ts";

const FILE = { filename: "report.pdf", size: 2048, virtual_path: "/mnt/user-data/uploads/report.pdf" };

function callsTool(): AIMessage {
  return new AIMessage({
    content: "Let me look.",
    tool_calls: [{ id: "c1", name: "ls", args: {}, type: "tool_call" }],
  });
}

function clarificationAnswer(response: Record<string, unknown>): HumanMessage {
  return new HumanMessage({
    content: "Lisbon",
    additional_kwargs: { hide_from_ui: true, human_input_response: response },
  });
}

const validAnswer = {
  version: 1,
  kind: "human_input_response",
  source: "ask_clarification",
  request_id: "clarification:q1",
  value: "Lisbon",
  response_kind: "text",
};

describe("conversationForMemory", () => {
  it("keeps what the user wrote and the agent's final answers, as User/Assistant paragraphs", () => {
    const messages = [
      new SystemMessage("You are Fawn."),
      new HumanMessage("I work on a Rust compiler."),
      callsTool(),
      new ToolMessage({ content: "src/", tool_call_id: "c1", name: "ls" }),
      new AIMessage("Nice, which part?"),
      new HumanMessage({ content: [{ type: "text", text: "The borrow checker." }] }),
      new AIMessage({ content: [{ type: "text", text: "<think>they like Rust</think>Got it." }] }),
    ];
    expect(conversationForMemory(messages)).toBe(
      "User: I work on a Rust compiler.\n\nAssistant: Nice, which part?\n\nUser: The borrow checker.\n\nAssistant: Got it.",
    );
  });

  it("leaves out hidden reminders, ours and DeerFlow's", () => {
    const messages = [
      hiddenMessage("<system-reminder>today is Monday</system-reminder>"),
      new HumanMessage({ content: "todo reminder", additional_kwargs: { hide_from_ui: true } }),
      new HumanMessage("Hi"),
      new AIMessage("Hello!"),
    ];
    expect(conversationForMemory(messages)).toBe("User: Hi\n\nAssistant: Hello!");
  });

  it("keeps a well-formed clarification answer although it is hidden", () => {
    expect(conversationForMemory([clarificationAnswer(validAnswer)])).toBe("User: Lisbon");
    expect(conversationForMemory([clarificationAnswer({ ...validAnswer, value: " " })])).toBe("");
  });

  it("takes upload announcements out of the user's words", () => {
    const announced = new HumanMessage({
      content: `${uploadedFilesBlock([FILE])}\n\nSummarise this for my thesis.`,
      additional_kwargs: { files: [FILE] },
    });
    const deerflow = new HumanMessage("Compare them.\n<current_uploads>\n- a.csv\n</current_uploads>\nThanks.");
    expect(conversationForMemory([announced, new AIMessage("Done."), deerflow])).toBe(
      "User: Summarise this for my thesis.\n\nAssistant: Done.\n\nUser: Compare them.\nThanks.",
    );
  });

  it("leaves out a turn that only uploaded files, with the answer that follows", () => {
    const uploadOnly = new HumanMessage({
      content: uploadedFilesBlock([FILE]),
      additional_kwargs: { files: [FILE] },
    });
    const messages = [
      uploadOnly,
      callsTool(),
      new ToolMessage({ content: "report.pdf", tool_call_id: "c1", name: "ls" }),
      new AIMessage("I see report.pdf."),
      new HumanMessage("I'm a chemist."),
      new AIMessage("Noted."),
    ];
    expect(conversationForMemory(messages)).toBe("User: I'm a chemist.\n\nAssistant: Noted.");
    const filesOnly = new HumanMessage({ content: "", additional_kwargs: { files: [FILE] } });
    expect(conversationForMemory([filesOnly, new AIMessage("I see report.pdf.")])).toBe("");
  });

  it("is empty when nothing is left to learn from", () => {
    expect(conversationForMemory([])).toBe("");
    expect(conversationForMemory([hiddenMessage("reminder"), callsTool(), new AIMessage("<think>…</think>")])).toBe("");
  });

  it("keeps the first and last 500 characters of a long message", () => {
    const long = `${"a".repeat(600)}${"b".repeat(600)}`;
    const text = conversationForMemory([new HumanMessage(long)]);
    expect(text).toBe(`User: ${"a".repeat(500)}\n...[truncated]...\n${"b".repeat(500)}`);
    expect(conversationForMemory([new AIMessage("x".repeat(1000))])).toBe(`Assistant: ${"x".repeat(1000)}`);
  });
});

describe("truncateForMemory", () => {
  it("never splits a character made of two code units", () => {
    const emoji = "😀".repeat(800);
    const cut = truncateForMemory(emoji);
    expect(Array.from(cut.replace("\n...[truncated]...\n", "")).every((c) => c === "😀")).toBe(true);
    expect(truncateForMemory("😀".repeat(600))).toBe("😀".repeat(600));
  });
});

describe("isClarificationAnswer", () => {
  it("accepts DeerFlow's text and option answers and nothing malformed", () => {
    const check = (response: unknown) =>
      isClarificationAnswer(new HumanMessage({ content: "x", additional_kwargs: { human_input_response: response } }));
    expect(check(validAnswer)).toBe(true);
    expect(check({ ...validAnswer, response_kind: "option", option_id: "option-1" })).toBe(true);
    expect(check({ ...validAnswer, response_kind: "option" })).toBe(false);
    expect(check({ ...validAnswer, version: 2 })).toBe(false);
    expect(check({ ...validAnswer, request_id: "" })).toBe(false);
    expect(check("Lisbon")).toBe(false);
  });
});

describe("memorySignals", () => {
  it("notices corrections and confirmations in the user's recent messages", () => {
    expect(memorySignals([new HumanMessage("No, that's wrong, use pnpm."), new AIMessage("OK.")])).toEqual({
      correction: true,
      reinforcement: false,
    });
    expect(memorySignals([new HumanMessage("不对，重新来")]).correction).toBe(true);
    expect(memorySignals([new HumanMessage("Perfect, that's exactly what I wanted.")])).toEqual({
      correction: false,
      reinforcement: true,
    });
    expect(memorySignals([new HumanMessage("Plan a trip to Lisbon.")])).toEqual({
      correction: false,
      reinforcement: false,
    });
  });

  it("looks only at the last six messages and only at what the user wrote", () => {
    const old = [new HumanMessage("That's wrong."), ...Array.from({ length: 6 }, () => new AIMessage("ok"))];
    expect(memorySignals(old).correction).toBe(false);
    expect(memorySignals([new AIMessage("That's wrong, sorry."), hiddenMessage("try again")]).correction).toBe(false);
  });
});
