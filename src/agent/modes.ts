// DeerFlow's modes as run options: Flash, Thinking, Pro (plan) and Ultra (plan and subagents).
import type { AgentMode, ModelTarget } from "../protocol/index.ts";
import { AGENT_MODES } from "../protocol/index.ts";

export type ReasoningEffort = "low" | "medium" | "high";

export interface RunOptions {
  mode: AgentMode;
  /** The model id the run talks to. */
  model: string;
  /** Reasoning is asked for: a non-Flash mode on a model marked `thinking`. */
  thinking: boolean;
  reasoningEffort?: ReasoningEffort;
  /** Pro and Ultra: the agent keeps a plan with `write_todos`. */
  planMode: boolean;
  /** Ultra: the agent may delegate to subagents. */
  subagents: boolean;
  /** The model reads images: the agent gets `view_image`. */
  vision: boolean;
  /** The model calls tools (unless its entry says it cannot): without, the agent answers from its text alone. */
  tools: boolean;
}

const EFFORT: Record<AgentMode, ReasoningEffort | undefined> = {
  flash: undefined,
  thinking: "low",
  pro: "medium",
  ultra: "high",
};

/**
 * What a run does in a mode with a model (the one the run talks to, already chosen: see models' `targetForRun`).
 * Unlike DeerFlow, a model without reasoning keeps Pro's plan and Ultra's subagents (they do not need reasoning);
 * only the reasoning request is dropped.
 */
export function resolveRunOptions(target: ModelTarget | undefined, requested?: AgentMode): RunOptions {
  const mode: AgentMode = requested && AGENT_MODES.includes(requested) ? requested : "flash";
  const entry = target?.models.find((found) => found.id === target.model);
  const thinking = mode !== "flash" && entry?.thinking === true;
  const effort = thinking ? EFFORT[mode] : undefined;
  return {
    mode,
    model: target?.model ?? "",
    thinking,
    ...(effort && { reasoningEffort: effort }),
    planMode: mode === "pro" || mode === "ultra",
    subagents: mode === "ultra",
    vision: entry?.vision === true,
    tools: entry?.tools !== false,
  };
}
