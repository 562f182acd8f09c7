import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { hiddenMessage } from "./hidden-messages.ts";
import {
  generateSuggestions,
  parseSuggestions,
  suggestionContext,
  suggestionsPrompt,
  SUGGESTIONS_MARKER,
} from "./suggestions.ts";

describe("parseSuggestions", () => {
  it("reads the questions from a JSON array, even inside a code fence after some thinking", () => {
    const output = '<think>they asked about tea</think>```json\n["How is green tea made?", "Is it healthy?"]\n```';
    expect(parseSuggestions(output)).toEqual(["How is green tea made?", "Is it healthy?"]);
  });

  it("keeps three at most, each on one line, without blanks, repeats, overlong ones or non-strings", () => {
    const output = JSON.stringify(["  A\nquestion ", "", "A question", 42, "x".repeat(201), "B?", "C?", "D?"]);
    expect(parseSuggestions(output)).toEqual(["A question", "B?", "C?"]);
  });

  it("gives none for an answer without a JSON array", () => {
    expect(parseSuggestions("Sure! Here are some ideas: 1. this 2. that")).toEqual([]);
    expect(parseSuggestions("[not json]")).toEqual([]);
    expect(parseSuggestions('{"questions": 3}')).toEqual([]);
  });
});

describe("suggestionContext", () => {
  it("quotes the latest six visible messages, without hidden reminders or tool calls' empty turns", () => {
    const messages = [
      ...Array.from({ length: 4 }, (_, i) => [new HumanMessage(`q${i}`), new AIMessage(`a${i}`)]).flat(),
      hiddenMessage("a reminder for the model"),
      new AIMessage({ content: "", tool_calls: [{ id: "1", name: "bash", args: {} }] }),
    ];
    expect(suggestionContext(messages).map((m) => `${m.role}:${m.text}`)).toEqual([
      "user:q1",
      "assistant:a1",
      "user:q2",
      "assistant:a2",
      "user:q3",
      "assistant:a3",
    ]);
  });
});

describe("generateSuggestions", () => {
  it("asks the model once, with the conversation in its prompt, and returns its questions", async () => {
    const model = fakeModel().respond(new AIMessage('["Which beans?", "How fine a grind?", "What water?"]'));
    const questions = await generateSuggestions(model, [
      new HumanMessage("How do I make espresso?"),
      new AIMessage("Use a fine grind."),
    ]);
    expect(questions).toEqual(["Which beans?", "How fine a grind?", "What water?"]);
    const sent = model.calls[0]!.messages;
    expect(sent[0]!.text).toContain(SUGGESTIONS_MARKER);
    expect(sent[0]!.text).toContain("User: How do I make espresso?");
  });

  it("gives none without a reply yet, and none when the model fails", async () => {
    const unused = fakeModel();
    expect(await generateSuggestions(unused, [new HumanMessage("hi")])).toEqual([]);
    expect(unused.calls).toHaveLength(0);
    const failing = fakeModel().respond(new Error("unreachable"));
    expect(await generateSuggestions(failing, [new HumanMessage("hi"), new AIMessage("hello")])).toEqual([]);
  });

  it("asks in the prompt for as many questions as wanted", () => {
    expect(suggestionsPrompt([{ role: "user", text: "hi" }], 3).system).toContain("JSON array of 3 strings");
  });
});
