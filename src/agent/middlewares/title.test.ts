import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { hiddenMessage } from "../hidden-messages.ts";
import {
  cleanTitle,
  EMPTY_TITLE,
  fallbackTitle,
  generateTitle,
  shouldGenerateTitle,
  titleMiddleware,
  titlePrompt,
} from "./title.ts";

const reminder = hiddenMessage;
const LONG = "Please analyse the quarterly sales spreadsheet and tell me which regions grew fastest and why";

describe("shouldGenerateTitle", () => {
  it("is true after the first exchange of a thread without a title", () => {
    expect(shouldGenerateTitle([new HumanMessage("hi"), new AIMessage("Hello!")], undefined)).toBe(true);
  });

  it("is false when the thread has a title, on the second turn, or before any visible answer", () => {
    const first = [new HumanMessage("hi"), new AIMessage("Hello!")];
    expect(shouldGenerateTitle(first, "Greetings")).toBe(false);
    expect(shouldGenerateTitle([...first, new HumanMessage("again"), new AIMessage("Yes?")], undefined)).toBe(false);
    expect(shouldGenerateTitle([new HumanMessage("hi")], undefined)).toBe(false);
    const onlyCalls = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "ls", args: {}, type: "tool_call" }],
    });
    expect(shouldGenerateTitle([new HumanMessage("hi"), onlyCalls], undefined)).toBe(false);
    expect(shouldGenerateTitle([new HumanMessage("hi"), new AIMessage("<think>hmm</think>")], undefined)).toBe(false);
  });

  it("does not count hidden reminders as user messages", () => {
    const messages = [reminder("context"), new HumanMessage("hi"), reminder("nudge"), new AIMessage("Hello!")];
    expect(shouldGenerateTitle(messages, undefined)).toBe(true);
    expect(shouldGenerateTitle([...messages, new HumanMessage("more")], undefined)).toBe(false);
  });

  it("counts a clarification question as the answer, so a thread that starts with one gets its title", () => {
    const asks = new AIMessage({
      content: "",
      tool_calls: [{ id: "q1", name: "ask_clarification", args: {}, type: "tool_call" }],
    });
    const question = new ToolMessage({ content: "❓ Which city?", tool_call_id: "q1", name: "ask_clarification" });
    expect(shouldGenerateTitle([new HumanMessage("Plan a trip"), asks, question], undefined)).toBe(true);
    const other = new ToolMessage({ content: "file list", tool_call_id: "q1", name: "ls" });
    expect(shouldGenerateTitle([new HumanMessage("Plan a trip"), asks, other], undefined)).toBe(false);
  });

  it("counts structured AI content with text as a visible answer", () => {
    const answer = new AIMessage({ content: [{ type: "text", text: "Here you go" }] });
    expect(shouldGenerateTitle([new HumanMessage("hi"), answer], "")).toBe(true);
  });
});

describe("fallbackTitle", () => {
  it("keeps a short message whole, with whitespace collapsed", () => {
    expect(fallbackTitle("  Plan   a\ntrip to Lisbon ")).toBe("Plan a trip to Lisbon");
  });

  it("cuts a long message to 50 characters and '...' by default", () => {
    const title = fallbackTitle(LONG);
    expect(title).toBe(`${LONG.slice(0, 50).trimEnd()}...`);
    expect(title.length).toBeLessThanOrEqual(53);
  });

  it("never exceeds maxChars and ends with '...' when it cuts", () => {
    for (const maxChars of [10, 20, 40, 49, 50, 52, 53, 60, 200]) {
      const title = fallbackTitle(LONG, maxChars);
      expect(title.length, `maxChars ${maxChars}`).toBeLessThanOrEqual(maxChars);
      expect(title.endsWith("..."), `maxChars ${maxChars}`).toBe(true);
    }
  });

  it("names an empty conversation", () => {
    expect(fallbackTitle("   \n ")).toBe(EMPTY_TITLE);
  });
});

describe("cleanTitle", () => {
  it("drops thinking, quotes, Markdown, labels and the trailing period", () => {
    expect(cleanTitle('<think>They want a title.</think>\n"Lisbon Trip Plan."')).toBe("Lisbon Trip Plan");
    expect(cleanTitle("**Title:** Quarterly Sales Growth")).toBe("Quarterly Sales Growth");
    expect(cleanTitle("# “Regional Growth”\n\nExplanation: it is about sales")).toBe("Regional Growth");
    expect(cleanTitle("'Budget review'.")).toBe("Budget review");
  });

  it("cuts to maxChars and is empty when nothing is left", () => {
    expect(cleanTitle("A very long title about many different things", 10)).toBe("A very lon");
    expect(cleanTitle("<think>only thinking")).toBe("");
    expect(cleanTitle("  ")).toBe("");
  });
});

describe("titlePrompt", () => {
  it("asks in the words the mock LLM recognises and quotes at most 500 characters of each side", () => {
    // test/mock-llm/scenarios.ts answers title requests that match this.
    const mockTitleRequest = /\b(generate|create|write|suggest)\b[^.\n]{0,40}\btitle\b/i;
    const prompt = titlePrompt("u".repeat(800), "a".repeat(900), 4);
    expect(prompt).toMatch(mockTitleRequest);
    expect(prompt).toContain("at most 4 words");
    expect(prompt).toContain(`${"u".repeat(500)}\n`);
    expect(prompt).not.toContain("u".repeat(501));
    expect(prompt).not.toContain("a".repeat(501));
  });
});

describe("generateTitle", () => {
  const exchange = [new HumanMessage(LONG), new AIMessage("<think>secret reasoning</think>The West grew fastest.")];

  it("uses the model's cleaned answer, prompting with the user's text and the visible answer", async () => {
    const model = fakeModel().respond(new AIMessage('"Regional Sales Growth."'));
    expect(await generateTitle(exchange, { model })).toBe("Regional Sales Growth");
    const prompt = model.calls[0]!.messages[0]!.text;
    expect(prompt).toContain(LONG);
    expect(prompt).toContain("The West grew fastest.");
    expect(prompt).not.toContain("secret reasoning");
  });

  it("normalizes structured content before prompting", async () => {
    const model = fakeModel().respond(new AIMessage({ content: [{ type: "text", text: "Sales Regions" }] }));
    const messages: BaseMessage[] = [
      new HumanMessage({ content: [{ type: "text", text: "Which regions grew?" }] }),
      new AIMessage({ content: [{ type: "text", text: "The West." }] }),
    ];
    expect(await generateTitle(messages, { model })).toBe("Sales Regions");
    expect(model.calls[0]!.messages[0]!.text).toContain("Which regions grew?\n");
  });

  it("prompts with the clarification question when there is no AI text", async () => {
    const model = fakeModel().respond(new AIMessage("Trip planning"));
    const messages = [
      new HumanMessage("Plan a trip"),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "q1", name: "ask_clarification", args: {}, type: "tool_call" }],
      }),
      new ToolMessage({ content: "❓ Which city?", tool_call_id: "q1", name: "ask_clarification" }),
    ];
    expect(await generateTitle(messages, { model })).toBe("Trip planning");
    expect(model.calls[0]!.messages[0]!.text).toContain("<assistant_answer>\n❓ Which city?\n");
  });

  it("falls back to the user's message without a model, on a model error, or on an empty answer", async () => {
    const expected = fallbackTitle(LONG);
    expect(await generateTitle(exchange)).toBe(expected);
    expect(await generateTitle(exchange, { model: fakeModel().respond(new Error("503")) })).toBe(expected);
    expect(await generateTitle(exchange, { model: fakeModel().respond(new AIMessage("<think>…</think>")) })).toBe(
      expected,
    );
  });
});

describe("titleMiddleware", () => {
  it("sets the title after the first exchange, tells onTitle, and keeps the title call out of the stream", async () => {
    const model = fakeModel().respond(new AIMessage("Lisbon is lovely in May."));
    const titleModel = fakeModel().respond(new AIMessage("Mock conversation title"));
    const titles: string[] = [];
    const agent = createAgent({
      model,
      middleware: [titleMiddleware({ model: titleModel, onTitle: (title) => titles.push(title) })],
    });
    const streamed: string[] = [];
    const stream = await agent.stream(
      { messages: [new HumanMessage("Plan a trip to Lisbon")] },
      {
        streamMode: ["messages", "values"],
      },
    );
    let last: Record<string, unknown> = {};
    for await (const [mode, chunk] of stream) {
      if (mode === "messages") streamed.push((chunk as [BaseMessage, unknown])[0].text);
      else last = chunk as Record<string, unknown>;
    }
    expect(last.title).toBe("Mock conversation title");
    expect(titles).toEqual(["Mock conversation title"]);
    expect(titleModel.callCount).toBe(1);
    expect(streamed.join("")).toContain("Lisbon is lovely");
    expect(streamed.join("")).not.toContain("Mock conversation title");
  });

  it("does not title the thread again on the second turn", async () => {
    const model = fakeModel().respond(new AIMessage("First answer.")).respond(new AIMessage("Second answer."));
    const titleModel = fakeModel().respond(new AIMessage("Topic")).respond(new AIMessage("Other topic"));
    const agent = createAgent({
      model,
      middleware: [titleMiddleware({ model: titleModel })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t1" } };
    await agent.invoke({ messages: [new HumanMessage("one")] }, config);
    const second = await agent.invoke({ messages: [new HumanMessage("two")] }, config);
    expect(second.title).toBe("Topic");
    expect(titleModel.callCount).toBe(1);
  });

  it("titles from the user's message when the title model fails", async () => {
    const model = fakeModel().respond(new AIMessage("Done."));
    const agent = createAgent({
      model,
      middleware: [titleMiddleware({ model: fakeModel().alwaysThrow(new Error("rate limited")), maxChars: 20 })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage(LONG)] });
    expect(result.title).toBe(fallbackTitle(LONG, 20));
    expect(result.title!.length).toBeLessThanOrEqual(20);
  });
});

describe("titles as Settings → Models → Summaries and titles set them", () => {
  const exchange = [new HumanMessage(LONG), new AIMessage("The West grew fastest.")];

  it("fills the user's own prompt, the messages still marked as the conversation's text", async () => {
    const model = fakeModel().respond(new AIMessage("Regional growth"));
    const prompt = "Name this chat in {max_words} words or fewer.\n{user_msg}\n{assistant_msg}";
    expect(await generateTitle(exchange, { model, maxWords: 3, prompt })).toBe("Regional growth");
    expect(model.calls[0]!.messages[0]!.text).toBe(
      `Name this chat in 3 words or fewer.\n<user_message>\n${LONG}\n</user_message>\n` +
        "<assistant_answer>\nThe West grew fastest.\n</assistant_answer>",
    );
  });

  it("does not fill a placeholder the user's message itself contains", () => {
    expect(titlePrompt("Say {max_words}", "ok", 4, "{user_msg} / {max_words}")).toBe(
      "<user_message>\nSay {max_words}\n</user_message> / 4",
    );
  });

  it("cuts the model's title and the fallback to the characters allowed", async () => {
    const model = fakeModel().respond(new AIMessage("Regional Sales Growth Across Every Quarter"));
    expect(await generateTitle(exchange, { model, maxChars: 12 })).toBe("Regional Sal");
    expect(await generateTitle(exchange, { maxChars: 20 })).toBe("Please analyse th...");
  });
});
