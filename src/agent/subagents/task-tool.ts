// The `task` tool: the lead agent delegates a self-contained task to a subagent, follows it through `task_*` custom
// events on the run's stream, and gets its result (content) and outcome (artifact) back.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredTool, ToolRuntime } from "@langchain/core/tools";
import { tool } from "langchain";
import { z } from "zod";
import type { SubtaskOutcome, TaskEvent } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { TASK_TOOL_NAME } from "../middlewares/subagent-limit.ts";
import type { ModelErrorOptions } from "../middlewares/model-retry.ts";
import {
  modelNameOf,
  runSubagent,
  stepOf,
  unknownTypeRun,
  type SubagentRun,
  type SubagentRunOptions,
} from "./subagent-runner.ts";
import type { SubagentType } from "./subagent-types.ts";
import { toolCatalog, type ToolCatalog } from "../../mcp/tool-search.ts";

export interface TaskToolOptions {
  /** The resolved types; only the available ones are offered. */
  types: SubagentType[];
  model: BaseChatModel;
  /** The parent's tools; each subagent gets those of its type. */
  tools: StructuredTool[];
  now?: Date;
  /** Named in the events; default the model's own name. */
  modelName?: string;
  /** Retry policy for the subagents' model errors (tests shorten the waits). */
  retry?: ModelErrorOptions;
  /** Stored API keys, kept out of the subagents' error text. */
  secrets?: readonly string[];
  /** The approval of tool calls that send data out, which every subagent's calls wait for too. */
  approval?: SubagentRunOptions["approval"];
  /** The lead agent's deferred MCP tools: a subagent's share of them waits behind its own tool_search. */
  catalog?: ToolCatalog;
  /** Runs a subagent; tests replace it. */
  runner?: (options: SubagentRunOptions) => Promise<SubagentRun>;
}

export interface TaskArgs {
  description: string;
  prompt: string;
  subagent_type: string;
}

function taskDescription(types: readonly SubagentType[]): string {
  return [
    "Hand one self-contained task to a subagent: a separate worker with its own tools and context that does the",
    "work and returns its final result to you. It cannot see this conversation or ask you anything, so `prompt`",
    "must carry everything it needs. Several `task` calls in one response run in parallel; each call blocks until",
    "its subagent is done, so there is nothing to poll.",
    "Subagent types:",
    ...types.map((type) => `- ${type.name}: ${type.description}`),
  ].join("\n");
}

function taskSchema(types: readonly SubagentType[]) {
  return z.object({
    description: z.string().describe("A 3-5 word label for the task, shown to the user on its card."),
    prompt: z
      .string()
      .describe(
        "The complete instructions: the goal, the inputs (facts, file paths, URLs), constraints, and what the " +
          "result must contain. The subagent sees nothing else.",
      ),
    // Any text is accepted, so a wrong name is answered with the list of types instead of a schema error.
    subagent_type: z
      .string()
      .meta({ enum: types.map((type) => type.name), description: "Which kind of subagent does the task." }),
  });
}

/** The outcome without the parent-only fields, as the artifact carries it. */
function outcomeOf(run: SubagentRun): SubtaskOutcome {
  const { text: _text, result: _result, ...outcome } = run;
  return outcome;
}

function terminalEvent(taskId: string, run: SubagentRun, modelName: string): TaskEvent {
  const common = {
    task_id: taskId,
    model_name: run.subagent_model_name ?? modelName,
    ...(run.subagent_token_usage && { usage: run.subagent_token_usage }),
  };
  switch (run.subagent_status) {
    case "completed":
      return { type: "task_completed", ...common, result: run.result ?? run.subagent_result_brief ?? "" };
    case "failed":
      return { type: "task_failed", ...common, error: run.subagent_error ?? "" };
    case "cancelled":
      return { type: "task_cancelled", ...common };
    case "timed_out":
      return { type: "task_timed_out", ...common, ...(run.subagent_error && { error: run.subagent_error }) };
  }
}

/** The deferred tools among a subagent's `tools`, as their own catalog; undefined when it has none of them. */
async function subagentCatalog(
  catalog: ToolCatalog,
  tools: readonly StructuredTool[],
): Promise<ToolCatalog | undefined> {
  const own = catalog.tools.filter((deferred) => tools.includes(deferred as StructuredTool));
  if (own.length === 0) return undefined;
  return own.length === catalog.tools.length ? catalog : toolCatalog(own);
}

/**
 * The `task` tool over the available `types`. Each call streams `task_started`, a `task_running` per subagent
 * message (bounded as in the outcome's steps, so the live card and a reloaded one agree) and one terminal event through the run's custom writer (`runtime.writer`, which langchain's ToolNode
 * passes on from the LangGraph config: no AsyncLocalStorage involved), keyed by the tool call's id. The run's
 * signal (Stop) cancels the subagent. Returns `[text for the model, SubtaskOutcome]` as content and artifact.
 */
export function createTaskTool(options: TaskToolOptions) {
  const types = options.types.filter((type) => type.available);
  const runner = options.runner ?? runSubagent;
  const modelName = options.modelName ?? modelNameOf(options.model);
  return tool(
    async (args: TaskArgs, runtime: ToolRuntime): Promise<[string, SubtaskOutcome]> => {
      const taskId = runtime.toolCall?.id ?? runtime.toolCallId ?? newId();
      const emit = (event: TaskEvent) => {
        try {
          runtime.writer?.(event);
        } catch {
          // The run's stream may already be closed (a Stop); the outcome still reaches the ToolMessage.
        }
      };
      emit({
        type: "task_started",
        task_id: taskId,
        description: args.description,
        subagent_type: args.subagent_type,
        model_name: modelName,
      });
      const type = types.find((candidate) => candidate.name === args.subagent_type);
      const tools = type ? options.tools.filter((candidate) => type.toolNames.includes(candidate.name)) : [];
      const catalog = options.catalog && (await subagentCatalog(options.catalog, tools));
      const run = type
        ? await runner({
            type,
            prompt: args.prompt,
            model: options.model,
            tools,
            ...(catalog && { catalog }),
            modelName,
            ...(runtime.signal && { signal: runtime.signal }),
            ...(options.now && { now: options.now }),
            ...(options.retry && { retry: options.retry }),
            ...(options.secrets && { secrets: options.secrets }),
            ...(options.approval && { approval: options.approval }),
            onMessage: (message, index, total, usage) =>
              emit({
                type: "task_running",
                task_id: taskId,
                message: stepOf(message),
                message_index: index,
                total_messages: total,
                ...(usage && { usage }),
                model_name: modelName,
              }),
          })
        : unknownTypeRun(
            args.subagent_type,
            types.map((candidate) => candidate.name),
            modelName,
          );
      emit(terminalEvent(taskId, run, modelName));
      return [run.text, outcomeOf(run)];
    },
    {
      name: TASK_TOOL_NAME,
      description: taskDescription(types),
      schema: taskSchema(types),
      responseFormat: "content_and_artifact",
    },
  );
}
