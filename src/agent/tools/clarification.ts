// ask_clarification (DeerFlow's clarify-first tool): the agent asks the user one question, with options when it
// has them, and the run ends there (`returnDirect`); the user's answer is the next message of the thread.
// Forms (`fields`) are not built yet.
import { tool } from "langchain";
import { z } from "zod";

export const CLARIFICATION_TYPES = [
  "missing_info",
  "ambiguous_requirement",
  "approach_choice",
  "risk_confirmation",
  "suggestion",
] as const;

export type ClarificationType = (typeof CLARIFICATION_TYPES)[number];

const ICONS: Record<ClarificationType, string> = {
  missing_info: "❓",
  ambiguous_requirement: "🤔",
  approach_choice: "🔀",
  risk_confirmation: "⚠️",
  suggestion: "💡",
};

export interface ClarificationRequest {
  question: string;
  clarification_type: ClarificationType;
  context?: string | null;
  options?: readonly unknown[] | null;
}

/** Options as the user sees them: text only (tags stripped), trimmed, no blanks, no repeats, at most 24. */
export function normalizeOptions(options: readonly unknown[] | null | undefined): string[] {
  const cleaned = (options ?? [])
    .map((option) => (typeof option === "string" ? option : typeof option === "number" ? String(option) : ""))
    .map((option) => option.replace(/<[^>]*>/g, "").trim())
    .filter((option) => option.length > 0)
    .map((option) => option.slice(0, 200));
  return [...new Set(cleaned)].slice(0, 24);
}

/** The question as text: the type's icon, the context (if any) then the question, then numbered options. */
export function formatClarification(request: ClarificationRequest): string {
  const icon = ICONS[request.clarification_type] ?? ICONS.missing_info;
  const context = request.context?.trim();
  const head = context ? `${icon} ${context}\n\n${request.question.trim()}` : `${icon} ${request.question.trim()}`;
  const options = normalizeOptions(request.options);
  return options.length === 0 ? head : `${head}\n\n${options.map((option, i) => `  ${i + 1}. ${option}`).join("\n")}`;
}

export const askClarificationTool = tool(async (request) => formatClarification(request), {
  name: "ask_clarification",
  description:
    "Ask the user a question when information is missing, the request is ambiguous, there are several reasonable " +
    "approaches, an action is risky, or you have a suggestion to confirm. Ask before starting work you would " +
    "otherwise guess at. The run stops here; the user's answer arrives as their next message.",
  schema: z.object({
    question: z.string().describe("One clear question."),
    clarification_type: z.enum(CLARIFICATION_TYPES).describe("Why you are asking."),
    context: z.string().nullish().describe("What you know so far, in a sentence or two."),
    options: z.array(z.string()).nullish().describe("Answers the user can pick; they may also write their own."),
  }),
});
// The run ends after this tool (createAgent honours returnDirect); set here because tool()'s typing drops it.
askClarificationTool.returnDirect = true;
