// DeerFlow's TokenUsageMiddleware: after each model call, the tokens its answer reports (`usage_metadata`) are
// added to the thread's `token_usage` state, so the thread carries its running total across runs.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export const NO_TOKEN_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

/** The sum of two usages; a missing side counts as zero. */
export function addTokenUsage(current: TokenUsage | undefined, next: TokenUsage | undefined): TokenUsage {
  return {
    input_tokens: count(current?.input_tokens) + count(next?.input_tokens),
    output_tokens: count(current?.output_tokens) + count(next?.output_tokens),
    total_tokens: count(current?.total_tokens) + count(next?.total_tokens),
  };
}

/** The usage an AI message reports, with the total derived when the provider leaves it out; else undefined. */
export function usageOf(message: BaseMessage | undefined): TokenUsage | undefined {
  if (message === undefined || !AIMessage.isInstance(message) || message.usage_metadata === undefined) return undefined;
  const { input_tokens, output_tokens, total_tokens } = message.usage_metadata;
  const input = count(input_tokens);
  const output = count(output_tokens);
  return { input_tokens: input, output_tokens: output, total_tokens: count(total_tokens) || input + output };
}

/** An update of `token_usage`: a usage to add, or a whole total that replaces the current one. */
export type TokenUsageUpdate = { delta: TokenUsage } | TokenUsage;

/**
 * The `token_usage` reducer: adds a `{ delta }`, takes a plain usage as the new total. Plain values must not add:
 * langchain's ReactAgent feeds a thread's whole current state back in as the input of each run
 * (`#initializeMiddlewareStates`), which would count every earlier run again.
 */
export function reduceTokenUsage(current: TokenUsage | undefined, update: TokenUsageUpdate | undefined): TokenUsage {
  if (update === undefined) return addTokenUsage(current, undefined);
  return "delta" in update ? addTokenUsage(current, update.delta) : addTokenUsage(undefined, update);
}

const tokenUsageSchema = z.object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() });

const tokenUsageState = new StateSchema({
  // The stored value starts at zero so that every update goes through the reducer (LangGraph stores an empty
  // channel's first update as it is, which would keep a `{ delta }`); the input stays optional, as createAgent
  // refuses to start while a required field is missing from the input.
  token_usage: new ReducedValue(
    tokenUsageSchema.default(() => ({ ...NO_TOKEN_USAGE })),
    {
      inputSchema: z.union([z.object({ delta: tokenUsageSchema }), tokenUsageSchema]).optional(),
      reducer: reduceTokenUsage,
    },
  ),
});

export interface TokenUsageOptions {
  /** Told each model call's usage as it is counted. */
  onUsage?: (usage: TokenUsage) => void;
}

/** Adds `token_usage` to the agent's state: the thread's total, one model call at a time. */
export function tokenUsageMiddleware(options: TokenUsageOptions = {}) {
  return createMiddleware({
    name: "TokenUsageMiddleware",
    stateSchema: tokenUsageState,
    afterModel: (state) => {
      const usage = usageOf(state.messages.at(-1));
      if (usage === undefined) return undefined;
      options.onUsage?.(usage);
      return { token_usage: { delta: usage } };
    },
  });
}
