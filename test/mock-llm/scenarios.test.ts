import { describe, expect, it } from "vitest";
import { MEMORY_UPDATE_MARKER, pickScenario, type ChatRequest } from "./scenarios.ts";

function request(messages: ChatRequest["messages"], toolNames: string[] = []): ChatRequest {
  return { model: "mock-model", messages, toolNames, stream: true, includeUsage: false };
}

describe("memory-update scenario", () => {
  it("learns one fact per preference the user stated, and nothing from the assistant", () => {
    const chat = request([
      { role: "system", text: `${MEMORY_UPDATE_MARKER}\nAnswer with JSON.` },
      {
        role: "user",
        text: "<current_memory>{}</current_memory>\n<conversation>\nUser: Hi. I prefer dark roast coffee. I use Vim daily.\nAssistant: I like tea.\n</conversation>",
      },
    ]);
    const scenario = pickScenario(chat);
    expect(scenario.name).toBe("memory-update");
    const script = scenario.respond(chat, { firstTime: () => true });
    if (script.kind !== "text") throw new Error("expected text");
    const update = JSON.parse(script.chunks.join("")) as { newFacts: { content: string; confidence: number }[] };
    expect(update.newFacts.map((fact) => fact.content)).toEqual([
      "User prefers dark roast coffee",
      "User uses Vim daily",
    ]);
    expect(update.newFacts.every((fact) => fact.confidence >= 0.9)).toBe(true);
  });
});

describe("fan-out and subtask scenarios", () => {
  it("delegates three subtasks at once when the task tool is offered", () => {
    const chat = request([{ role: "user", text: "Please fan out" }], ["bash", "task"]);
    const script = pickScenario(chat).respond(chat, { firstTime: () => true });
    if (script.kind !== "tool_calls") throw new Error("expected tool calls");
    expect(script.calls.map((call) => call.name)).toEqual(["task", "task", "task"]);
    expect(JSON.parse(script.calls[0]!.arguments)).toMatchObject({ subagent_type: "general-purpose" });
  });

  it("has a subagent run bash first, then report", () => {
    const first = request([{ role: "user", text: "Subtask beta: count the pears" }], ["bash"]);
    expect(pickScenario(first).respond(first, { firstTime: () => true })).toMatchObject({
      kind: "tool_calls",
      calls: [{ name: "bash" }],
    });
    const after = request([
      ...first.messages,
      { role: "assistant", text: "" },
      { role: "tool", text: "beta counting" },
    ]);
    const script = pickScenario(after).respond(after, { firstTime: () => true });
    if (script.kind !== "text") throw new Error("expected text");
    expect(script.chunks.join("")).toBe("Subtask beta is complete: 3 found.");
  });
});
