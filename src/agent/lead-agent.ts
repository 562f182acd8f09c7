// The lead agent: `createAgent` from langchain's browser build, with Fawn's system prompt (DESIGN.md D3).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredTool } from "@langchain/core/tools";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createAgent } from "langchain";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { artifactsMiddleware } from "./middlewares/artifacts.ts";
import { danglingToolCallMiddleware } from "./middlewares/dangling-tool-calls.ts";
import { askClarificationTool } from "./tools/clarification.ts";
import { createSandboxTools } from "./tools/sandbox-tools.ts";

export interface LeadAgentOptions {
  model: BaseChatModel;
  /** Today's date as the user's clock says; injected so the model does not guess. */
  now?: Date;
  /** Where the thread's state lives between runs; without one, each run starts from its input alone. */
  checkpointer?: BaseCheckpointSaver;
  /** The thread's sandbox, acquired on the first tool call; without it the agent has no tools. */
  sandbox?: () => Promise<Sandbox>;
}

export function leadAgentSystemPrompt(now: Date, options: { sandbox?: boolean } = {}): string {
  const date = now.toISOString().slice(0, 10);
  return [
    "You are Fawn, a capable assistant that runs in the user's own browser.",
    "Answer directly and accurately. Use Markdown when it helps: headings for long answers, lists for steps,",
    "fenced code blocks with a language for code, tables for comparisons.",
    "When you are unsure, say what you know and what you do not, instead of guessing.",
    ...(options.sandbox
      ? [
          "",
          "<working_directory>",
          "You have a sandbox with bash and file tools (see the bash tool for what it can run). Its folders:",
          "- /mnt/user-data/workspace: your scratch space and the working directory of bash.",
          "- /mnt/user-data/uploads: files the user gave you (read them, do not change them).",
          "- /mnt/user-data/outputs: files for the user; save every deliverable here.",
          "- /mnt/skills: skills you may read (read-only).",
          "Nothing else exists: paths with '..' or outside these folders are refused. Files persist across turns.",
          "</working_directory>",
        ]
      : []),
    `Today's date is ${date}.`,
  ].join("\n");
}

export function createLeadAgent(options: LeadAgentOptions) {
  // One element type for the list: TypeScript cannot infer createAgent's overload from a union of tool types.
  const tools: StructuredTool[] = [
    ...(options.sandbox ? createSandboxTools(options.sandbox) : []),
    askClarificationTool,
  ];
  return createAgent({
    model: options.model,
    tools,
    middleware: options.sandbox
      ? [danglingToolCallMiddleware, artifactsMiddleware(options.sandbox)]
      : [danglingToolCallMiddleware],
    systemPrompt: leadAgentSystemPrompt(options.now ?? new Date(), { sandbox: options.sandbox !== undefined }),
    ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
  });
}

export type LeadAgent = ReturnType<typeof createLeadAgent>;
