// ask_clarification (DeerFlow's clarify-first tool): the agent asks the user one question — free text, a choice
// among options, or a form — and the run ends there (`returnDirect`). The result's text is the question for the
// model; its `artifact.human_input` is the request the UI's Clarification card renders. The user's answer is the
// thread's next message.
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { z } from "zod";
import { CLARIFICATION_TOOL_NAME, CLARIFICATION_TYPES, HUMAN_INPUT_FIELD_TYPES } from "../../protocol/index.ts";
import { humanInputRequest, humanInputText, type ClarificationArgs } from "./clarification-request.ts";

/**
 * Accepts any value but shows the model `shape`: arguments slightly off the shape (a JSON string for a list, a
 * number for a string, an unknown type) are normalized by clarification-request.ts instead of failing the call.
 */
function lenient(shape: z.ZodType, description: string) {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(shape);
  return z
    .unknown()
    .meta({ ...jsonSchema, description })
    .optional();
}

const FIELD_SHAPE = z.object({
  name: z.string().describe("Key of the answer; unique in the form."),
  label: z.string().optional().describe("What the user sees; defaults to the name."),
  type: z.enum(HUMAN_INPUT_FIELD_TYPES).optional().describe("The control; defaults to text."),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional().describe("The choices of a select or multi_select."),
  placeholder: z.string().optional(),
});

const SCHEMA = z
  .object({
    question: z.string().describe("One clear question."),
    clarification_type: lenient(z.enum(CLARIFICATION_TYPES), "Why you are asking."),
    context: lenient(z.string(), "What you know so far, in a sentence or two."),
    options: lenient(z.array(z.string()), "Answers the user can pick; they may also write their own."),
    fields: lenient(
      z.array(FIELD_SHAPE),
      "A form, when you need several values at once (at most 16 fields); used instead of options.",
    ),
  })
  // The model is told clarification_type is required; a call without it still counts, as missing_info.
  .meta({ required: ["question", "clarification_type"] });

export const askClarificationTool = tool(
  async (args: ClarificationArgs, config): Promise<ToolMessage | string> => {
    const toolCallId = config.toolCall?.id;
    const request = humanInputRequest(args, {
      requestId: `clarification:${toolCallId ?? "direct"}`,
      toolCallId,
    });
    const text = humanInputText(request);
    // Called outside a tool call (no id to answer), there is no card to show: the text is the result.
    if (toolCallId === undefined) return text;
    return new ToolMessage({
      // Stable: a retried call replaces its question instead of adding another.
      id: request.request_id,
      name: CLARIFICATION_TOOL_NAME,
      tool_call_id: toolCallId,
      status: "success",
      content: text,
      artifact: { human_input: request },
    });
  },
  {
    name: CLARIFICATION_TOOL_NAME,
    description:
      "Ask the user a question when information is missing, the request is ambiguous, there are several " +
      "reasonable approaches, an action is risky, or you have a suggestion to confirm. Ask before starting work " +
      "you would otherwise guess at. Give options when the answer is one of a few; give fields when you need " +
      "several values at once. The run stops here; the user's answer arrives as their next message.",
    schema: SCHEMA,
  },
);
// The run ends after this tool (createAgent honours returnDirect); set here because tool()'s typing drops it.
askClarificationTool.returnDirect = true;
