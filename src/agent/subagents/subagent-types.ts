// Subagent types: the built-in general-purpose and bash workers plus the user's own, resolved against the parent's
// tools, and the validation of Settings → Subagents.
import { z } from "zod";
import { CLARIFICATION_TOOL_NAME, DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from "../../protocol/index.ts";
import {
  SUBAGENT_CONCURRENCY_MAX,
  SUBAGENT_CONCURRENCY_MIN,
  SUBAGENT_RUN_TOTAL_MAX,
  SUBAGENT_RUN_TOTAL_MIN,
  TASK_TOOL_NAME,
} from "../middlewares/subagent-limit.ts";

export const GENERAL_PURPOSE_SUBAGENT = "general-purpose";
export const BASH_SUBAGENT = "bash";
export const BUILT_IN_SUBAGENT_NAMES: readonly string[] = [GENERAL_PURPOSE_SUBAGENT, BASH_SUBAGENT];

/** Tools no subagent gets: it cannot delegate further, ask the user, or present files to them. */
export const SUBAGENT_FORBIDDEN_TOOLS: readonly string[] = [TASK_TOOL_NAME, CLARIFICATION_TOOL_NAME, "present_files"];
/** The bash subagent's tools (those the parent has). */
export const BASH_SUBAGENT_TOOLS: readonly string[] = ["bash", "ls", "read_file", "write_file", "str_replace"];

export const GENERAL_PURPOSE_MAX_TURNS = 150;
export const BASH_MAX_TURNS = 60;
export const CUSTOM_MAX_TURNS_DEFAULT = 50;
export const MAX_TURNS_MIN = 1;
export const MAX_TURNS_MAX = 500;
export const TIMEOUT_SECONDS_MIN = 10;
export const TIMEOUT_SECONDS_MAX = 7200;
export const CUSTOM_NAME_MAX_CHARS = 64;
export const CUSTOM_DESCRIPTION_MAX_CHARS = 1024;
export const CUSTOM_INSTRUCTIONS_MAX_CHARS = 20_000;

/** A subagent type ready to run: its tools are names the parent has, its limits are filled in. */
export interface SubagentType {
  name: string;
  /** One line for the lead agent: when to pick this type. */
  description: string;
  /** The subagent's system prompt (before the working-directory facts and the date the runner adds). */
  instructions: string;
  /** The parent's tools it may use, by name. */
  toolNames: string[];
  /** Model calls before it must give its answer. */
  maxTurns: number;
  timeoutMs: number;
  /** False when the parent lacks what the type needs (bash without a sandbox); such a type is not offered. */
  available: boolean;
}

/** What every subagent is told, whatever its type. */
export const SUBAGENT_WORKER_RULES = [
  "<subagent_rules>",
  "You are a subagent: a lead agent handed you one task. Nobody else sees this conversation.",
  "- Do the task yourself with the tools you have, from start to finish.",
  "- You cannot ask questions and nobody will answer them. When something is unclear, choose the most reasonable",
  "  reading, say which assumption you made, and carry on.",
  "- Stay within the task: do what was asked, no more.",
  "- The lead agent sees only your final message, not your tool calls or their output. Make it complete and",
  "  self-contained: the result itself, the facts and figures it rests on, the full paths of files you created or",
  "  changed, your assumptions, and anything you could not do and why.",
  "</subagent_rules>",
].join("\n");

const GENERAL_PURPOSE_INSTRUCTIONS = [
  "<role>",
  "You are a focused, capable worker. You research, analyse, write and build whatever the task needs, using your",
  "tools to do real work rather than describing it. Check your results before you report them.",
  "</role>",
  "",
  SUBAGENT_WORKER_RULES,
].join("\n");

const BASH_INSTRUCTIONS = [
  "<role>",
  "You are a command-line specialist. You run commands and scripts, inspect and change files, and check what each",
  "command printed before relying on it. Prefer small steps you can verify; when a command fails, read the error",
  "and fix the cause instead of repeating it.",
  "</role>",
  "",
  SUBAGENT_WORKER_RULES,
].join("\n");

function withoutForbidden(names: readonly string[]): string[] {
  return [...new Set(names)].filter((name) => !SUBAGENT_FORBIDDEN_TOOLS.includes(name));
}

/**
 * The types the lead agent may delegate to, built-ins first: general-purpose gets every parent tool a subagent may
 * have; bash gets the parent's shell and file tools and is available only when the parent has `bash`; a custom
 * type gets the tools it lists (all allowed ones when it lists none) that the parent has, its own limits or the
 * defaults (50 turns, `settings.timeoutSeconds`), and its instructions followed by the shared worker rules.
 */
export function resolveSubagentTypes(settings: SubagentSettings, parentToolNames: readonly string[]): SubagentType[] {
  const allowed = withoutForbidden(parentToolNames);
  const timeoutMs = settings.timeoutSeconds * 1000;
  const builtIns: SubagentType[] = [
    {
      name: GENERAL_PURPOSE_SUBAGENT,
      description:
        "A capable all-round worker for a complex, multi-step piece of work (research, analysis, writing, code) " +
        "that stands on its own.",
      instructions: GENERAL_PURPOSE_INSTRUCTIONS,
      toolNames: allowed,
      maxTurns: GENERAL_PURPOSE_MAX_TURNS,
      timeoutMs,
      available: true,
    },
    {
      name: BASH_SUBAGENT,
      description:
        "A command-line specialist for a series of shell commands and file operations in the sandbox " +
        "(builds, scripts, data processing, bulk file changes).",
      instructions: BASH_INSTRUCTIONS,
      toolNames: allowed.filter((name) => BASH_SUBAGENT_TOOLS.includes(name)),
      maxTurns: BASH_MAX_TURNS,
      timeoutMs,
      available: allowed.includes("bash"),
    },
  ];
  const custom = settings.custom.map((type): SubagentType => ({
    name: type.name,
    description: type.description,
    instructions: `${type.instructions.trim()}\n\n${SUBAGENT_WORKER_RULES}`,
    toolNames: type.tools === undefined ? allowed : allowed.filter((name) => type.tools!.includes(name)),
    maxTurns: type.maxTurns ?? CUSTOM_MAX_TURNS_DEFAULT,
    timeoutMs: (type.timeoutSeconds ?? settings.timeoutSeconds) * 1000,
    available: true,
  }));
  return [...builtIns, ...custom];
}

/** An integer clamped to [min, max] (a fraction is rounded): out-of-range numbers are corrected, not refused. */
function clampedInt(label: string, min: number, max: number) {
  return z
    .number({ error: `${label} must be a number.` })
    .refine(Number.isFinite, `${label} must be a finite number.`)
    .transform((value) => Math.min(max, Math.max(min, Math.round(value))));
}

const HYPHEN_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const customTypeSchema = z.object({
  name: z
    .string({ error: "The name must be text." })
    .trim()
    .min(1, "The name is empty.")
    .max(CUSTOM_NAME_MAX_CHARS, `The name is longer than ${CUSTOM_NAME_MAX_CHARS} characters.`)
    .regex(HYPHEN_CASE, "The name must be hyphen-case: lowercase letters and digits joined by single hyphens.")
    .refine((name) => !BUILT_IN_SUBAGENT_NAMES.includes(name), {
      error: (issue) => `The name '${String(issue.input)}' belongs to a built-in subagent; choose another.`,
    }),
  description: z
    .string({ error: "The description must be text." })
    .trim()
    .min(1, "The description is empty.")
    .max(CUSTOM_DESCRIPTION_MAX_CHARS, `The description is longer than ${CUSTOM_DESCRIPTION_MAX_CHARS} characters.`),
  instructions: z
    .string({ error: "The instructions must be text." })
    .trim()
    .min(1, "The instructions are empty.")
    .max(
      CUSTOM_INSTRUCTIONS_MAX_CHARS,
      `The instructions are longer than ${CUSTOM_INSTRUCTIONS_MAX_CHARS} characters.`,
    ),
  tools: z
    .array(z.string({ error: "Each tool must be named by text." }).trim().min(1, "A tool name is empty."), {
      error: "The tools must be a list of tool names.",
    })
    .transform((names) => [...new Set(names)])
    .optional(),
  maxTurns: clampedInt("The turn limit", MAX_TURNS_MIN, MAX_TURNS_MAX).optional(),
  timeoutSeconds: clampedInt("The timeout", TIMEOUT_SECONDS_MIN, TIMEOUT_SECONDS_MAX).optional(),
});

const settingsSchema = z.object(
  {
    timeoutSeconds: clampedInt("The timeout", TIMEOUT_SECONDS_MIN, TIMEOUT_SECONDS_MAX).default(
      DEFAULT_SUBAGENT_SETTINGS.timeoutSeconds,
    ),
    maxConcurrent: clampedInt("Subagents per response", SUBAGENT_CONCURRENCY_MIN, SUBAGENT_CONCURRENCY_MAX).default(
      DEFAULT_SUBAGENT_SETTINGS.maxConcurrent,
    ),
    maxPerRun: clampedInt("Subagents per run", SUBAGENT_RUN_TOTAL_MIN, SUBAGENT_RUN_TOTAL_MAX).default(
      DEFAULT_SUBAGENT_SETTINGS.maxPerRun,
    ),
    custom: z
      .array(customTypeSchema, { error: "The custom subagents must be a list." })
      .default([])
      .superRefine((types, context) => {
        const seen = new Set<string>();
        types.forEach((type, index) => {
          if (seen.has(type.name)) {
            context.addIssue({
              code: "custom",
              path: [index, "name"],
              message: `The name '${type.name}' is used by another custom subagent.`,
            });
          }
          seen.add(type.name);
        });
      }),
  },
  { error: "Subagent settings must be an object." },
);

export type SubagentSettingsParseResult =
  { ok: true; value: SubagentSettings } | { ok: false; message: string; problems: string[] };

/** "Custom subagent 'name': " (or its position when it has no usable name) for a problem inside `custom`. */
function problemPrefix(input: unknown, path: readonly PropertyKey[]): string {
  if (path[0] !== "custom" || typeof path[1] !== "number") return "";
  const entry = Array.isArray((input as { custom?: unknown })?.custom)
    ? ((input as { custom: unknown[] }).custom[path[1]] as { name?: unknown } | undefined)
    : undefined;
  const name = typeof entry?.name === "string" ? entry.name.trim() : "";
  return name !== "" && name.length <= CUSTOM_NAME_MAX_CHARS
    ? `Custom subagent '${name}': `
    : `Custom subagent ${path[1] + 1}: `;
}

/**
 * Settings → Subagents checked and normalized: numbers clamped to their ranges (timeouts 10–7200 s, 1–4 per
 * response, 1–50 per run, 1–500 turns), text trimmed, missing fields defaulted; or every problem in a sentence
 * naming the custom subagent it concerns (a bad or duplicate name, an empty or too long description or
 * instructions).
 */
export function parseSubagentSettings(value: unknown): SubagentSettingsParseResult {
  const result = settingsSchema.safeParse(value ?? {});
  if (result.success) {
    const { custom, ...limits } = result.data;
    return {
      ok: true,
      value: {
        ...limits,
        custom: custom.map((type) => ({
          name: type.name,
          description: type.description,
          instructions: type.instructions,
          ...(type.tools !== undefined && { tools: type.tools }),
          ...(type.maxTurns !== undefined && { maxTurns: type.maxTurns }),
          ...(type.timeoutSeconds !== undefined && { timeoutSeconds: type.timeoutSeconds }),
        })),
      },
    };
  }
  const problems = [
    ...new Set(
      result.error.issues.map((issue) => {
        const message = `${problemPrefix(value, issue.path)}${issue.message}`;
        return /[.!?]$/.test(message) ? message : `${message}.`;
      }),
    ),
  ];
  return { ok: false, message: problems.join(" "), problems };
}
