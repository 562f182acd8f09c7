import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_SUBAGENT_SETTINGS, type UsageMetadata } from "../../protocol/index.ts";
import { isHiddenMessage } from "../hidden-messages.ts";
import { callTool, ScriptedChatModel } from "./scripted-chat-model.ts";
import {
  boundText,
  EMPTY_SUBAGENT_RESULT,
  LAST_TURN_REMINDER,
  runSubagent,
  SUBAGENT_STEP_MAX_CHARS,
  timeoutMessage,
  unknownTypeRun,
  type SubagentRunOptions,
} from "./subagent-runner.ts";
import { resolveSubagentTypes, type SubagentType } from "./subagent-types.ts";

const NOW = new Date("2025-03-04T10:00:00Z");

const echo = tool(async ({ text }) => `echo: ${text}`, {
  name: "read_file",
  description: "Echo.",
  schema: z.object({ text: z.string() }),
});

function generalPurpose(overrides: Partial<SubagentType> = {}): SubagentType {
  const [type] = resolveSubagentTypes(DEFAULT_SUBAGENT_SETTINGS, ["read_file"]);
  return { ...type!, ...overrides };
}

function usage(input: number, output: number): UsageMetadata {
  return { input_tokens: input, output_tokens: output, total_tokens: input + output };
}

function run(model: ScriptedChatModel, options: Partial<SubagentRunOptions> = {}) {
  return runSubagent({
    type: generalPurpose(),
    prompt: "Summarize the report.",
    model,
    tools: [echo],
    now: NOW,
    retry: { maxRetries: 0 },
    ...options,
  });
}

describe("runSubagent", () => {
  it("completes with the last answer's visible text, in DeerFlow's words for the parent", async () => {
    const model = new ScriptedChatModel({
      model: "gpt-test",
      replies: [
        new AIMessage({
          content: "",
          tool_calls: [{ id: "c1", name: "read_file", args: { text: "hi" }, type: "tool_call" }],
          usage_metadata: usage(10, 5),
        }),
        new AIMessage({ content: "<think>easy</think>The report says hi.", usage_metadata: usage(20, 7) }),
      ],
    });
    const outcome = await run(model);
    expect(outcome).toMatchObject({
      subagent_status: "completed",
      subagent_type: "general-purpose",
      subagent_model_name: "gpt-test",
      subagent_result_brief: "The report says hi.",
      subagent_token_usage: usage(30, 12),
      result: "The report says hi.",
      text: "Task Succeeded. Result: The report says hi.",
    });
    expect(outcome.subagent_stop_reason).toBeUndefined();
    expect(outcome.subagent_steps?.map((step) => step.type)).toEqual(["ai", "tool", "ai"]);
    expect(outcome.subagent_steps?.[1]).toMatchObject({ type: "tool", content: "echo: hi", tool_call_id: "c1" });
  });

  it("gives the subagent only its prompt, under its instructions, the sandbox's folders and today's date", async () => {
    const model = new ScriptedChatModel({ replies: [new AIMessage("Done.")] });
    await run(model);
    const [system, prompt, ...rest] = model.calls[0]!;
    expect(rest).toEqual([]);
    expect(system?.type).toBe("system");
    expect(system?.text).toContain(generalPurpose().instructions);
    expect(system?.text).toContain("/mnt/user-data/outputs");
    expect(system?.text).toContain("Today's date is 2025-03-04.");
    expect(prompt?.type).toBe("human");
    expect(prompt?.text).toBe("Summarize the report.");
  });

  it("leaves the sandbox's folders out when the subagent has no file tools", async () => {
    const model = new ScriptedChatModel({ replies: [new AIMessage("Done.")] });
    await run(model, { type: generalPurpose({ toolNames: ["web_search"] }), tools: [] });
    expect(model.calls[0]![0]!.text).not.toContain("/mnt/user-data");
  });

  it("reports each message once it is final, with its 1-based index and the usage so far", async () => {
    const model = new ScriptedChatModel({
      replies: [
        new AIMessage({
          content: "Looking.",
          tool_calls: [{ id: "c1", name: "read_file", args: { text: "a" }, type: "tool_call" }],
          usage_metadata: usage(3, 1),
        }),
        new AIMessage({ content: "Found it.", usage_metadata: usage(5, 2) }),
      ],
    });
    const seen: { type: string; index: number; total: number; usage: UsageMetadata | undefined }[] = [];
    await run(model, {
      onMessage: (message: BaseMessage, index, total, usageSoFar) =>
        seen.push({ type: message.type, index, total, usage: usageSoFar }),
    });
    expect(seen).toEqual([
      { type: "ai", index: 1, total: 1, usage: usage(3, 1) },
      { type: "tool", index: 2, total: 2, usage: usage(3, 1) },
      { type: "ai", index: 3, total: 3, usage: usage(8, 3) },
    ]);
  });

  it("stops after its turn budget, telling the model its last turn, and succeeds as capped", async () => {
    let call = 0;
    const model = new ScriptedChatModel({
      fallback: () => callTool("read_file", { text: `page ${++call}` }, `c${call}`, `Reading page ${call}.`),
    });
    const seen: BaseMessage[] = [];
    const outcome = await run(model, {
      type: generalPurpose({ maxTurns: 3 }),
      onMessage: (message) => seen.push(message),
    });
    expect(model.calls).toHaveLength(3);
    expect(model.calls[2]!.at(-1)!.text).toBe(LAST_TURN_REMINDER);
    expect(isHiddenMessage(model.calls[2]!.at(-1)!)).toBe(true);
    expect(model.calls[1]!.some((message) => message.text === LAST_TURN_REMINDER)).toBe(false);
    expect(outcome).toMatchObject({ subagent_status: "completed", subagent_stop_reason: "turn_capped" });
    expect(outcome.text).toBe("Task Succeeded (capped: turn budget). Result: Reading page 3.");
    // The last turn's tool call was removed before it ran, and the card never saw it.
    expect(outcome.subagent_steps?.map((step) => step.type)).toEqual(["ai", "tool", "ai", "tool", "ai"]);
    expect(outcome.subagent_steps?.at(-1)).not.toHaveProperty("tool_calls");
    expect((seen.at(-1) as AIMessage).tool_calls).toEqual([]);
  });

  it("succeeds as capped by a tool-call loop when loop detection stops it", async () => {
    const model = new ScriptedChatModel({ fallback: () => callTool("read_file", { text: "same" }, undefined) });
    const outcome = await run(model);
    expect(outcome).toMatchObject({ subagent_status: "completed", subagent_stop_reason: "loop_capped" });
    expect(outcome.text).toMatch(/^Task Succeeded \(capped: repeated tool-call loop\)\. Result: \[Stopped: /);
  });

  it("times out: the model call is aborted and the parent reads DeerFlow's timeout text", async () => {
    const model = new ScriptedChatModel({ delayMs: 10_000, replies: [new AIMessage("Too late.")] });
    const started = Date.now();
    const outcome = await run(model, { type: generalPurpose({ timeoutMs: 100 }) });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome).toMatchObject({
      subagent_status: "timed_out",
      subagent_error: "The subagent did not finish within 0.1 seconds.",
      text: "Task timed out. Error: The subagent did not finish within 0.1 seconds.",
    });
  });

  it("does not time out while a call waits for the user's approval, and times out once it runs again", async () => {
    const asked: string[] = [];
    const approval: SubagentRunOptions["approval"] = {
      describe: (call) => (call.name === "read_file" ? { target: "somewhere" } : undefined),
      ask: async (call) => {
        asked.push(call.tool);
        await new Promise((resolve) => setTimeout(resolve, 400));
        return "allow";
      },
    };
    const answered = new ScriptedChatModel({
      replies: [callTool("read_file", { text: "hi" }, "c1"), new AIMessage("Read it.")],
    });
    const outcome = await run(answered, { type: generalPurpose({ timeoutMs: 200 }), approval });
    expect(asked).toEqual(["read_file"]);
    expect(outcome).toMatchObject({ subagent_status: "completed", result: "Read it." });

    // The clock runs again once the answer came: a tool that then hangs still times out.
    const again = new ScriptedChatModel({
      replies: [callTool("read_file", { text: "hi" }, "c1")],
      fallback: () => new AIMessage("Too late."),
    });
    let calls = 0;
    const timedOut = await run(again, {
      type: generalPurpose({ timeoutMs: 200 }),
      approval: {
        ...approval,
        ask: async () => {
          calls++;
          await new Promise((resolve) => setTimeout(resolve, 400));
          return "allow";
        },
      },
      tools: [
        tool(
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            return "slow";
          },
          { name: "read_file", description: "Slow.", schema: z.object({ text: z.string() }) },
        ),
      ],
    });
    expect(calls).toBe(1);
    expect(timedOut).toMatchObject({ subagent_status: "timed_out" });
  });

  it("is cancelled by the parent's Stop and calls its model no more", async () => {
    const parent = new AbortController();
    let call = 0;
    const model = new ScriptedChatModel({
      delayMs: 50,
      fallback: () => callTool("read_file", { text: `step ${++call}` }, `c${call}`),
    });
    const outcome = await run(model, {
      signal: parent.signal,
      onMessage: (message) => {
        if (message.type === "tool") parent.abort();
      },
    });
    expect(outcome).toMatchObject({ subagent_status: "cancelled", text: "Task cancelled by user." });
    const calls = model.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(model.calls.length).toBe(calls);
    expect(calls).toBeLessThanOrEqual(2);
    // What it did before the Stop stays on the card.
    expect(outcome.subagent_steps?.slice(0, 2).map((step) => step.type)).toEqual(["ai", "tool"]);
  });

  it("does not start when the parent has already stopped", async () => {
    const model = new ScriptedChatModel({ replies: [new AIMessage("Never.")] });
    const outcome = await run(model, { signal: AbortSignal.abort() });
    expect(outcome.subagent_status).toBe("cancelled");
    expect(model.calls).toHaveLength(0);
  });

  it("fails with the model's error", async () => {
    const model = new ScriptedChatModel({ replies: [new Error("400 The model `nope` does not exist")] });
    const outcome = await run(model);
    expect(outcome).toMatchObject({
      subagent_status: "failed",
      subagent_error: "400 The model `nope` does not exist",
      text: "Task failed. Error: 400 The model `nope` does not exist",
    });
  });

  it("fails without a stored key in its error", async () => {
    const model = new ScriptedChatModel({ replies: [new Error("401 Incorrect API key provided: sk-sub-KEY-1234")] });
    const outcome = await run(model, { secrets: ["sk-sub-KEY-1234"] });
    expect(outcome).toMatchObject({
      subagent_status: "failed",
      subagent_error: "401 Incorrect API key provided: [redacted key]",
      text: "Task failed. Error: 401 Incorrect API key provided: [redacted key]",
    });
  });

  it("keeps the whole result for the parent and a bounded brief in the outcome", async () => {
    const long = `${"a".repeat(3_000)}${"z".repeat(3_000)}`;
    const outcome = await run(new ScriptedChatModel({ replies: [new AIMessage(long)] }));
    expect(outcome.text).toBe(`Task Succeeded. Result: ${long}`);
    expect(outcome.subagent_result_brief).toHaveLength(2_000);
    expect(outcome.subagent_result_brief).toMatch(/^a+\n\.\.\.\nz+$/);
  });

  it("says so when the subagent finished without any text", async () => {
    const outcome = await run(new ScriptedChatModel({ replies: [new AIMessage("")] }));
    expect(outcome.text).toBe(`Task Succeeded. Result: ${EMPTY_SUBAGENT_RESULT}`);
  });

  it("keeps the last 50 steps, each bounded", async () => {
    const big = tool(async ({ n }) => `${n}:${"x".repeat(10_000)}`, {
      name: "read_file",
      description: "Big.",
      schema: z.object({ n: z.number() }),
    });
    let call = 0;
    const model = new ScriptedChatModel({
      fallback: () =>
        ++call <= 30 ? callTool("read_file", { n: call }, `c${call}`) : new AIMessage(`Read ${call - 1} files.`),
    });
    const outcome = await run(model, { tools: [big] });
    expect(outcome.subagent_status).toBe("completed");
    const steps = outcome.subagent_steps ?? [];
    expect(steps).toHaveLength(50);
    expect(steps.at(-1)).toMatchObject({ type: "ai", content: "Read 30 files." });
    for (const step of steps) {
      expect(typeof step.content === "string" && step.content.length).toBeLessThanOrEqual(SUBAGENT_STEP_MAX_CHARS);
    }
  });
});

describe("boundText", () => {
  it("keeps short text and cuts long text to its head (two thirds) and tail around a marker", () => {
    expect(boundText("short", 20)).toBe("short");
    const text = "0123456789".repeat(10);
    const bounded = boundText(text, 35);
    expect(bounded).toHaveLength(35);
    expect(bounded).toBe(`${text.slice(0, 20)}\n...\n${text.slice(-10)}`);
  });
});

describe("unknownTypeRun", () => {
  it("fails naming the available types", () => {
    expect(unknownTypeRun("researcher", ["general-purpose", "bash"])).toMatchObject({
      subagent_status: "failed",
      subagent_type: "researcher",
      text: "Task failed. Error: Unknown subagent type 'researcher'. Available: general-purpose, bash",
    });
  });
});

describe("timeoutMessage", () => {
  it("names the limit in seconds", () => {
    expect(timeoutMessage(900_000)).toBe("The subagent did not finish within 900 seconds.");
  });
});
