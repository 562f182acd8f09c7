// The lead agent's `<subagent_system>` section: when to delegate with `task`, the hard limits, and the types.
import type { SubagentType } from "./subagent-types.ts";

export interface SubagentPromptOptions {
  /** The types to offer; unavailable ones are left out. */
  types: readonly SubagentType[];
  /** `task` calls kept from one response. */
  maxConcurrent: number;
  /** `task` calls allowed in one run. */
  maxPerRun: number;
}

/**
 * Tells the lead agent to work directly by default and delegate only when it pays (independent work in parallel,
 * a specialist, a context kept clean), states the per-response and per-run limits as hard ones, lists the
 * available types, and explains that `task` blocks, that subagents see only their prompt, and that the lead agent
 * writes the final answer itself.
 */
export function subagentPromptSection(options: SubagentPromptOptions): string {
  const { maxConcurrent, maxPerRun } = options;
  const types = options.types.filter((type) => type.available);
  const parallel =
    maxConcurrent === 1
      ? "- At most 1 `task` call per response: subagents never run in parallel, so delegate one piece at a time."
      : `- At most ${maxConcurrent} \`task\` calls per response; they run in parallel. Extra calls are dropped ` +
        "without running: if you have more pieces, send the next batch in a later response.";
  return [
    "<subagent_system>",
    "You can delegate work to subagents with the `task` tool. A subagent is a separate worker with its own tools",
    "and context; it does one task and returns its result to you.",
    "",
    "Do the work yourself by default. Delegate only when it is clearly worth the overhead:",
    "- independent pieces of work that can run at the same time (researching several topics, analysing several",
    "  files);",
    "- a piece that needs a specialist subagent listed below;",
    "- a long, noisy piece of work whose details would crowd your context when only its result matters.",
    "Never delegate steps that depend on each other's results, and never let parallel subagents edit the same",
    "files or state. A simple or quick task is faster done directly.",
    "",
    "Hard limits (calls beyond them are refused):",
    parallel,
    `- At most ${maxPerRun} \`task\` calls in this whole run, counting every response. Plan your delegation to fit.`,
    "",
    "Subagent types:",
    ...types.map((type) => `- ${type.name}: ${type.description}`),
    "",
    "How it works:",
    "- `task` returns only when the subagent has finished, with its result; there is nothing to poll or wait for.",
    "- Subagents cannot see this conversation, the user's files list or each other. Each `prompt` must be complete",
    "  on its own: the goal, the facts and file paths it needs, constraints, and what the result must contain.",
    "- Subagents cannot ask questions; clarify with the user yourself before delegating.",
    "- Read every result, check it, and write the final answer yourself: combine the results, resolve conflicts,",
    "  and do not just paste them.",
    "</subagent_system>",
  ].join("\n");
}
