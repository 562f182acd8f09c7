import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  canonicalJson,
  currentRunMessages,
  DEFAULT_LOOP_LIMITS,
  judgeToolCalls,
  loopDetectionMiddleware,
  withToolCalls,
} from "./loop-detection.ts";
import { hiddenMessage, isHiddenMessage } from "../hidden-messages.ts";
import { titleMiddleware } from "./title.ts";

let callCount = 0;
function turn(name: string, args: Record<string, unknown>): BaseMessage[] {
  const id = `call-${callCount++}`;
  return [
    new AIMessage({ content: "", tool_calls: [{ id, name, args, type: "tool_call" }] }),
    new ToolMessage({ content: "ok", tool_call_id: id, name }),
  ];
}
const repeat = (times: number, name: string, args: Record<string, unknown>) =>
  Array.from({ length: times }, () => turn(name, args)).flat();
/** The messages as the model has just answered: the last turn's tool result not there yet. */
const pending = (messages: BaseMessage[]) => messages.slice(0, -1);

describe("canonicalJson", () => {
  it("gives equal text for equal arguments in any key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
  });
});

describe("judgeToolCalls", () => {
  const start = [new HumanMessage("go")];

  it("warns at the third identical call and stops at the fifth", () => {
    expect(judgeToolCalls(pending([...start, ...repeat(2, "ls", { path: "/a" })])).level).toBe("ok");
    expect(judgeToolCalls(pending([...start, ...repeat(3, "ls", { path: "/a" })]))).toEqual({
      level: "warn",
      kind: "repeat",
      toolName: "ls",
      count: 3,
    });
    expect(judgeToolCalls(pending([...start, ...repeat(4, "ls", { path: "/a" })])).level).toBe("warn");
    expect(judgeToolCalls(pending([...start, ...repeat(5, "ls", { path: "/a" })]))).toMatchObject({
      level: "stop",
      count: 5,
    });
  });

  it("treats different arguments as different calls and ignores key order", () => {
    const varied = [
      ...start,
      ...turn("ls", { path: "/a" }),
      ...turn("ls", { path: "/b" }),
      ...turn("ls", { path: "/a" }),
    ];
    expect(judgeToolCalls(pending(varied)).level).toBe("ok");
    const reordered = [
      ...start,
      ...turn("grep", { pattern: "x", path: "/a" }),
      ...turn("grep", { path: "/a", pattern: "x" }),
      ...turn("grep", { pattern: "x", path: "/a" }),
    ];
    expect(judgeToolCalls(pending(reordered)).level).toBe("warn");
  });

  it("only counts repeats within the last 20 calls", () => {
    const spread: BaseMessage[] = [...start];
    for (let i = 0; i < 5; i++) {
      spread.push(...turn("ls", { path: "/a" }));
      for (let j = 0; j < 10; j++) spread.push(...turn("read_file", { path: `/f${i}-${j}` }));
    }
    spread.push(...turn("ls", { path: "/a" }));
    expect(judgeToolCalls(pending(spread)).level).toBe("ok");
    expect(judgeToolCalls(pending(spread), { ...DEFAULT_LOOP_LIMITS, window: 100 }).level).toBe("stop");
  });

  it("counts one tool's calls in the run whatever the arguments", () => {
    const limits = { warnRepeats: 3, hardRepeats: 5, window: 20, toolWarn: 3, toolHard: 4 };
    const calls = (n: number) => [
      ...start,
      ...Array.from({ length: n }, (_, i) => turn("bash", { command: `echo ${i}` })).flat(),
    ];
    expect(judgeToolCalls(pending(calls(2)), limits).level).toBe("ok");
    expect(judgeToolCalls(pending(calls(3)), limits)).toEqual({
      level: "warn",
      kind: "frequency",
      toolName: "bash",
      count: 3,
    });
    expect(judgeToolCalls(pending(calls(4)), limits)).toMatchObject({ level: "stop", kind: "frequency" });
  });

  it("starts counting afresh with each message from the user, not with hidden reminders", () => {
    const reminder = hiddenMessage("note");
    const earlier = [...start, ...repeat(4, "ls", { path: "/a" })];
    expect(judgeToolCalls(pending([...earlier, new HumanMessage("again"), ...turn("ls", { path: "/a" })])).level).toBe(
      "ok",
    );
    expect(judgeToolCalls(pending([...earlier, reminder, ...turn("ls", { path: "/a" })])).level).toBe("stop");
    expect(currentRunMessages([...earlier, reminder])).toHaveLength(9);
  });
});

describe("withToolCalls", () => {
  it("drops calls from tool_calls and the raw provider calls, appends the note and marks the stop", () => {
    const message = new AIMessage({
      id: "m1",
      content: "Trying again",
      tool_calls: [{ id: "a", name: "ls", args: {}, type: "tool_call" }],
      additional_kwargs: {
        tool_calls: [{ id: "a", type: "function", function: { name: "ls", arguments: "{}" } }],
        reasoning_content: "hm",
      },
      response_metadata: { finish_reason: "tool_calls" },
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    const stopped = withToolCalls(message, () => false, "[Stopped]");
    expect(stopped.id).toBe("m1");
    expect(stopped.tool_calls).toEqual([]);
    expect(stopped.additional_kwargs).toEqual({ reasoning_content: "hm" });
    expect(stopped.content).toBe("Trying again\n\n[Stopped]");
    expect(stopped.response_metadata.finish_reason).toBe("stop");
    expect(stopped.usage_metadata?.total_tokens).toBe(3);
  });

  it("adds the note as a text block to structured content", () => {
    const message = new AIMessage({ content: [{ type: "text", text: "x" }], tool_calls: [] });
    expect(withToolCalls(message, () => true, "[n]").content).toEqual([
      { type: "text", text: "x" },
      { type: "text", text: "[n]" },
    ]);
  });
});

describe("loopDetectionMiddleware", () => {
  it("reminds the model after the third identical call and ends the run at the fifth", async () => {
    let executed = 0;
    const echo = tool(
      async () => {
        executed++;
        return "same result";
      },
      { name: "echo", description: "Echo.", schema: z.object({ text: z.string() }) },
    );
    const model = fakeModel();
    for (let i = 0; i < 8; i++) model.respondWithTools([{ name: "echo", args: { text: "again" } }]);
    // The title middleware shows the stop ends the run through afterAgent hooks (a jumpTo "end" could skip them).
    const agent = createAgent({ model, tools: [echo], middleware: [titleMiddleware(), loopDetectionMiddleware()] });
    const result = await agent.invoke({ messages: [new HumanMessage("loop please")] });

    expect(model.callCount).toBe(DEFAULT_LOOP_LIMITS.hardRepeats);
    expect(executed).toBe(DEFAULT_LOOP_LIMITS.hardRepeats - 1);
    const last = result.messages.at(-1) as AIMessage;
    expect(last.tool_calls).toEqual([]);
    expect(last.text).toContain("[Stopped: the same echo call was repeated 5 times");

    const reminders = (call: number) => model.calls[call]!.messages.filter(isHiddenMessage);
    expect(reminders(2)).toHaveLength(0);
    expect(reminders(3)).toHaveLength(1);
    expect(reminders(3)[0]!.text).toContain("same arguments 3 times");
    expect(reminders(4)[0]!.text).toContain("same arguments 4 times");
    expect(result.messages.some(isHiddenMessage)).toBe(false);
    expect(result.title).toBe("loop please");
  });
});
