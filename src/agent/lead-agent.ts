// The lead agent: `createAgent` from langchain's browser build, with Fawn's system prompt (DESIGN.md D3).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createAgent } from "langchain";

export interface LeadAgentOptions {
  model: BaseChatModel;
  /** Today's date as the user's clock says; injected so the model does not guess. */
  now?: Date;
  /** Where the thread's state lives between runs; without one, each run starts from its input alone. */
  checkpointer?: BaseCheckpointSaver;
}

export function leadAgentSystemPrompt(now: Date): string {
  const date = now.toISOString().slice(0, 10);
  return [
    "You are Fawn, a capable assistant that runs in the user's own browser.",
    "Answer directly and accurately. Use Markdown when it helps: headings for long answers, lists for steps,",
    "fenced code blocks with a language for code, tables for comparisons.",
    "When you are unsure, say what you know and what you do not, instead of guessing.",
    `Today's date is ${date}.`,
  ].join("\n");
}

export function createLeadAgent(options: LeadAgentOptions) {
  return createAgent({
    model: options.model,
    tools: [],
    systemPrompt: leadAgentSystemPrompt(options.now ?? new Date()),
    ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
  });
}

export type LeadAgent = ReturnType<typeof createLeadAgent>;
