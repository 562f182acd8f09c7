import { describe, expect, it } from "vitest";
import type { ThreadEntry, WireMessage } from "../../protocol/index.ts";
import {
  answeredCallIds,
  answerUsages,
  carriesClarificationAnswer,
  clarificationCarriers,
  unansweredLastCalls,
} from "./answers.ts";
import { clarificationReplyText } from "./clarification-form.ts";

const human = (id: string, content: string): WireMessage => ({ type: "human", id, content });
const ai = (id: string, total?: number): WireMessage => ({
  type: "ai",
  id,
  content: "",
  ...(total !== undefined && { usage_metadata: { input_tokens: total - 1, output_tokens: 1, total_tokens: total } }),
});
const question = (id: string, text: string): WireMessage => ({
  type: "tool",
  id,
  tool_call_id: `call-${id}`,
  name: "ask_clarification",
  content: text,
});
const entries = (...messages: WireMessage[]): ThreadEntry[] =>
  messages.map((message) => ({ kind: "message", message }));

describe("answerUsages", () => {
  it("sums an answer's steps onto its last AI message, one count per answer", () => {
    const usages = answerUsages([
      human("u1", "hi"),
      ai("a1", 10),
      { type: "tool", id: "t1", tool_call_id: "c1", content: "ok" },
      ai("a2", 20),
      ai("a3", 30),
      human("u2", "again"),
      ai("b1", 5),
    ]);
    expect([...usages.entries()]).toEqual([
      ["a3", { input_tokens: 57, output_tokens: 3, total_tokens: 60 }],
      ["b1", { input_tokens: 4, output_tokens: 1, total_tokens: 5 }],
    ]);
  });

  it("has no count for an answer whose provider reported nothing", () => {
    expect(answerUsages([human("u1", "hi"), ai("a1"), ai("a2")]).size).toBe(0);
  });
});

describe("clarificationCarriers", () => {
  it("finds the user message that carries a card's answer, and only that one", () => {
    const thread = entries(
      human("u1", "draft it"),
      ai("a1"),
      question("q1", "Which format?"),
      human("u2", clarificationReplyText("Which format?", "PDF")),
      ai("a2"),
      human("u3", clarificationReplyText("Which format?", "PDF")),
    );
    expect([...clarificationCarriers(thread)]).toEqual(["u2"]);
  });

  it("shows words the user typed instead of using the card", () => {
    const thread = entries(human("u1", "draft it"), question("q1", "Which format?"), human("u2", "PDF please"));
    expect(clarificationCarriers(thread).size).toBe(0);
  });

  it("tells whether a message about to be sent carries the open question's answer", () => {
    const thread = entries(human("u1", "draft it"), question("q1", "Which format?"));
    expect(carriesClarificationAnswer(thread, clarificationReplyText("Which format?", "PDF"))).toBe(true);
    expect(carriesClarificationAnswer(thread, "PDF")).toBe(false);
    expect(carriesClarificationAnswer(entries(human("u1", "x")), clarificationReplyText("Which format?", "PDF"))).toBe(
      false,
    );
  });
});

describe("unansweredLastCalls", () => {
  const calling = (id: string, ...calls: string[]): WireMessage => ({
    type: "ai",
    id,
    content: "",
    tool_calls: calls.map((call) => ({ id: call, name: "bash", args: {} })),
  });
  const result = (call: string): WireMessage => ({ type: "tool", id: `r-${call}`, tool_call_id: call, content: "ok" });

  it("lists the last step's calls that have no result: what Continue runs in a cut-off reply", () => {
    expect([...unansweredLastCalls([human("u1", "go"), calling("a1", "c1", "c2"), result("c1")])]).toEqual(["c2"]);
    expect([...unansweredLastCalls([human("u1", "go"), calling("a1", "c1")])]).toEqual(["c1"]);
  });

  it("lists nothing once the step is answered or the conversation went on past it", () => {
    expect(unansweredLastCalls([calling("a1", "c1"), result("c1")]).size).toBe(0);
    expect(unansweredLastCalls([calling("a1", "c1"), human("u2", "next")]).size).toBe(0);
    expect(unansweredLastCalls([human("u1", "hi")]).size).toBe(0);
  });
});

describe("answeredCallIds", () => {
  it("lists the calls the messages answer", () => {
    expect([...answeredCallIds([ai("a1"), question("q1", "?")])]).toEqual(["call-q1"]);
  });
});
